<?php

declare(strict_types=1);

namespace Cambio\Tests;

use Cambio\CambioClient;
use Cambio\Exception\ApiServerException;
use Cambio\Exception\CambioException;
use Cambio\Exception\ConflictException;
use Cambio\Exception\ConnectionException;
use Cambio\Exception\InvalidRequestException;
use Cambio\Exception\NotFoundException;
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

    /** @return iterable<string, array{0: array<string, mixed>, 1: class-string<CambioException>, 2: string}> */
    public static function notRetried(): iterable
    {
        yield '409 other than IDEMPOTENCY_KEY_IN_USE' => [ScriptedServer::error(409, 'DUPLICATE_REFERENCE', 'Reference already used', ['existingId' => 'dep_X']), ConflictException::class, 'DUPLICATE_REFERENCE'];
        yield '400' => [ScriptedServer::error(400, 'VALIDATION_FAILED'), InvalidRequestException::class, 'VALIDATION_FAILED'];
        yield '422' => [ScriptedServer::error(422, 'INSUFFICIENT_BALANCE'), RefusedException::class, 'INSUFFICIENT_BALANCE'];
    }

    /**
     * @dataProvider notRetried
     * @param array<string, mixed> $answer
     * @param class-string<CambioException> $class
     */
    public function testTheOther4xxAreNotRetried(array $answer, string $class, string $code): void
    {
        $this->script([$answer, ScriptedServer::ok(self::deposit(), 201)]);
        self::assertSame($code, self::thrown($class, fn () => $this->createDeposit($this->client()))->getCambioCode());
        self::assertCount(1, $this->requests());
    }

    /** @return iterable<string, array{0: list<array<string, mixed>>, 1: int, 2: class-string<CambioException>, 3: int, 4: string, 5: ?string}> */
    public static function exhaustedRetries(): iterable
    {
        // The success after the last retry is never asked for.
        $fiveHundreds = [ScriptedServer::error(500, 'INTERNAL_ERROR'), ScriptedServer::error(502, 'INTERNAL_ERROR'), ScriptedServer::error(503, 'PRICE_UNAVAILABLE'), ScriptedServer::ok(self::deposit())];
        yield 'the first try and two retries: the last error' => [$fiveHundreds, 2, ApiServerException::class, 503, 'PRICE_UNAVAILABLE', 'req_503'];
        $tooMany = ScriptedServer::error(429, 'RATE_LIMITED', 'slow down', null, ['Retry-After' => '0']);
        yield '429 exhausted is a RateLimitException' => [[$tooMany, $tooMany], 1, RateLimitException::class, 429, 'RATE_LIMITED', 'req_429'];
        $badGateway = ['status' => 502, 'body' => 'Bad Gateway'];
        yield 'a non-JSON 5xx after retries is an ApiServerException' => [[$badGateway, $badGateway], 1, ApiServerException::class, 502, 'INTERNAL_ERROR', null];
    }

    /**
     * @dataProvider exhaustedRetries
     * @param list<array<string, mixed>> $answers
     * @param class-string<CambioException> $class
     */
    public function testGivesUpAfterMaxRetriesWithTheLastAnswersException(array $answers, int $maxRetries, string $class, int $status, string $code, ?string $requestId): void
    {
        $this->script($answers);
        $e = self::thrown($class, fn () => $this->client(maxRetries: $maxRetries)->company->get());
        self::assertSame($status, $e->getHttpStatus());
        self::assertSame($code, $e->getCambioCode());
        self::assertSame($requestId, $e->getRequestId());
        self::assertCount($maxRetries + 1, $this->requests());
    }

    public function testMaxRetriesZeroAndThePerRequestOption(): void
    {
        $this->script([ScriptedServer::error(503, 'INTERNAL_ERROR'), ScriptedServer::ok(self::deposit())]);
        self::thrown(ApiServerException::class, fn () => $this->client(maxRetries: 0)->deposits->get('dep_01KBJ4XZ0A1B2C3D4E5F6G7H8J'));
        self::assertCount(1, $this->requests());

        $this->script([ScriptedServer::error(503, 'INTERNAL_ERROR'), ScriptedServer::ok(self::deposit())]);
        $this->expectException(ApiServerException::class);
        $this->client(maxRetries: 2)->deposits->get('dep_01KBJ4XZ0A1B2C3D4E5F6G7H8J', ['max_retries' => 0]);
    }

    public function testANonJson5xxIsAnApiServerExceptionAndRetried(): void
    {
        $this->script([['status' => 502, 'body' => '<html><body>Bad Gateway</body></html>'], ScriptedServer::ok(self::deposit())]);
        $deposit = $this->client()->deposits->get('dep_01KBJ4XZ0A1B2C3D4E5F6G7H8J');
        self::assertSame('awaiting_payment', $deposit->status);
        self::assertCount(2, $this->requests());
    }

    /** @return iterable<string, array{0: array<string, mixed>}> */
    public static function rateLimitsWithoutTheEnvelope(): iterable
    {
        yield 'a text 429 (a CDN or WAF)' => [['status' => 429, 'body' => 'Too Many Requests', 'headers' => ['Content-Type' => 'text/plain', 'Retry-After' => '0']]];
        yield 'a JSON 429 that is not the envelope' => [['status' => 429, 'json' => ['message' => 'Too Many Requests'], 'headers' => ['Retry-After' => '0']]];
    }

    /**
     * @dataProvider rateLimitsWithoutTheEnvelope
     * @param array<string, mixed> $tooMany
     */
    public function testA429WithoutTheEnvelopeIsARateLimitAndRetried(array $tooMany): void
    {
        $this->script([$tooMany, ScriptedServer::ok(self::deposit())]);
        self::assertSame('awaiting_payment', $this->client()->deposits->get('dep_01KBJ4XZ0A1B2C3D4E5F6G7H8J')->status);
        self::assertCount(2, $this->requests());

        $this->script([$tooMany, $tooMany, ScriptedServer::ok(self::deposit())]);
        $e = self::thrown(RateLimitException::class, fn () => $this->client(maxRetries: 1)->company->get());
        self::assertSame(429, $e->getHttpStatus());
        self::assertSame('RATE_LIMITED', $e->getCambioCode());
        self::assertCount(2, $this->requests());
    }

    public function testAJson5xxThatIsNotTheEnvelopeIsAnApiServerExceptionAndRetried(): void
    {
        $this->script([['status' => 503, 'json' => ['message' => 'Service Unavailable']], ScriptedServer::ok(self::deposit())]);
        self::assertSame('awaiting_payment', $this->client()->deposits->get('dep_01KBJ4XZ0A1B2C3D4E5F6G7H8J')->status);
        self::assertCount(2, $this->requests());

        $this->script([['status' => 504, 'json' => ['message' => 'Gateway Timeout']], ['status' => 504, 'json' => ['message' => 'Gateway Timeout']]]);
        $e = self::thrown(ApiServerException::class, fn () => $this->client(maxRetries: 1)->company->get());
        self::assertSame(504, $e->getHttpStatus());
        self::assertCount(2, $this->requests());
    }

    private const WEBHOOK_ID = 'whk_01KBJ4XZ0A1B2C3D4E5F6G7H8J';

    /** @return iterable<string, array{0: array<string, mixed>, 1: float}> */
    public static function lostDeleteAnswers(): iterable
    {
        yield 'a 503' => [ScriptedServer::error(503, 'INTERNAL_ERROR'), 5.0];
        yield 'a 502 page from a proxy' => [['status' => 502, 'body' => 'Bad Gateway'], 5.0];
        yield 'a timeout (the answer came too late)' => [['status' => 200, 'json' => ['success' => true, 'data' => ['id' => self::WEBHOOK_ID, 'deleted' => true]], 'delay' => 1.5], 0.4];
    }

    /**
     * A DELETE whose answer was lost is retried; the webhook is gone by then, so the retry gets 404.
     * That is the deletion asked for, answered as the first try would have been.
     *
     * @dataProvider lostDeleteAnswers
     * @param array<string, mixed> $first
     */
    public function testADeleteRetriedAfterALostAnswerAndAnswered404IsDeleted(array $first, float $timeout): void
    {
        $this->script([$first, ScriptedServer::error(404, 'NOT_FOUND', 'Webhook not found')]);
        $deleted = $this->client(timeout: $timeout)->webhooks->delete(self::WEBHOOK_ID);
        self::assertInstanceOf(\Cambio\Types\DeletedWebhook::class, $deleted);
        self::assertSame(self::WEBHOOK_ID, $deleted->id);
        self::assertTrue($deleted->deleted);
        self::assertSame(['DELETE', 'DELETE'], array_column($this->requests(), 'method'));
    }

    public function testADeleteAnswered404ToItsFirstTryIsNotFound(): void
    {
        $this->script([ScriptedServer::error(404, 'NOT_FOUND', 'Webhook not found'), ScriptedServer::ok(['id' => self::WEBHOOK_ID, 'deleted' => true])]);
        $e = self::thrown(NotFoundException::class, fn () => $this->client()->webhooks->delete(self::WEBHOOK_ID));
        self::assertSame('NOT_FOUND', $e->getCambioCode());
        self::assertCount(1, $this->requests());

        // A 429 did nothing: the 404 after it is the webhook's own answer.
        $this->script([ScriptedServer::error(429, 'RATE_LIMITED', 'slow down', null, ['Retry-After' => '0']), ScriptedServer::error(404, 'NOT_FOUND', 'Webhook not found')]);
        self::thrown(NotFoundException::class, fn () => $this->client()->webhooks->delete(self::WEBHOOK_ID));
        self::assertCount(2, $this->requests());

        // Only a DELETE: a GET retried into a 404 is NotFound.
        $this->script([ScriptedServer::error(503, 'INTERNAL_ERROR'), ScriptedServer::error(404, 'NOT_FOUND', 'Webhook not found')]);
        self::thrown(NotFoundException::class, fn () => $this->client()->webhooks->get(self::WEBHOOK_ID));
    }

    /**
     * The port refuses the first try; the API starts listening on it during the backoff and knows no
     * such webhook. The delete never happened: a refused connection sent nothing, so the 404 is NotFound.
     */
    public function testADeleteRetriedAfterARefusedConnectionAndAnswered404IsNotFound(): void
    {
        $socket = stream_socket_server('tcp://127.0.0.1:0');
        $port = (int) substr((string) strrchr(stream_socket_get_name($socket, false), ':'), 1);
        fclose($socket); // nothing listens there until the API below starts
        $api = new ScriptedServer(port: $port, startAfter: 0.3);
        try {
            $api->script(array_fill(0, 5, ScriptedServer::error(404, 'NOT_FOUND', 'Webhook not found')));
            // Backoffs of 0.5–1 s: the API is up by the first retry (a slow start is covered by the next ones).
            $cambio = new CambioClient(apiKey: 'k', apiSecret: 's', baseUrl: "http://127.0.0.1:$port/v1", maxRetries: 4, initialRetryDelay: 1.0, maxRetryDelay: 1.0);
            $e = self::thrown(NotFoundException::class, fn () => $cambio->webhooks->delete('whk_typo'), 'the delete was reported done');
            self::assertSame(['NOT_FOUND', 404], [$e->getCambioCode(), $e->getHttpStatus()]);
            self::assertSame([['DELETE', '/v1/webhooks/whk_typo']], array_map(fn (array $r) => [$r['method'], $r['uri']], $api->requests()), 'a retry alone reached it');
        } finally {
            $api->stop();
        }
    }

    public function testConnectionRefusedIsRetriedThenAConnectionException(): void
    {
        $socket = stream_socket_server('tcp://127.0.0.1:0');
        $port = (int) substr((string) strrchr(stream_socket_get_name($socket, false), ':'), 1);
        fclose($socket); // nothing listens there now
        $cambio = new CambioClient(apiKey: 'k', apiSecret: 's', baseUrl: "http://127.0.0.1:$port/v1", maxRetries: 2, initialRetryDelay: 0.05, maxRetryDelay: 0.1);
        $started = microtime(true);
        $e = self::thrown(ConnectionException::class, fn () => $cambio->company->get());
        self::assertSame('CONNECTION_FAILED', $e->getCambioCode());
        self::assertNull($e->getHttpStatus());
        self::assertStringContainsString("127.0.0.1:$port", $e->getMessage());
        self::assertGreaterThanOrEqual(0.05, microtime(true) - $started, 'two backoffs of at least 25 ms each');
    }

    public function testATimeoutIsATimeoutConnectionException(): void
    {
        $this->script([['status' => 200, 'json' => ['success' => true, 'data' => self::deposit()], 'delay' => 2.0]]);
        $started = microtime(true);
        $e = self::thrown(ConnectionException::class, fn () => $this->client(maxRetries: 0, timeout: 0.3)->deposits->get('dep_01KBJ4XZ0A1B2C3D4E5F6G7H8J'));
        self::assertSame('TIMEOUT', $e->getCambioCode());
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
