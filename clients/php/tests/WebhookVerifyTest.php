<?php

declare(strict_types=1);

namespace Cambio\Tests;

use Cambio\Exception\InvalidResponseException;
use Cambio\Exception\WebhookVerificationException;
use Cambio\Tests\Support\CatchesExceptions;
use Cambio\Tests\Support\ScriptedTestCase;
use Cambio\Types\Deposit;
use Cambio\Types\EventType;
use Cambio\WebhookSignature;
use PHPUnit\Framework\TestCase;

/** verify() with the header containers PHP code has, the raw body, the clock and the tolerance. */
final class WebhookVerifyTest extends TestCase
{
    use CatchesExceptions;

    private const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

    /** @return array{0: string, 1: array<string, string>} a delivery signed now */
    private static function delivery(?int $at = null, ?array $data = null, string $type = EventType::DEPOSIT_COMPLETED): array
    {
        $id = 'evt_01KBJ4Y1ZQ6W3M8N5P7R9T2V4X';
        $timestamp = (string) ($at ?? time());
        $body = json_encode(['id' => $id, 'type' => $type, 'createdAt' => '2026-01-01T00:00:00.000Z', 'data' => $data ?? ScriptedTestCase::deposit(['status' => 'completed', 'note' => 'São Paulo / ünïcødé'])], JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);
        $signature = base64_encode(hash_hmac('sha256', "$id.$timestamp.$body", base64_decode(substr(self::SECRET, 6)), true));
        return [$body, ['webhook-id' => $id, 'webhook-timestamp' => $timestamp, 'webhook-signature' => "v1,$signature"]];
    }

    public function testVerifiesWithTheRealClockAndReturnsTheEvent(): void
    {
        [$body, $headers] = self::delivery();
        $event = WebhookSignature::verify($body, $headers, self::SECRET);
        self::assertSame(EventType::DEPOSIT_COMPLETED, $event->type);
        self::assertSame('dep_01KBJ4XZ0A1B2C3D4E5F6G7H8J', $event->data['id']);
        $deposit = $event->dataObject();
        self::assertInstanceOf(Deposit::class, $deposit);
        self::assertSame('completed', $deposit->status);
        self::assertSame(json_decode($body, true), $event->toArray());
    }

    public function testANumberWithAFractionInAnEventIsItsExactDecimalStringNeverAFloat(): void
    {
        $split = ['address' => 'TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui', 'percent' => 33.33, 'amount' => null, 'forwardedAmount' => '1.000000', 'withdrawalId' => null];
        [$body, $headers] = self::delivery(data: ScriptedTestCase::deposit(['status' => 'completed', 'split' => $split]));
        $event = WebhookSignature::verify($body, $headers, self::SECRET);
        self::assertSame('33.33', $event->data['split']['percent']);
        $deposit = $event->dataObject();
        self::assertInstanceOf(Deposit::class, $deposit);
        self::assertSame('33.33', $deposit->split->percent);
    }

    public function testAReversedTransferIsATypedDepositEvent(): void
    {
        $address = '0x52908400098527886E0F7030069857D2E4169EE7';
        $reversed = ScriptedTestCase::deposit(['network' => 'bsc', 'address' => $address, 'status' => 'awaiting_payment', 'receivedAmount' => '0.000000']);
        [$body, $headers] = self::delivery(data: $reversed, type: 'deposit.transfer_reversed');
        $event = WebhookSignature::verify($body, $headers, self::SECRET);
        self::assertSame(EventType::DEPOSIT_TRANSFER_REVERSED, $event->type);
        $deposit = $event->dataObject();
        self::assertInstanceOf(Deposit::class, $deposit);
        self::assertSame(['bsc', $address, '0.000000'], [$deposit->network, $deposit->address, $deposit->receivedAmount]);
    }

    public function testAHeldDepositIsATypedDepositEventWithItsHoldReason(): void
    {
        $held = ScriptedTestCase::deposit(['status' => 'held', 'holdReason' => 'address_frozen', 'receivedAmount' => '25.000000']);
        [$body, $headers] = self::delivery(data: $held, type: 'deposit.held');
        $event = WebhookSignature::verify($body, $headers, self::SECRET);
        self::assertSame(EventType::DEPOSIT_HELD, $event->type);
        $deposit = $event->dataObject();
        self::assertInstanceOf(Deposit::class, $deposit);
        self::assertSame(['held', 'address_frozen', '25.000000', '0.000000'], [$deposit->status, $deposit->holdReason, $deposit->receivedAmount, $deposit->creditedAmount]);
    }

    public function testAcceptsEveryUsualHeaderContainer(): void
    {
        [$body, $headers] = self::delivery();
        $getallheaders = ['Webhook-Id' => $headers['webhook-id'], 'Webhook-Timestamp' => $headers['webhook-timestamp'], 'Webhook-Signature' => $headers['webhook-signature'], 'Content-Type' => 'application/json'];
        $laravelAll = array_map(fn ($v) => [$v], array_change_key_case($headers, CASE_LOWER)); // $request->headers->all()
        $server = ['HTTP_WEBHOOK_ID' => $headers['webhook-id'], 'HTTP_WEBHOOK_TIMESTAMP' => $headers['webhook-timestamp'], 'HTTP_WEBHOOK_SIGNATURE' => $headers['webhook-signature']];
        $headerBag = new class ($headers) { // Symfony's HeaderBag: get() gives the first value
            public function __construct(private array $h)
            {
            }

            public function get(string $key, ?string $default = null): ?string
            {
                return array_change_key_case($this->h, CASE_LOWER)[strtolower($key)] ?? $default;
            }
        };
        $psr7 = new class ($headers) { // a PSR-7 message
            public function __construct(private array $h)
            {
            }

            public function getHeaderLine(string $name): string
            {
                return array_change_key_case($this->h, CASE_LOWER)[strtolower($name)] ?? '';
            }
        };
        $request = new class ($headerBag) { // a Symfony/Laravel Request: get() reads input, ->headers is the HeaderBag
            public function __construct(public object $headers)
            {
            }

            public function get(string $key): mixed
            {
                return null;
            }
        };
        foreach (['Request' => $request, 'getallheaders()' => $getallheaders, 'headers->all()' => $laravelAll, '$_SERVER' => $server, 'HeaderBag' => $headerBag, 'PSR-7' => $psr7, 'ArrayObject' => new \ArrayObject($headers)] as $how => $container) {
            self::assertSame('deposit.completed', WebhookSignature::verify($body, $container, self::SECRET)->type, $how);
        }
    }

    public function testAStringableBodyIsReadAsItsBytes(): void
    {
        [$body, $headers] = self::delivery();
        $stream = new class ($body) implements \Stringable { // e.g. a PSR-7 stream
            public function __construct(private string $b)
            {
            }

            public function __toString(): string
            {
                return $this->b;
            }
        };
        self::assertSame('deposit.completed', WebhookSignature::verify($stream, $headers, self::SECRET)->type);
    }

    public function testAParsedBodyIsRefusedNamingTheMistake(): void
    {
        [$body, $headers] = self::delivery();
        $e = self::thrown(WebhookVerificationException::class, fn () => WebhookSignature::verify(json_decode($body, true), $headers, self::SECRET), 'accepted');
        self::assertStringContainsString('re-serialised', $e->getMessage());
        self::assertStringContainsString("file_get_contents('php://input')", $e->getMessage());
    }

    public function testABodyEncodedAgainByPhpIsRefusedNamingTheMistake(): void
    {
        [$body, $headers] = self::delivery();
        $again = json_encode(json_decode($body, true)); // escapes / and ü: other bytes
        self::assertNotSame($body, $again);
        $e = self::thrown(WebhookVerificationException::class, fn () => WebhookSignature::verify($again, $headers, self::SECRET), 'accepted');
        self::assertStringContainsString('re-serialised', $e->getMessage());
    }

    public function testToleranceAndClock(): void
    {
        [$body, $headers] = self::delivery(1_767_225_600);
        self::assertSame('deposit.completed', WebhookSignature::verify($body, $headers, self::SECRET, now: 1_767_225_600 + 299)->type);
        self::assertSame('deposit.completed', WebhookSignature::verify($body, $headers, self::SECRET, now: new \DateTimeImmutable('@' . (1_767_225_600 + 300)))->type);
        self::assertSame('deposit.completed', WebhookSignature::verify($body, $headers, self::SECRET, tolerance: 900, now: 1_767_225_600 + 899)->type);
        $e = self::thrown(WebhookVerificationException::class, fn () => WebhookSignature::verify($body, $headers, self::SECRET, tolerance: 60, now: 1_767_225_600 + 61), 'accepted');
        self::assertStringContainsString('too old: 61 s before now, beyond the 60 s tolerance', $e->getMessage());
    }

    public function testTheSecretIsWhsecOrTheRawKeyAndABadOneIsNamed(): void
    {
        [$body, $headers] = self::delivery();
        self::assertSame('deposit.completed', WebhookSignature::verify($body, $headers, substr(self::SECRET, 6))->type);
        $e = self::thrown(WebhookVerificationException::class, fn () => WebhookSignature::verify($body, $headers, 'whsec_not base64!'), 'accepted');
        self::assertStringContainsString('not base64', $e->getMessage());
    }

    public function testAPlainWrongSignatureIsNotBlamedOnReSerialisation(): void
    {
        [$body, $headers] = self::delivery();
        $headers['webhook-signature'] = 'v1,' . base64_encode(str_repeat("\0", 32));
        $e = self::thrown(WebhookVerificationException::class, fn () => WebhookSignature::verify($body, $headers, self::SECRET), 'accepted');
        self::assertStringStartsWith("No matching signature: the secret is not this webhook's", $e->getMessage());
        self::assertStringNotContainsString('re-serialised', $e->getMessage());
    }

    public function testDataObjectRefusesAPartialRecord(): void
    {
        [$body, $headers] = self::delivery(null, ['id' => 'dep_1']);
        $event = WebhookSignature::verify($body, $headers, self::SECRET);
        self::assertSame(['id' => 'dep_1'], $event->data);
        $this->expectException(InvalidResponseException::class);
        $event->dataObject();
    }
}
