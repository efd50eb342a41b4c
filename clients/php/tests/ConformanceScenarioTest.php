<?php

declare(strict_types=1);

namespace Cambio\Tests;

use Cambio\CambioClient;
use Cambio\Exception\AuthenticationException;
use Cambio\Exception\CambioException;
use Cambio\Exception\NotFoundException;
use Cambio\Exception\RefusedException;
use Cambio\Exception\WebhookVerificationException;
use Cambio\Tests\Support\CatchesExceptions;
use Cambio\Tests\Support\WebhookReceiver;
use Cambio\Types\Conversion;
use Cambio\Types\CreatedWebhook;
use Cambio\Types\Deposit;
use Cambio\Types\RateLimit;
use PHPUnit\Framework\TestCase;

/**
 * clients/conformance/scenario.md with this client's public surface, one test per numbered step,
 * in order, against the runtime the environment names (CAMBIO_API_URL, CAMBIO_API_KEY,
 * CAMBIO_API_SECRET, CAMBIO_SANDBOX_PAY_URL). Skipped only when CAMBIO_API_URL is unset.
 * A step after a failed one is skipped (@depends), which the bridge counts as a failure too.
 */
final class ConformanceScenarioTest extends TestCase
{
    use CatchesExceptions;

    /** An address no Cambio deposit can have: its key is sha256("cambio documentation payout address"). */
    private const PAYOUT_ADDRESS = 'TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui';

    private static ?CambioClient $cambio = null;
    private static ?WebhookReceiver $receiver = null;
    private static ?CreatedWebhook $webhook = null;
    private static ?Deposit $deposit = null;
    private static ?Conversion $conversion = null;
    private static ?Conversion $replayed = null;
    private static string $hookUrl = '';

    /** @return array<string, string> */
    private static function env(): array
    {
        $env = [];
        foreach (['CAMBIO_API_URL', 'CAMBIO_API_KEY', 'CAMBIO_API_SECRET', 'CAMBIO_SANDBOX_PAY_URL'] as $name) {
            $env[$name] = (string) getenv($name);
        }
        return $env;
    }

    protected function setUp(): void
    {
        if (self::env()['CAMBIO_API_URL'] === '') {
            self::markTestSkipped('CAMBIO_API_URL is unset: the live scenario runs under `npx vitest run test/clients/php.test.ts`');
        }
    }

    public static function tearDownAfterClass(): void
    {
        self::$receiver?->stop();
        self::$receiver = null;
    }

    public function testStep00Construct(): void
    {
        $env = self::env();
        self::assertNotSame('', $env['CAMBIO_API_KEY'], 'CAMBIO_API_KEY');
        self::assertNotSame('', $env['CAMBIO_API_SECRET'], 'CAMBIO_API_SECRET');
        self::$cambio = new CambioClient(apiKey: $env['CAMBIO_API_KEY'], apiSecret: $env['CAMBIO_API_SECRET'], baseUrl: $env['CAMBIO_API_URL']);
        self::$receiver = new WebhookReceiver();
        self::$hookUrl = self::$receiver->url('/hooks');
        self::assertStringStartsWith('http://127.0.0.1:', self::$hookUrl);
    }

    /** @depends testStep00Construct */
    public function testStep01Company(): void
    {
        $company = self::$cambio->company->get();
        self::assertSame('sandbox', $company->environment);
        self::assertStringStartsWith('cmp_', $company->id);
        // A new company is at the standard tier; its figures are the stage's, whatever they are.
        self::assertInstanceOf(RateLimit::class, $company->rateLimit);
        self::assertSame('standard', $company->rateLimit->tier);
        self::assertIsInt($company->rateLimit->requestsPerSecond);
        self::assertIsInt($company->rateLimit->burst);
        self::assertGreaterThan(0, $company->rateLimit->requestsPerSecond);
        self::assertGreaterThanOrEqual($company->rateLimit->requestsPerSecond, $company->rateLimit->burst);
        $balance = self::$cambio->company->balance();
        $currencies = array_map(fn ($b) => $b->currency, $balance->balances);
        sort($currencies);
        self::assertSame(['BRL', 'USDT'], $currencies);
        foreach ($balance->balances as $each) {
            self::assertIsString($each->available);
            self::assertIsString($each->pending);
            self::assertIsString($each->locked);
        }
    }

    /** @depends testStep01Company */
    public function testStep02WebhookCreated(): void
    {
        self::$webhook = self::$cambio->webhooks->create(['url' => self::$hookUrl, 'events' => ['*']]);
        self::assertStringStartsWith('whk_', self::$webhook->id);
        self::assertStringStartsWith('whsec_', self::$webhook->secret);
    }

    /** @depends testStep02WebhookCreated */
    public function testStep03DepositPaidAndCompleted(): void
    {
        $deposit = self::$cambio->deposits->create(['method' => 'usdt', 'network' => 'tron', 'reference' => 'conformance-' . bin2hex(random_bytes(8)), 'amount' => '25']);
        self::assertSame('awaiting_payment', $deposit->status);
        self::assertSame('25.000000', $deposit->amount);
        self::assertNotSame('', $deposit->address);
        self::$deposit = $deposit;

        // What `npm run sandbox:pay` does, on this runtime's chain (not a Cambio API call).
        $pay = curl_init(self::env()['CAMBIO_SANDBOX_PAY_URL']);
        curl_setopt_array($pay, [CURLOPT_POST => true, CURLOPT_POSTFIELDS => json_encode(['address' => $deposit->address, 'amount' => '25']), CURLOPT_HTTPHEADER => ['Content-Type: application/json'], CURLOPT_RETURNTRANSFER => true, CURLOPT_TIMEOUT => 30]);
        $paid = curl_exec($pay);
        self::assertSame(200, curl_getinfo($pay, CURLINFO_RESPONSE_CODE), (string) $paid);

        $completed = self::until(fn () => self::$cambio->deposits->get($deposit->id), fn (Deposit $d) => $d->status === 'completed', 60);
        self::assertSame('25.000000', $completed->creditedAmount);
        self::assertSame('25.000000', $completed->receivedAmount);
    }

    /** @depends testStep03DepositPaidAndCompleted */
    public function testStep04DeliveryVerified(): void
    {
        $secret = self::$webhook->secret;
        $depositId = self::$deposit->id;
        $delivery = self::until(function () use ($secret, $depositId) {
            foreach (self::$receiver->deliveries() as $delivery) {
                try {
                    $event = self::$cambio->webhooks->verify($delivery['body'], $delivery['headers'], $secret);
                    if ($event->type === 'deposit.completed' && $event->data['id'] === $depositId) {
                        return $delivery;
                    }
                } catch (WebhookVerificationException) {
                }
            }
            return null;
        }, fn ($found) => $found !== null, 30);
        $event = self::$cambio->webhooks->verify($delivery['body'], $delivery['headers'], $secret);
        self::assertInstanceOf(Deposit::class, $event->dataObject());
        self::assertSame('completed', $event->dataObject()->status);

        $tampered = $delivery['body'];
        $tampered[strlen($tampered) - 2] = chr(ord($tampered[strlen($tampered) - 2]) ^ 1);
        $this->expectException(WebhookVerificationException::class);
        self::$cambio->webhooks->verify($tampered, $delivery['headers'], $secret);
    }

    /** @depends testStep03DepositPaidAndCompleted */
    public function testStep05Conversion(): void
    {
        $quote = self::$cambio->conversions->quote(['sourceCurrency' => 'USDT', 'settlementCurrency' => 'BRL', 'sourceAmount' => '10']);
        self::assertStringStartsWith('qte_', $quote->id);
        self::assertMatchesRegularExpression('/^\d+\.\d{2}$/', $quote->settlementAmount);
        $conversion = self::$cambio->conversions->create(['quoteId' => $quote->id]);
        self::assertSame('completed', $conversion->status);
        self::assertSame($quote->settlementAmount, $conversion->settlementAmount);
        self::$conversion = $conversion;
    }

    /** @depends testStep05Conversion */
    public function testStep06IdempotentReplay(): void
    {
        $second = self::$cambio->conversions->quote(['sourceCurrency' => 'USDT', 'settlementCurrency' => 'BRL', 'sourceAmount' => '1']);
        $key = 'conformance-' . bin2hex(random_bytes(8));
        $first = self::$cambio->conversions->create(['quoteId' => $second->id], ['idempotency_key' => $key]);
        $replayed = self::$cambio->conversions->create(['quoteId' => $second->id], ['idempotency_key' => $key]);
        self::assertSame($first->id, $replayed->id);
        $usdt = array_values(array_filter(self::$cambio->company->balance()->balances, fn ($b) => $b->currency === 'USDT'))[0];
        self::assertSame('14.000000', $usdt->available);
        self::$replayed = $first;
    }

    /** @depends testStep06IdempotentReplay */
    public function testStep07Pagination(): void
    {
        $page = self::$cambio->conversions->list(['limit' => 1]);
        self::assertCount(1, $page->data);
        self::assertNotNull($page->nextCursor);
        $walked = [];
        foreach (self::$cambio->conversions->list(['limit' => 1])->autoPagingIterator() as $conversion) {
            $walked[] = $conversion->id;
        }
        self::assertSame([self::$replayed->id, self::$conversion->id], $walked);
    }

    /** @depends testStep00Construct */
    public function testStep08Refused(): void
    {
        $e = self::thrown(RefusedException::class, fn () => self::$cambio->withdrawals->create(['method' => 'usdt', 'network' => 'tron', 'address' => self::PAYOUT_ADDRESS, 'amount' => '1000', 'reference' => 'conformance-' . bin2hex(random_bytes(8))]), 'the withdrawal was accepted');
        self::assertSame('INSUFFICIENT_BALANCE', $e->getCambioCode());
        self::assertSame(422, $e->getHttpStatus());
        self::assertNotEmpty($e->getRequestId());
    }

    /** @depends testStep00Construct */
    public function testStep09Authentication(): void
    {
        $env = self::env();
        $wrong = new CambioClient(apiKey: $env['CAMBIO_API_KEY'], apiSecret: 'not-the-secret', baseUrl: $env['CAMBIO_API_URL']);
        $e = self::thrown(AuthenticationException::class, fn () => $wrong->company->get(), 'authenticated with a wrong secret');
        self::assertSame('AUTH_FAILED', $e->getCambioCode());
        self::assertSame(401, $e->getHttpStatus());
    }

    /** @depends testStep00Construct */
    public function testStep10NotFound(): void
    {
        $e = self::thrown(NotFoundException::class, fn () => self::$cambio->deposits->get('dep_00000000000000000000000000'), 'found');
        self::assertSame('NOT_FOUND', $e->getCambioCode());
        self::assertSame(404, $e->getHttpStatus());
    }

    /** @depends testStep02WebhookCreated */
    public function testStep11WebhookManaged(): void
    {
        $id = self::$webhook->id;
        $updated = self::$cambio->webhooks->update($id, ['url' => self::$hookUrl, 'events' => ['deposit.completed']]);
        self::assertSame(['deposit.completed'], $updated->events);
        self::assertSame(['deposit.completed'], self::$cambio->webhooks->get($id)->events);
        self::assertContains($id, array_map(fn ($w) => $w->id, self::$cambio->webhooks->list()->data));
        $deleted = self::$cambio->webhooks->delete($id);
        self::assertSame($id, $deleted->id);
        self::assertTrue($deleted->deleted);
        $e = self::thrown(NotFoundException::class, fn () => self::$cambio->webhooks->get($id), 'still there');
        self::assertSame(404, $e->getHttpStatus());
    }

    /**
     * @template T
     * @param callable(): T $read
     * @param callable(T): bool $done
     * @return T
     */
    private static function until(callable $read, callable $done, int $seconds): mixed
    {
        $deadline = microtime(true) + $seconds;
        while (true) {
            $value = $read();
            if ($done($value)) {
                return $value;
            }
            if (microtime(true) > $deadline) {
                throw new \RuntimeException("not reached within $seconds s; last: " . json_encode($value instanceof \Cambio\CambioObject ? $value->toArray() : $value));
            }
            usleep(250_000);
        }
    }
}
