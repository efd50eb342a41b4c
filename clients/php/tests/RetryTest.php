<?php

declare(strict_types=1);

namespace Cambio\Tests;

use Cambio\CambioClient;
use Cambio\Exception\ApiServerException;
use Cambio\Exception\ConflictException;
use Cambio\Exception\ConnectionException;
use Cambio\Exception\InvalidRequestException;
use Cambio\Exception\RateLimitException;
use Cambio\Exception\RefusedException;
use Cambio\Internal\Credentials;
use Cambio\Internal\Requestor;
use Cambio\Tests\Support\ScriptedServer;
use Cambio\Tests\Support\ScriptedTestCase;

/** Retries against a scripted loopback server: what is retried, how long it waits, the Idempotency-Key kept. */
final class RetryTest extends ScriptedTestCase
{
    private const UUID4 = '/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/';

    private function createDeposit(CambioClient $cambio, array $opts = []): \Cambio\Types\Deposit
    {
        return $cambio->deposits->create(['method' => 'usdt', 'network' => 'tron', 'reference' => 'order-1', 'amount' => '25'], $opts);
    }

    public function test503ThenSuccessIsRetriedWithTheSameIdempotencyKey(): void
    {
        $this->script([ScriptedServer::error(503, 'INTERNAL_ERROR'), ScriptedServer::ok(self::deposit(), 201)]);
        $deposit = $this->createDeposit($this->client());
        self::assertSame('dep_01KBJ4XZ0A1B2C3D4E5F6G7H8J', $deposit->id);
        $requests = $this->requests();
        self::assertCount(2, $requests);
        $key = $requests[0]['headers']['idempotency-key'];
        self::assertMatchesRegularExpression(self::UUID4, $key);
        self::assertSame($key, $requests[1]['headers']['idempotency-key']);
        self::assertSame($requests[0]['body'], $requests[1]['body']);
    }

    public function testEachCallGetsItsOwnIdempotencyKey(): void
    {
        $this->script([ScriptedServer::ok(self::deposit(), 201), ScriptedServer::ok(self::deposit(), 201)]);
        $cambio = $this->client();
        $this->createDeposit($cambio);
        $this->createDeposit($cambio);
        [$first, $second] = $this->requests();
        self::assertNotSame($first['headers']['idempotency-key'], $second['headers']['idempotency-key']);
    }

    public function testACallersIdempotencyKeyIsSentOnEveryTry(): void
    {
        $this->script([ScriptedServer::error(500, 'INTERNAL_ERROR'), ScriptedServer::error(502, 'INTERNAL_ERROR'), ScriptedServer::ok(self::deposit(), 201)]);
        $this->createDeposit($this->client(), ['idempotency_key' => 'order-1-deposit']);
        $keys = array_map(fn ($r) => $r['headers']['idempotency-key'], $this->requests());
        self::assertSame(['order-1-deposit', 'order-1-deposit', 'order-1-deposit'], $keys);
    }

    public function testGetsCarryNoIdempotencyKey(): void
    {
        $this->script([ScriptedServer::ok(self::deposit())]);
        $this->client()->deposits->get('dep_01KBJ4XZ0A1B2C3D4E5F6G7H8J');
        self::assertArrayNotHasKey('idempotency-key', $this->requests()[0]['headers']);
    }

    public function test429WithRetryAfterSecondsIsHonoured(): void
    {
        $this->script([ScriptedServer::error(429, 'RATE_LIMITED', 'Too many requests', null, ['Retry-After' => '1']), ScriptedServer::ok(self::deposit())]);
        $started = microtime(true);
        $this->client()->deposits->get('dep_01KBJ4XZ0A1B2C3D4E5F6G7H8J');
        $elapsed = microtime(true) - $started;
        self::assertCount(2, $this->requests());
        self::assertGreaterThanOrEqual(0.95, $elapsed, 'waited the Retry-After second, not the 10 ms backoff');
        self::assertLessThan(3, $elapsed);
    }

    public function testRetryAfterAsAnHttpDateIsHonoured(): void
    {
        $requestor = new Requestor('http://127.0.0.1:9', new Credentials('k', 's'), 2, 30, 0.5, 5, 60);
        $now = 1_767_225_600;
        self::assertSame(7.0, $requestor->retryAfter(gmdate('D, d M Y H:i:s', $now + 7) . ' GMT', $now));
        self::assertSame(0.0, $requestor->retryAfter(gmdate('D, d M Y H:i:s', $now - 7) . ' GMT', $now), 'a date in the past: retry now');
        self::assertSame(3.0, $requestor->retryAfter('3', $now));
        self::assertNull($requestor->retryAfter('120', $now), 'over the 60 s cap: ignored, the backoff applies');
        self::assertNull($requestor->retryAfter(gmdate('D, d M Y H:i:s', $now + 600) . ' GMT', $now));
        self::assertNull($requestor->retryAfter('soon', $now));
        self::assertNull($requestor->retryAfter(null, $now));

        // And end to end: a date two seconds ahead is waited for (at least one whole second, dates having no fractions).
        $this->script([ScriptedServer::error(503, 'INTERNAL_ERROR', 'busy', null, ['Retry-After' => gmdate('D, d M Y H:i:s', time() + 2) . ' GMT']), ScriptedServer::ok(self::deposit())]);
        $started = microtime(true);
        $this->client()->deposits->get('dep_01KBJ4XZ0A1B2C3D4E5F6G7H8J');
        self::assertGreaterThanOrEqual(0.9, microtime(true) - $started);
    }

    public function testARetryAfterBeyondTheCapIsNotWaitedFor(): void
    {
        $this->script([ScriptedServer::error(429, 'RATE_LIMITED', 'Too many requests', null, ['Retry-After' => '3600']), ScriptedServer::ok(self::deposit())]);
        $started = microtime(true);
        $this->client()->deposits->get('dep_01KBJ4XZ0A1B2C3D4E5F6G7H8J');
        self::assertLessThan(1, microtime(true) - $started);
        self::assertCount(2, $this->requests());
    }

    public function test409IdempotencyKeyInUseIsRetried(): void
    {
        $this->script([ScriptedServer::error(409, 'IDEMPOTENCY_KEY_IN_USE', 'A request with this key is still running'), ScriptedServer::ok(self::deposit(), 201)]);
        $this->createDeposit($this->client());
        $requests = $this->requests();
        self::assertCount(2, $requests);
        self::assertSame($requests[0]['headers']['idempotency-key'], $requests[1]['headers']['idempotency-key']);
    }

    public function testOther409sAreNotRetried(): void
    {
        $this->script([ScriptedServer::error(409, 'DUPLICATE_REFERENCE', 'Reference already used', ['existingId' => 'dep_X']), ScriptedServer::ok(self::deposit(), 201)]);
        $this->expectException(ConflictException::class);
        try {
            $this->createDeposit($this->client());
        } finally {
            self::assertCount(1, $this->requests());
        }
    }

    public function test400IsNotRetried(): void
    {
        $this->script([ScriptedServer::error(400, 'VALIDATION_FAILED'), ScriptedServer::ok(self::deposit(), 201)]);
        try {
            $this->createDeposit($this->client());
            self::fail('no exception');
        } catch (InvalidRequestException $e) {
            self::assertSame('VALIDATION_FAILED', $e->getCambioCode());
        }
        self::assertCount(1, $this->requests());
    }

    public function test422IsNotRetried(): void
    {
        $this->script([ScriptedServer::error(422, 'INSUFFICIENT_BALANCE'), ScriptedServer::ok(self::deposit(), 201)]);
        try {
            $this->createDeposit($this->client());
            self::fail('no exception');
        } catch (RefusedException $e) {
            self::assertSame('INSUFFICIENT_BALANCE', $e->getCambioCode());
        }
        self::assertCount(1, $this->requests());
    }

    public function testGivesUpAfterMaxRetriesWithTheLastError(): void
    {
        $this->script([ScriptedServer::error(500, 'INTERNAL_ERROR'), ScriptedServer::error(502, 'INTERNAL_ERROR'), ScriptedServer::error(503, 'PRICE_UNAVAILABLE'), ScriptedServer::ok(self::deposit())]);
        try {
            $this->client(maxRetries: 2)->deposits->get('dep_01KBJ4XZ0A1B2C3D4E5F6G7H8J');
            self::fail('no exception');
        } catch (ApiServerException $e) {
            self::assertSame(503, $e->getHttpStatus());
            self::assertSame('PRICE_UNAVAILABLE', $e->getCambioCode());
        }
        self::assertCount(3, $this->requests(), 'the first try and two retries');
    }

    public function testMaxRetriesZeroAndThePerRequestOption(): void
    {
        $this->script([ScriptedServer::error(503, 'INTERNAL_ERROR'), ScriptedServer::ok(self::deposit())]);
        try {
            $this->client(maxRetries: 0)->deposits->get('dep_01KBJ4XZ0A1B2C3D4E5F6G7H8J');
            self::fail('no exception');
        } catch (ApiServerException) {
        }
        self::assertCount(1, $this->requests());

        $this->script([ScriptedServer::error(503, 'INTERNAL_ERROR'), ScriptedServer::ok(self::deposit())]);
        $this->expectException(ApiServerException::class);
        $this->client(maxRetries: 2)->deposits->get('dep_01KBJ4XZ0A1B2C3D4E5F6G7H8J', ['max_retries' => 0]);
    }

    public function test429ExhaustedIsARateLimitException(): void
    {
        $this->script([ScriptedServer::error(429, 'RATE_LIMITED', 'slow down', null, ['Retry-After' => '0']), ScriptedServer::error(429, 'RATE_LIMITED', 'slow down', null, ['Retry-After' => '0'])]);
        try {
            $this->client(maxRetries: 1)->company->get();
            self::fail('no exception');
        } catch (RateLimitException $e) {
            self::assertSame(429, $e->getHttpStatus());
            self::assertSame('req_429', $e->getRequestId());
        }
        self::assertCount(2, $this->requests());
    }

    public function testANonJson5xxIsAnApiServerExceptionAndRetried(): void
    {
        $this->script([['status' => 502, 'body' => '<html><body>Bad Gateway</body></html>'], ScriptedServer::ok(self::deposit())]);
        $deposit = $this->client()->deposits->get('dep_01KBJ4XZ0A1B2C3D4E5F6G7H8J');
        self::assertSame('awaiting_payment', $deposit->status);
        self::assertCount(2, $this->requests());
    }

    public function testConnectionRefusedIsRetriedThenAConnectionException(): void
    {
        $socket = stream_socket_server('tcp://127.0.0.1:0');
        $port = (int) substr((string) strrchr(stream_socket_get_name($socket, false), ':'), 1);
        fclose($socket); // nothing listens there now
        $cambio = new CambioClient(apiKey: 'k', apiSecret: 's', baseUrl: "http://127.0.0.1:$port/v1", maxRetries: 2, initialRetryDelay: 0.05, maxRetryDelay: 0.1);
        $started = microtime(true);
        try {
            $cambio->company->get();
            self::fail('no exception');
        } catch (ConnectionException $e) {
            self::assertSame('CONNECTION_FAILED', $e->getCambioCode());
            self::assertNull($e->getHttpStatus());
            self::assertStringContainsString("127.0.0.1:$port", $e->getMessage());
        }
        self::assertGreaterThanOrEqual(0.05, microtime(true) - $started, 'two backoffs of at least 25 ms each');
    }

    public function testATimeoutIsATimeoutConnectionException(): void
    {
        $this->script([['status' => 200, 'json' => ['success' => true, 'data' => self::deposit()], 'delay' => 2.0]]);
        $started = microtime(true);
        try {
            $this->client(maxRetries: 0, timeout: 0.3)->deposits->get('dep_01KBJ4XZ0A1B2C3D4E5F6G7H8J');
            self::fail('no exception');
        } catch (ConnectionException $e) {
            self::assertSame('TIMEOUT', $e->getCambioCode());
        }
        self::assertLessThan(1.8, microtime(true) - $started, 'gave up after the 0.3 s timeout, not when the answer came');
    }

    public function testATimeoutIsRetriedWithTheSameIdempotencyKey(): void
    {
        $this->script([['status' => 201, 'json' => ['success' => true, 'data' => self::deposit()], 'delay' => 1.5], ScriptedServer::ok(self::deposit(), 201)]);
        $deposit = $this->createDeposit($this->client(maxRetries: 1, timeout: 0.4));
        self::assertSame('order-1', $deposit->reference);
        $requests = $this->requests();
        self::assertCount(2, $requests);
        self::assertSame($requests[0]['headers']['idempotency-key'], $requests[1]['headers']['idempotency-key']);
    }

    public function testTheBackoffIsJitteredExponentialAndCapped(): void
    {
        $requestor = new Requestor('http://127.0.0.1:9', new Credentials('k', 's'), 2, 30, 0.5, 5.0, 60);
        foreach ([0 => 0.5, 1 => 1.0, 2 => 2.0, 3 => 4.0, 4 => 5.0, 10 => 5.0] as $attempt => $ceiling) {
            $delays = array_map(fn () => $requestor->backoff($attempt), range(1, 50));
            self::assertGreaterThanOrEqual($ceiling / 2, min($delays), "retry $attempt");
            self::assertLessThanOrEqual($ceiling, max($delays), "retry $attempt");
            self::assertGreaterThan(1, count(array_unique($delays)), "retry $attempt is jittered");
        }
    }
}
