<?php

declare(strict_types=1);

namespace Cambio\Tests;

use Cambio\CambioClient;
use Cambio\Exception\InvalidArgumentException;
use Cambio\Tests\Support\ScriptedServer;
use Cambio\Tests\Support\ScriptedTestCase;
use Cambio\Types\Balance;
use Cambio\Types\CreatedWebhook;
use Cambio\Types\CurrencyBalance;
use Cambio\Types\DeletedWebhook;
use Cambio\Types\Deposit;
use Cambio\Types\DepositSplit;
use Cambio\Types\DepositTransaction;
use Cambio\Types\Quote;
use Cambio\Types\RateLimit;
use Cambio\Types\Webhook;
use Cambio\Types\Withdrawal;
use Cambio\Types\WithdrawalNetworkCost;

/** What each call sends (method, path, headers, JSON) and the typed record it returns. */
final class RequestTest extends ScriptedTestCase
{
    private const WEBHOOK = ['id' => 'whk_01KBJ4XZ0A1B2C3D4E5F6G7H8J', 'url' => 'https://example.com/hooks', 'events' => ['*'], 'description' => null, 'enabled' => true, 'createdAt' => '2026-01-15T12:00:00.000Z', 'updatedAt' => '2026-01-15T12:00:00.000Z'];

    public function testEveryRequestCarriesTheCredentialsAndTheUserAgent(): void
    {
        $this->script([ScriptedServer::ok(self::company(['tier' => 'standard', 'requestsPerSecond' => 10, 'burst' => 20]))]);
        $company = $this->client()->company->get();
        self::assertSame('sandbox', $company->environment);
        self::assertSame('Acme', $company->name);
        self::assertInstanceOf(RateLimit::class, $company->rateLimit);
        self::assertSame(['standard', 10, 20], [$company->rateLimit->tier, $company->rateLimit->requestsPerSecond, $company->rateLimit->burst]);
        $request = $this->requests()[0];
        self::assertSame('GET', $request['method']);
        self::assertSame('/v1/company', $request['uri']);
        self::assertSame('ck_test_scripted', $request['headers']['x-api-key']);
        self::assertSame('cs_test_scripted_secret', $request['headers']['x-api-secret']);
        self::assertSame('cambio-php/' . CambioClient::VERSION . ' php/' . PHP_VERSION, $request['headers']['user-agent']);
        self::assertSame('application/json', $request['headers']['accept']);
        self::assertArrayNotHasKey('content-type', $request['headers']);
    }

    public function testACompanyRateLimitTierAddedLaterIsKept(): void
    {
        $rateLimit = ['tier' => 'enterprise', 'requestsPerSecond' => 500, 'burst' => 1000];
        $this->script([ScriptedServer::ok(self::company($rateLimit))]);
        $company = $this->client()->company->get();
        self::assertSame('enterprise', $company->rateLimit->tier);
        self::assertSame(500, $company->rateLimit->requestsPerSecond);
        self::assertSame($rateLimit, $company->toArray()['rateLimit']);
    }

    /** @param array<string, mixed> $rateLimit @return array<string, mixed> */
    private static function company(array $rateLimit): array
    {
        return ['id' => 'cmp_01KBJ4XZ0A1B2C3D4E5F6G7H8J', 'name' => 'Acme', 'environment' => 'sandbox', 'status' => 'active', 'createdAt' => '2026-01-15T12:00:00.000Z', 'rateLimit' => $rateLimit];
    }

    public function testBalanceIsTypedPerCurrency(): void
    {
        $this->script([ScriptedServer::ok(['balances' => [
            ['currency' => 'USDT', 'available' => '14.000000', 'pending' => '0.000000', 'locked' => '0.000000'],
            ['currency' => 'BRL', 'available' => '59.40', 'pending' => '0.00', 'locked' => '0.00'],
        ], 'updatedAt' => '2026-01-15T12:00:00.000Z'])]);
        $balance = $this->client()->company->balance();
        self::assertInstanceOf(Balance::class, $balance);
        self::assertContainsOnlyInstancesOf(CurrencyBalance::class, $balance->balances);
        self::assertSame('14.000000', $balance->balances[0]->available);
        self::assertSame('59.40', $balance->balances[1]->available);
        self::assertSame('/v1/company/balance', $this->requests()[0]['uri']);
    }

    public function testDepositCreateSendsTheParamsAsJsonAndReturnsATypedDeposit(): void
    {
        $answer = self::deposit([
            'status' => 'confirming',
            'transactions' => [['txHash' => 'abc', 'amount' => '25.000000', 'blockNumber' => 12, 'confirmations' => 3, 'status' => 'confirming']],
            'split' => ['address' => 'TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui', 'percent' => 12.5, 'amount' => null, 'forwardedAmount' => '0.000000', 'withdrawalId' => null],
            'addedLater' => 'kept in toArray()',
        ]);
        $this->script([ScriptedServer::ok($answer, 201)]);
        $deposit = $this->client()->deposits->create([
            'method' => 'usdt', 'network' => 'tron', 'reference' => 'order-1', 'amount' => '25.50',
            'split' => ['address' => 'TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui', 'percent' => 12.5],
        ]);
        self::assertInstanceOf(Deposit::class, $deposit);
        self::assertSame('25.000000', $deposit->amount);
        self::assertSame('0.000000', $deposit->receivedAmount);
        self::assertNull($deposit->amountStatus);
        self::assertInstanceOf(DepositTransaction::class, $deposit->transactions[0]);
        self::assertSame(12, $deposit->transactions[0]->blockNumber);
        self::assertInstanceOf(DepositSplit::class, $deposit->split);
        self::assertSame('12.5', $deposit->split->percent);
        self::assertSame('kept in toArray()', $deposit->toArray()['addedLater']);
        // As the API sent it, a number with a fraction as its exact decimal string (never a float).
        $answer['split']['percent'] = '12.5';
        self::assertSame($answer, json_decode((string) json_encode($deposit), true));

        $request = $this->requests()[0];
        self::assertSame('POST', $request['method']);
        self::assertSame('/v1/deposits', $request['uri']);
        self::assertSame('application/json', $request['headers']['content-type']);
        self::assertSame('{"method":"usdt","network":"tron","reference":"order-1","amount":"25.5","split":{"address":"TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui","percent":12.5}}', $request['body']);
    }

    private const LONG_PERCENT = '0.1000000000000000055511151231257827';

    public function testANumberWithAFractionReadsAsItsExactDecimalStringNeverAFloat(): void
    {
        $split = fn (string $percent) => '{"address":"TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui","percent":' . $percent . ',"amount":null,"forwardedAmount":"0.000000","withdrawalId":null}';
        $body = fn (string $percent) => str_replace('"split":null', '"split":' . $split($percent), (string) json_encode(['success' => true, 'data' => self::deposit()], JSON_UNESCAPED_SLASHES));
        $answer = fn (string $percent) => ['status' => 200, 'body' => $body($percent), 'headers' => ['Content-Type' => 'application/json']];
        $this->script([$answer(self::LONG_PERCENT), $answer('12.50'), $answer('10'), $answer('1.5e1')]);
        $cambio = $this->client();

        $deposits = array_map(fn () => $cambio->deposits->get('dep_01KBJ4XZ0A1B2C3D4E5F6G7H8J'), range(1, 4));

        self::assertSame([self::LONG_PERCENT, '12.50', '10', '1.5e1'], array_map(fn ($d) => $d->split->percent, $deposits));
        self::assertSame(self::LONG_PERCENT, $deposits[0]->toArray()['split']['percent']);
        self::assertSame(19, $deposits[0]->requiredConfirmations);
        self::assertSame('12.50', $deposits[1]->split->toArray()['percent']);
    }

    public function testADecimalStringPercentIsSentAsTheExactJsonNumber(): void
    {
        $this->script(array_fill(0, 4, ScriptedServer::ok(self::deposit(), 201)));
        $cambio = $this->client();
        foreach ([self::LONG_PERCENT, '12.50', 10, 12.5] as $percent) {
            $cambio->deposits->create(['method' => 'usdt', 'network' => 'tron', 'reference' => 'r', 'split' => ['address' => 'T1', 'percent' => $percent]]);
        }
        $sent = array_map(fn ($request) => preg_match('/"percent":([^,}]*)/', $request['body'], $m) === 1 ? $m[1] : null, $this->requests());
        self::assertSame([self::LONG_PERCENT, '12.50', '10', '12.5'], $sent);
        foreach (['ten', '', '1.', '0x10', ' 10', 'NaN'] as $bad) {
            $e = self::thrown(InvalidArgumentException::class, fn () => $cambio->deposits->create(['method' => 'usdt', 'network' => 'tron', 'reference' => 'r', 'split' => ['address' => 'T1', 'percent' => $bad]]));
            self::assertStringContainsString('split.percent', $e->getMessage());
        }
        self::assertCount(4, $this->requests(), 'nothing sent');
    }

    public function testMoneyIsADecimalStringNeverAFloat(): void
    {
        $this->script([]);
        $cambio = $this->client();
        $e = self::thrown(InvalidArgumentException::class, fn () => $cambio->withdrawals->create(['method' => 'usdt', 'network' => 'tron', 'address' => 'T', 'amount' => 0.1, 'reference' => 'p']), 'a float was sent');
        self::assertStringContainsString('`amount` is a float', $e->getMessage());
        $e = self::thrown(InvalidArgumentException::class, fn () => $cambio->deposits->create(['method' => 'usdt', 'network' => 'tron', 'reference' => 'r', 'split' => ['address' => 'T', 'amount' => 1.5]]), 'a float was sent');
        self::assertStringContainsString('`split.amount` is a float', $e->getMessage());
        self::assertSame([], $this->requests(), 'nothing sent');

        // An int, or a decimal object that is \Stringable (e.g. Brick\Math\BigDecimal), is sent as its decimal string.
        $decimal = new class () implements \Stringable {
            public function __toString(): string
            {
                return '10.123456';
            }
        };
        $quote = ['id' => 'qte_01KBJ4XZ0A1B2C3D4E5F6G7H8J', 'sourceCurrency' => 'USDT', 'settlementCurrency' => 'BRL', 'sourceAmount' => '10.123456', 'settlementAmount' => '54.66', 'rate' => '5.40000000', 'expiresAt' => '2026-01-15T12:00:30.000Z', 'createdAt' => '2026-01-15T12:00:00.000Z'];
        $this->script([ScriptedServer::ok($quote, 201), ScriptedServer::ok(self::deposit(), 201)]);
        $q = $cambio->conversions->quote(['sourceCurrency' => 'USDT', 'settlementCurrency' => 'BRL', 'sourceAmount' => $decimal]);
        self::assertInstanceOf(Quote::class, $q);
        self::assertSame('54.66', $q->settlementAmount);
        $cambio->deposits->create(['method' => 'usdt', 'network' => 'tron', 'reference' => 'r', 'amount' => 25]);
        [$quoteRequest, $depositRequest] = $this->requests();
        self::assertSame('{"sourceCurrency":"USDT","settlementCurrency":"BRL","sourceAmount":"10.123456"}', $quoteRequest['body']);
        self::assertSame('{"method":"usdt","network":"tron","reference":"r","amount":"25"}', $depositRequest['body']);
    }

    /** @return iterable<string, array{0: string|\Stringable, 1: string}> */
    public static function amountsWithTrailingZeros(): iterable
    {
        $decimal = fn (string $digits) => new class ($digits) implements \Stringable { // as Brick\Math\BigDecimal::of('12.5')->toScale(8)
            public function __construct(private readonly string $digits)
            {
            }

            public function __toString(): string
            {
                return $this->digits;
            }
        };
        yield 'a BigDecimal of scale 8' => [$decimal('12.50000000'), '12.5'];
        yield "bcmul('25.000000', '0.5', 8)" => ['12.50000000', '12.5'];
        yield 'only zeros after the point' => ['10.000', '10'];
        yield 'a whole number' => ['100', '100'];
        yield 'no trailing zero' => ['0.000001', '0.000001'];
        yield 'more places than the API takes: sent whole, never rounded' => ['1.00000010', '1.0000001'];
        yield 'not a plain decimal: sent as it is, for the API to refuse' => ['1.50e3', '1.50e3'];
    }

    /**
     * The API counts trailing zeros against its 6 decimal places: 12.50000000 would be a 400 for 12.5.
     *
     * @dataProvider amountsWithTrailingZeros
     */
    public function testAnAmountIsSentWithoutTheTrailingZerosOfItsFraction(string|\Stringable $amount, string $sent): void
    {
        $this->script([ScriptedServer::ok(self::deposit(), 201)]);
        $this->client()->deposits->create(['method' => 'usdt', 'network' => 'tron', 'reference' => 'r', 'amount' => $amount, 'split' => ['address' => 'T', 'amount' => $amount]]);
        $body = json_decode($this->requests()[0]['body'], true);
        self::assertSame([$sent, $sent], [$body['amount'], $body['split']['amount']]);
    }

    public function testWithdrawalsAndConversions(): void
    {
        $withdrawal = ['id' => 'wdr_01KBJ4XZ0A1B2C3D4E5F6G7H8J', 'method' => 'usdt', 'reference' => 'payout-1', 'network' => 'tron', 'address' => 'TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui', 'amount' => '5.000000', 'fee' => '1.000000', 'status' => 'pending', 'txHash' => null, 'deliveredAmount' => null, 'networkCost' => null, 'failureReason' => null, 'createdAt' => '2026-01-15T12:00:00.000Z', 'updatedAt' => '2026-01-15T12:00:00.000Z', 'completedAt' => null];
        $this->script([ScriptedServer::ok($withdrawal, 201), ScriptedServer::ok($withdrawal), ScriptedServer::ok(self::conversion('cnv_01KBJ4XZ0A1B2C3D4E5F6G7H8J'), 201), ScriptedServer::ok(self::conversion('cnv_01KBJ4XZ0A1B2C3D4E5F6G7H8J'))]);
        $cambio = $this->client();
        $w = $cambio->withdrawals->create(['method' => 'usdt', 'network' => 'tron', 'address' => 'TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui', 'amount' => '5', 'reference' => 'payout-1']);
        self::assertInstanceOf(Withdrawal::class, $w);
        self::assertSame('1.000000', $w->fee);
        self::assertNull($w->txHash);
        self::assertNull($w->deliveredAmount);
        self::assertNull($w->networkCost);
        $cambio->withdrawals->get($w->id);
        $c = $cambio->conversions->create(['quoteId' => 'qte_01KBJ4XZ0A1B2C3D4E5F6G7H8J']);
        self::assertSame('completed', $c->status);
        $cambio->conversions->get($c->id);
        $calls = array_map(fn ($r) => $r['method'] . ' ' . $r['uri'], $this->requests());
        self::assertSame(['POST /v1/withdrawals', 'GET /v1/withdrawals/wdr_01KBJ4XZ0A1B2C3D4E5F6G7H8J', 'POST /v1/conversions', 'GET /v1/conversions/cnv_01KBJ4XZ0A1B2C3D4E5F6G7H8J'], $calls);
    }

    /** A Solana wallet (32 bytes on the Ed25519 curve, base58) and a transaction signature (64 bytes, base58). */
    private const SOLANA_WALLET = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
    private const SOLANA_SIGNATURE = '4fEUp7Zfx1DabEhfjTffrP21NsHSvE1xAoiUWUkTXxbKC2Q2EZE1QMCc9QZQzvibS8tUfTacRNw6UFN3jFMfh5uQ';

    public function testAWithdrawalOnSolanaIsSentNamingItAndItsRecordReadsBack(): void
    {
        $completed = ['id' => 'wdr_01KBJ4XZ0A1B2C3D4E5F6G7H8J', 'method' => 'usdt', 'reference' => 'payout-1', 'network' => 'solana', 'address' => self::SOLANA_WALLET, 'amount' => '5.000000', 'fee' => '1.000000', 'status' => 'completed', 'txHash' => self::SOLANA_SIGNATURE, 'deliveredAmount' => '5.000000', 'networkCost' => ['asset' => 'SOL', 'amount' => '0.002044280', 'tokenAccountCreated' => true], 'failureReason' => null, 'createdAt' => '2026-01-15T12:00:00.000Z', 'updatedAt' => '2026-01-15T12:00:05.000Z', 'completedAt' => '2026-01-15T12:00:05.000Z'];
        $this->script([ScriptedServer::ok($completed, 201), ScriptedServer::ok(self::deposit(['network' => 'solana', 'address' => self::SOLANA_WALLET, 'requiredConfirmations' => 32]), 201)]);
        $cambio = $this->client();
        $w = $cambio->withdrawals->create(['method' => 'usdt', 'network' => 'solana', 'address' => self::SOLANA_WALLET, 'amount' => '5', 'reference' => 'payout-1']);
        self::assertInstanceOf(Withdrawal::class, $w);
        self::assertSame(['solana', self::SOLANA_WALLET, self::SOLANA_SIGNATURE, '5.000000'], [$w->network, $w->address, $w->txHash, $w->deliveredAmount]);
        // What the payout cost Cambio in SOL: the API's decimal string, never a float.
        self::assertInstanceOf(WithdrawalNetworkCost::class, $w->networkCost);
        self::assertSame(['SOL', '0.002044280', true], [$w->networkCost->asset, $w->networkCost->amount, $w->networkCost->tokenAccountCreated]);
        $d = $cambio->deposits->create(['method' => 'usdt', 'network' => 'solana', 'reference' => 'order-1']);
        self::assertSame(['solana', self::SOLANA_WALLET, 32], [$d->network, $d->address, $d->requiredConfirmations]);
        [$withdrawalRequest, $depositRequest] = $this->requests();
        self::assertSame('{"method":"usdt","network":"solana","address":"' . self::SOLANA_WALLET . '","amount":"5","reference":"payout-1"}', $withdrawalRequest['body']);
        self::assertSame('{"method":"usdt","network":"solana","reference":"order-1"}', $depositRequest['body']);
    }

    public function testWebhookCalls(): void
    {
        $this->script([
            ScriptedServer::ok(self::WEBHOOK + ['secret' => 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'], 201),
            ScriptedServer::ok(['events' => ['deposit.completed']] + self::WEBHOOK),
            ScriptedServer::ok(self::WEBHOOK),
            ScriptedServer::ok(['id' => self::WEBHOOK['id'], 'deleted' => true]),
        ]);
        $cambio = $this->client();
        $created = $cambio->webhooks->create(['url' => 'https://example.com/hooks', 'events' => ['*']]);
        self::assertInstanceOf(CreatedWebhook::class, $created);
        self::assertStringStartsWith('whsec_', $created->secret);
        $updated = $cambio->webhooks->update($created->id, ['url' => 'https://example.com/hooks', 'events' => ['deposit.completed']]);
        self::assertInstanceOf(Webhook::class, $updated);
        self::assertSame(['deposit.completed'], $updated->events);
        $cambio->webhooks->get($created->id);
        $deleted = $cambio->webhooks->delete($created->id);
        self::assertInstanceOf(DeletedWebhook::class, $deleted);
        self::assertTrue($deleted->deleted);
        $requests = $this->requests();
        self::assertSame(['POST', 'PUT', 'GET', 'DELETE'], array_column($requests, 'method'));
        self::assertSame('{"url":"https://example.com/hooks","events":["*"]}', $requests[0]['body']);
        self::assertSame('{"url":"https://example.com/hooks","events":["deposit.completed"]}', $requests[1]['body']);
        self::assertSame('/v1/webhooks/whk_01KBJ4XZ0A1B2C3D4E5F6G7H8J', $requests[3]['uri']);
    }

    public function testIdsAreEncodedIntoThePath(): void
    {
        $this->script([ScriptedServer::error(404, 'NOT_FOUND')]);
        try {
            $this->client()->deposits->get('../company?x=1');
        } catch (\Cambio\Exception\NotFoundException) {
        }
        self::assertSame('/v1/deposits/..%2Fcompany%3Fx%3D1', $this->requests()[0]['uri']);
        $this->expectException(InvalidArgumentException::class);
        $this->client()->deposits->get('');
    }

    public function testUnknownRequestOptionsAreRefused(): void
    {
        $this->expectException(InvalidArgumentException::class);
        $this->expectExceptionMessage("Unknown request option 'idempotencyKey'");
        $this->client()->deposits->create(['method' => 'usdt', 'network' => 'tron', 'reference' => 'r'], ['idempotencyKey' => 'k']);
    }

    public function testParamsMustBeKeyedByTheApisNames(): void
    {
        $this->expectException(InvalidArgumentException::class);
        $this->client()->deposits->create(['usdt', 'tron', 'order-1']);
    }
}
