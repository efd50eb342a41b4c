<?php

declare(strict_types=1);

namespace Cambio\Tests;

use Cambio\CambioClient;
use Cambio\Exception\WebhookVerificationException;
use Cambio\Tests\Support\CatchesExceptions;
use Cambio\WebhookEvent;
use PHPUnit\Framework\TestCase;

/**
 * clients/conformance/vectors.json: deliveries signed by the npm standardwebhooks library. Each is
 * verified with the clock at the vector's `now`: an `event` one returns its event, an `unknown` one
 * an event with a null type, a `rejected` one throws a WebhookVerificationException whose message
 * contains `messageIncludes`.
 */
final class WebhookVectorsTest extends TestCase
{
    use CatchesExceptions;

    public static function vectorsPath(): string
    {
        $path = getenv('CAMBIO_CONFORMANCE_VECTORS');
        return $path !== false && $path !== '' ? $path : __DIR__ . '/../../conformance/vectors.json';
    }

    /** @return array<string, mixed> */
    private static function file(): array
    {
        return json_decode((string) file_get_contents(self::vectorsPath()), true, 512, JSON_THROW_ON_ERROR);
    }

    /** @return iterable<string, array{0: array<string, mixed>}> */
    public static function vectors(): iterable
    {
        foreach (self::file()['vectors'] as $vector) {
            yield $vector['name'] => [$vector];
        }
    }

    public function testTheFileHasVectorsAndTheDefaultToleranceIsItsOwn(): void
    {
        $file = self::file();
        self::assertGreaterThanOrEqual(10, count($file['vectors']));
        self::assertSame($file['toleranceSeconds'], \Cambio\WebhookSignature::DEFAULT_TOLERANCE);
    }

    /**
     * @dataProvider vectors
     * @param array<string, mixed> $vector
     */
    public function testVector(array $vector): void
    {
        $cambio = new CambioClient(apiKey: 'ck_vectors', apiSecret: 'cs_vectors', baseUrl: 'http://127.0.0.1:9/v1');
        $verify = fn () => $cambio->webhooks->verify($vector['body'], $vector['headers'], $vector['secret'], now: $vector['now']);
        $verifySignature = fn () => $cambio->webhooks->verifySignature($vector['body'], $vector['headers'], $vector['secret'], now: $vector['now']);
        if ($vector['expect'] === 'rejected') {
            $e = self::thrown(WebhookVerificationException::class, $verify, "accepted: {$vector['description']}");
            self::assertSame('WEBHOOK_VERIFICATION_FAILED', $e->getCambioCode());
            self::assertStringContainsStringIgnoringCase($vector['messageIncludes'], $e->getMessage());
            self::thrown(WebhookVerificationException::class, $verifySignature, "verifySignature accepted: {$vector['description']}");
            return;
        }
        $verifySignature();
        $event = $verify();
        self::assertInstanceOf(WebhookEvent::class, $event);
        self::assertSame($vector['expect'] === 'event', $event->isCambioEvent());
        if ($vector['expect'] === 'unknown') {
            self::assertSame([array_change_key_case($vector['headers'])['webhook-id'], null, []], [$event->id, $event->type, $event->data]);
            return;
        }
        self::assertSame($vector['eventType'], $event->type);
        $sent = json_decode($vector['body'], true);
        self::assertSame($sent['id'], $event->id);
        self::assertSame($sent['createdAt'], $event->createdAt);
        self::assertSame($sent['data'], $event->data);
    }
}
