<?php

declare(strict_types=1);

namespace Cambio\Tests\Support;

use Cambio\CambioClient;
use PHPUnit\Framework\TestCase;

/** One scripted loopback server per test class; a fresh script per test. */
abstract class ScriptedTestCase extends TestCase
{
    use CatchesExceptions;

    protected static ?ScriptedServer $server = null;

    public static function setUpBeforeClass(): void
    {
        self::$server = new ScriptedServer();
    }

    public static function tearDownAfterClass(): void
    {
        self::$server?->stop();
        self::$server = null;
    }

    /** @param list<array<string, mixed>> $answers */
    protected function script(array $answers): void
    {
        self::$server->script($answers);
    }

    /** @return list<array{method: string, uri: string, headers: array<string, string>, body: string}> */
    protected function requests(): array
    {
        return self::$server->requests();
    }

    /** A client with tiny backoff delays, so retries take milliseconds. */
    protected function client(int $maxRetries = 2, float $timeout = 5.0, float $maxRetryAfter = 60.0): CambioClient
    {
        return new CambioClient(
            apiKey: 'ck_test_scripted',
            apiSecret: 'cs_test_scripted_secret',
            baseUrl: self::$server->url(),
            maxRetries: $maxRetries,
            timeout: $timeout,
            initialRetryDelay: 0.01,
            maxRetryDelay: 0.05,
            maxRetryAfter: $maxRetryAfter,
        );
    }

    /** @return array<string, mixed> */
    public static function deposit(array $overrides = []): array
    {
        return $overrides + [
            'id' => 'dep_01KBJ4XZ0A1B2C3D4E5F6G7H8J',
            'method' => 'usdt',
            'reference' => 'order-1',
            'network' => 'tron',
            'address' => 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8',
            'amount' => '25.000000',
            'receivedAmount' => '0.000000',
            'creditedAmount' => '0.000000',
            'amountStatus' => null,
            'status' => 'awaiting_payment',
            'holdReason' => null,
            'confirmations' => 0,
            'requiredConfirmations' => 19,
            'transactions' => [],
            'split' => null,
            'expiresAt' => '2026-01-16T12:00:00.000Z',
            'createdAt' => '2026-01-15T12:00:00.000Z',
            'updatedAt' => '2026-01-15T12:00:00.000Z',
        ];
    }

    /** @return array<string, mixed> */
    public static function conversion(string $id): array
    {
        return [
            'id' => $id,
            'quoteId' => 'qte_01KBJ4XZ0A1B2C3D4E5F6G7H8J',
            'reference' => null,
            'sourceCurrency' => 'USDT',
            'settlementCurrency' => 'BRL',
            'sourceAmount' => '10.000000',
            'settlementAmount' => '54.00',
            'rate' => '5.40000000',
            'status' => 'completed',
            'createdAt' => '2026-01-15T12:00:00.000Z',
            'completedAt' => '2026-01-15T12:00:00.000Z',
        ];
    }
}
