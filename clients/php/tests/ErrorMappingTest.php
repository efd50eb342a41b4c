<?php

declare(strict_types=1);

namespace Cambio\Tests;

use Cambio\Exception\ApiServerException;
use Cambio\Exception\AuthenticationException;
use Cambio\Exception\CambioException;
use Cambio\Exception\ConflictException;
use Cambio\Exception\ConnectionException;
use Cambio\Exception\ExceptionInterface;
use Cambio\Exception\InvalidRequestException;
use Cambio\Exception\InvalidResponseException;
use Cambio\Exception\NotFoundException;
use Cambio\Exception\RateLimitException;
use Cambio\Exception\RefusedException;
use Cambio\Exception\WebhookVerificationException;
use Cambio\Tests\Support\ScriptedServer;
use Cambio\Tests\Support\ScriptedTestCase;

/** Each answer's exception family, as clients/node/src/errors.ts errorFromResponse maps them. */
final class ErrorMappingTest extends ScriptedTestCase
{
    /** @return iterable<string, array{0: int, 1: string, 2: class-string}> */
    public static function families(): iterable
    {
        yield '400 VALIDATION_FAILED' => [400, 'VALIDATION_FAILED', InvalidRequestException::class];
        yield '400 INVALID_JSON' => [400, 'INVALID_JSON', InvalidRequestException::class];
        yield '401 AUTH_FAILED' => [401, 'AUTH_FAILED', AuthenticationException::class];
        yield '403 FORBIDDEN' => [403, 'FORBIDDEN', InvalidRequestException::class];
        yield '404 NOT_FOUND' => [404, 'NOT_FOUND', NotFoundException::class];
        yield '409 DUPLICATE_REFERENCE' => [409, 'DUPLICATE_REFERENCE', ConflictException::class];
        yield '409 QUOTE_ALREADY_USED' => [409, 'QUOTE_ALREADY_USED', ConflictException::class];
        yield '413 PAYLOAD_TOO_LARGE' => [413, 'PAYLOAD_TOO_LARGE', InvalidRequestException::class];
        yield '415 UNSUPPORTED_MEDIA_TYPE' => [415, 'UNSUPPORTED_MEDIA_TYPE', InvalidRequestException::class];
        yield '422 INSUFFICIENT_BALANCE' => [422, 'INSUFFICIENT_BALANCE', RefusedException::class];
        yield '422 QUOTE_EXPIRED' => [422, 'QUOTE_EXPIRED', RefusedException::class];
        yield '422 IDEMPOTENCY_KEY_REUSED' => [422, 'IDEMPOTENCY_KEY_REUSED', RefusedException::class];
        yield '429 RATE_LIMITED' => [429, 'RATE_LIMITED', RateLimitException::class];
        yield '500 INTERNAL_ERROR' => [500, 'INTERNAL_ERROR', ApiServerException::class];
        yield '503 PRICE_UNAVAILABLE' => [503, 'PRICE_UNAVAILABLE', ApiServerException::class];
        yield '503 NETWORK_UNAVAILABLE' => [503, 'NETWORK_UNAVAILABLE', ApiServerException::class];
        yield '503 SCREENING_UNAVAILABLE' => [503, 'SCREENING_UNAVAILABLE', ApiServerException::class];
    }

    /** @dataProvider families */
    public function testEachStatusMapsToItsFamily(int $status, string $code, string $class): void
    {
        $details = $code === 'VALIDATION_FAILED' ? [['path' => 'amount', 'message' => 'must be a decimal string']] : ($code === 'DUPLICATE_REFERENCE' ? ['existingId' => 'dep_01KBJ4XZ0A1B2C3D4E5F6G7H8J'] : null);
        $this->script([ScriptedServer::error($status, $code, 'What went wrong', $details)]);
        $e = self::thrown(CambioException::class, fn () => $this->client(maxRetries: 0)->company->get());
        self::assertSame($class, get_class($e));
        self::assertInstanceOf(ExceptionInterface::class, $e);
        self::assertSame($code, $e->getCambioCode());
        self::assertSame($status, $e->getHttpStatus());
        self::assertSame("req_$status", $e->getRequestId());
        self::assertSame($details, $e->getDetails());
        self::assertSame("What went wrong ($code, request req_$status)", $e->getMessage());
    }

    public function testTheClientSideFamiliesAreCambioExceptionsToo(): void
    {
        foreach ([ConnectionException::class, InvalidResponseException::class, WebhookVerificationException::class] as $class) {
            self::assertTrue(is_subclass_of($class, CambioException::class), $class);
        }
        self::assertSame('WEBHOOK_VERIFICATION_FAILED', (new WebhookVerificationException('x'))->getCambioCode());
        self::assertSame('INVALID_RESPONSE', (new InvalidResponseException('x'))->getCambioCode());
    }

    public function testAnHtmlPageIsAnInvalidResponseNamingTheBaseUrl(): void
    {
        $this->script([['status' => 404, 'body' => '<html>Not Found</html>']]);
        $e = self::thrown(InvalidResponseException::class, fn () => $this->client()->company->get());
        self::assertSame('INVALID_RESPONSE', $e->getCambioCode());
        self::assertSame(404, $e->getHttpStatus());
        self::assertStringContainsString('not JSON', $e->getMessage());
        self::assertStringContainsString('baseUrl', $e->getMessage());
        self::assertCount(1, $this->requests(), 'not retried');
    }

    public function testJsonThatIsNotTheEnvelopeIsAnInvalidResponse(): void
    {
        $this->script([['status' => 200, 'json' => ['id' => 'cmp_1', 'name' => 'Acme']]]);
        $e = self::thrown(InvalidResponseException::class, fn () => $this->client()->company->get());
        self::assertSame(200, $e->getHttpStatus());
        self::assertStringContainsString('envelope', $e->getMessage());
    }

    public function testAnEmptyBodyIsAnInvalidResponse(): void
    {
        $this->script([['status' => 200, 'body' => '']]);
        $this->expectException(InvalidResponseException::class);
        $this->client()->company->get();
    }

    public function testAnErrorEnvelopeWithoutACodeIsAnInvalidResponse(): void
    {
        $this->script([['status' => 400, 'json' => ['success' => false, 'error' => 'bad']]]);
        $this->expectException(InvalidResponseException::class);
        $this->client()->company->get();
    }

    public function testARecordMissingAPromisedFieldIsAnInvalidResponse(): void
    {
        $deposit = self::deposit();
        unset($deposit['receivedAmount']);
        $this->script([ScriptedServer::ok($deposit)]);
        $e = self::thrown(InvalidResponseException::class, fn () => $this->client()->deposits->get('dep_01KBJ4XZ0A1B2C3D4E5F6G7H8J'));
        self::assertStringContainsString('Deposit.receivedAmount is missing', $e->getMessage());
        self::assertSame('req_ok', $e->getRequestId());
    }

    public function testARecordWithAWrongTypeIsAnInvalidResponse(): void
    {
        $this->script([ScriptedServer::ok(self::deposit(['amount' => 25]))]);
        $this->expectException(InvalidResponseException::class);
        $this->expectExceptionMessage('Deposit.amount should be a string, got int');
        $this->client()->deposits->get('dep_01KBJ4XZ0A1B2C3D4E5F6G7H8J');
    }
}
