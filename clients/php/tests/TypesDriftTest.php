<?php

declare(strict_types=1);

namespace Cambio\Tests;

use Cambio\CambioObject;
use PHPUnit\Framework\TestCase;

require_once __DIR__ . '/../tools/generate-types.php';

/** src/Types/ is exactly what tools/generate-types.php makes from the repository's openapi.json. */
final class TypesDriftTest extends TestCase
{
    private const OPENAPI = __DIR__ . '/../../../openapi.json';
    private const TYPES = __DIR__ . '/../src/Types';

    public function testTheCommittedTypesMatchOpenapiJson(): void
    {
        $problems = cambio_types_drift(self::OPENAPI, self::TYPES);
        self::assertSame([], $problems, "openapi.json changed and src/Types/ was not regenerated: run `php tools/generate-types.php` in clients/php and commit src/Types/.\n" . implode("\n", $problems));
    }

    public function testTheCheckFailsWhenOpenapiJsonChanges(): void
    {
        $openapi = json_decode((string) file_get_contents(self::OPENAPI), true);
        $openapi['components']['schemas']['Deposit']['properties']['memo'] = ['type' => 'string'];
        $openapi['components']['schemas']['Deposit']['required'][] = 'memo';
        $changed = tempnam(sys_get_temp_dir(), 'cambio-openapi-');
        try {
            file_put_contents($changed, json_encode($openapi));
            self::assertSame(['src/Types/Deposit.php differs from what openapi.json generates'], cambio_types_drift($changed, self::TYPES));
        } finally {
            unlink($changed);
        }
    }

    public function testTheCheckCommandExitsNonZeroOnlyOnDrift(): void
    {
        exec(escapeshellarg(PHP_BINARY) . ' ' . escapeshellarg(__DIR__ . '/../tools/generate-types.php') . ' --check 2>&1', $output, $code);
        self::assertSame(0, $code, implode("\n", $output));
    }

    public function testEveryRecordFieldOfOpenapiJsonIsAProperty(): void
    {
        $openapi = json_decode((string) file_get_contents(self::OPENAPI), true);
        foreach (['Company', 'Balance', 'Deposit', 'Withdrawal', 'Quote', 'Conversion', 'Webhook', 'CreatedWebhook', 'DeletedWebhook'] as $name) {
            $class = "Cambio\\Types\\$name";
            $fields = array_keys($openapi['components']['schemas'][$name]['properties']);
            // Its public properties in order: those of the record it extends first (CreatedWebhook: Webhook's, then secret).
            $declared = [];
            for ($level = new \ReflectionClass($class); $level->getName() !== CambioObject::class; $level = $level->getParentClass()) {
                $own = array_filter($level->getProperties(\ReflectionProperty::IS_PUBLIC), fn ($property) => $property->class === $level->getName());
                $declared = [...array_map(fn ($property) => $property->getName(), array_values($own)), ...$declared];
            }
            self::assertSame($fields, $declared, $name);
            foreach ($fields as $field) {
                $property = new \ReflectionProperty($class, $field);
                self::assertTrue($property->isPublic() && $property->isReadOnly(), "$name::\$$field");
            }
        }
    }
}
