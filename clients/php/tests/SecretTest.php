<?php

declare(strict_types=1);

namespace Cambio\Tests;

use Cambio\CambioClient;
use Cambio\Exception\CambioException;
use Cambio\Exception\InvalidArgumentException;
use Cambio\Tests\Support\CatchesExceptions;
use Cambio\Types\CreatedWebhook;
use Cambio\Types\Webhook;
use PHPUnit\Framework\TestCase;

/** The API secret never shows in any dump, serialisation, exception message or trace. */
final class SecretTest extends TestCase
{
    use CatchesExceptions;

    private const SECRET = 'cs_live_DO_NOT_LEAK_7f3a9c';

    private static function client(string $url = 'http://127.0.0.1:9/v1'): CambioClient
    {
        return new CambioClient(apiKey: 'ck_live_0123456789', apiSecret: self::SECRET, baseUrl: $url, maxRetries: 0);
    }

    private static function capture(callable $dump): string
    {
        ob_start();
        try {
            $dump();
        } finally {
            $out = (string) ob_get_clean();
        }
        return $out;
    }

    public function testDumpsOfTheClientAndItsGroupsNeverShowTheSecret(): void
    {
        $cambio = self::client();
        $outputs = [
            'var_dump' => self::capture(fn () => var_dump($cambio)),
            'print_r' => print_r($cambio, true),
            'var_export' => var_export($cambio, true),
            'json_encode' => (string) json_encode($cambio),
            'debug_zval_dump' => self::capture(fn () => debug_zval_dump($cambio)),
            'var_dump(deposits)' => self::capture(fn () => var_dump($cambio->deposits)),
            'print_r(webhooks)' => print_r($cambio->webhooks, true),
            'var_export(company)' => var_export($cambio->company, true),
            'array cast' => var_export((array) $cambio, true),
        ];
        foreach ($outputs as $how => $output) {
            self::assertStringNotContainsString(self::SECRET, $output, $how);
            self::assertStringNotContainsString('DO_NOT_LEAK', $output, $how);
        }
        self::assertStringContainsString('[redacted]', $outputs['var_dump']);
        self::assertStringContainsString('127.0.0.1', $outputs['print_r']);
    }

    public function testACreatedWebhooksSigningSecretNeverShowsInPrintROrVarDump(): void
    {
        $secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
        $hook = CreatedWebhook::fromArray([
            'id' => 'whk_01JBZ6W1V7Q8R9S0T1U2V3W4X5', 'url' => 'https://example.com/hooks', 'events' => ['*'], 'description' => null,
            'enabled' => true, 'createdAt' => '2026-01-15T12:00:00.000Z', 'updatedAt' => '2026-01-15T12:00:00.000Z', 'secret' => $secret,
        ]);
        $outputs = [
            'var_dump' => self::capture(fn () => var_dump($hook)),
            'print_r' => print_r($hook, true),
            'print_r in an array' => print_r(['hook' => $hook], true),
            'var_dump in an array' => self::capture(fn () => var_dump([$hook])),
        ];
        foreach ($outputs as $how => $output) {
            self::assertStringNotContainsString('MfKQ9r8', $output, $how);
            self::assertStringContainsString('[hidden]', $output, $how);
            self::assertStringContainsString('whk_01JBZ6W1V7Q8R9S0T1U2V3W4X5', $output, $how);
        }
        self::assertSame($secret, $hook->secret);
        self::assertSame($secret, $hook->toArray()['secret']);
        self::assertSame($secret, json_decode((string) json_encode($hook), true)['secret']);
        // A record without a secret shows every field.
        self::assertStringContainsString('https://example.com/hooks', print_r(Webhook::fromArray(array_diff_key($hook->toArray(), ['secret' => 1])), true));
    }

    public function testTheClientRefusesToBeSerialized(): void
    {
        $this->expectException(\LogicException::class);
        serialize(self::client());
    }

    public function testExceptionsAndTheirTracesNeverShowTheSecret(): void
    {
        $e = self::thrown(CambioException::class, fn () => self::client()->company->get());
        self::assertStringNotContainsString(self::SECRET, (string) $e);
        self::assertStringNotContainsString(self::SECRET, print_r($e->getTrace(), true));
        $e = self::thrown(InvalidArgumentException::class, fn () => new CambioClient(apiKey: 'ck_live_0123456789', apiSecret: self::SECRET, baseUrl: 'http://api.example.com'));
        // The tests run with zend.exception_ignore_args=0, so traces carry arguments: #[\SensitiveParameter] hides it.
        self::assertStringNotContainsString('DO_NOT_LEAK', (string) $e);
        self::assertStringNotContainsString('DO_NOT_LEAK', print_r($e->getTrace(), true));
    }
}
