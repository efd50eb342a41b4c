<?php

declare(strict_types=1);

namespace Cambio\Tests;

use Cambio\CambioClient;
use Cambio\Exception\InvalidArgumentException;
use Cambio\Internal\Requestor;
use Cambio\Tests\Support\CatchesExceptions;
use PHPUnit\Framework\TestCase;

final class ConstructionTest extends TestCase
{
    use CatchesExceptions;

    private const KEY = 'ck_test_0123456789';
    private const SECRET = 'cs_test_construction_secret';

    public function testBuildsWithNamedArgumentsAndExposesTheGroups(): void
    {
        $cambio = new CambioClient(apiKey: self::KEY, apiSecret: self::SECRET, baseUrl: 'https://abc123.execute-api.sa-east-1.amazonaws.com/prod/v1');
        self::assertSame('https://abc123.execute-api.sa-east-1.amazonaws.com/prod', $cambio->baseUrl);
        self::assertInstanceOf(\Cambio\Service\CompanyService::class, $cambio->company);
        self::assertInstanceOf(\Cambio\Service\DepositService::class, $cambio->deposits);
        self::assertInstanceOf(\Cambio\Service\WithdrawalService::class, $cambio->withdrawals);
        self::assertInstanceOf(\Cambio\Service\ConversionService::class, $cambio->conversions);
        self::assertInstanceOf(\Cambio\Service\WebhookService::class, $cambio->webhooks);
    }

    /** @return iterable<string, array{0: string|false|null, 1: string|false|null, 2: string}> */
    public static function missingCredentials(): iterable
    {
        yield 'no api key' => [null, self::SECRET, 'apiKey'];
        yield 'empty api key' => ['', self::SECRET, 'apiKey'];
        yield 'api key from an unset getenv()' => [false, self::SECRET, 'apiKey'];
        yield 'no api secret' => [self::KEY, null, 'apiSecret'];
        yield 'empty api secret' => [self::KEY, '', 'apiSecret'];
    }

    /** @dataProvider missingCredentials */
    public function testRefusesAMissingKeyOrSecret(string|false|null $key, string|false|null $secret, string $named): void
    {
        $e = self::thrown(InvalidArgumentException::class, fn () => new CambioClient(apiKey: $key, apiSecret: $secret, baseUrl: 'http://127.0.0.1:3000/v1'), 'constructed');
        self::assertStringContainsString("needs $named", $e->getMessage());
    }

    /** @return iterable<string, array{0: string|false|null}> */
    public static function missingUrls(): iterable
    {
        yield 'omitted' => [null];
        yield 'empty' => [''];
        yield 'blank' => ['  '];
        yield 'unset getenv()' => [false];
    }

    /** @dataProvider missingUrls */
    public function testRefusesAMissingBaseUrlNamingWhereItComesFrom(string|false|null $url): void
    {
        $e = self::thrown(InvalidArgumentException::class, fn () => new CambioClient(apiKey: self::KEY, apiSecret: self::SECRET, baseUrl: $url), 'constructed');
        self::assertStringContainsString('needs baseUrl', $e->getMessage());
        self::assertStringContainsString('ApiUrl', $e->getMessage());
        self::assertStringContainsString('npm start', $e->getMessage());
    }

    public function testTheBaseUrlIsRequiredEvenWithoutNamedArguments(): void
    {
        $this->expectException(InvalidArgumentException::class);
        $this->expectExceptionMessage('needs baseUrl');
        new CambioClient(self::KEY, self::SECRET);
    }

    /** @return iterable<string, array{0: string, 1: string}> */
    public static function acceptedUrls(): iterable
    {
        yield 'local runtime with /v1' => ['http://127.0.0.1:3000/v1', 'http://127.0.0.1:3000'];
        yield 'local runtime without /v1' => ['http://127.0.0.1:3000', 'http://127.0.0.1:3000'];
        yield 'trailing slash' => ['http://127.0.0.1:3000/v1/', 'http://127.0.0.1:3000'];
        yield 'localhost' => ['http://localhost:3000/v1', 'http://localhost:3000'];
        yield 'LOCALHOST in capitals' => ['HTTP://LOCALHOST:3000', 'http://localhost:3000'];
        yield '127.0.0.0/8' => ['http://127.4.5.6:8080/', 'http://127.4.5.6:8080'];
        yield 'IPv6 loopback' => ['http://[::1]:3000/v1', 'http://[::1]:3000'];
        yield 'API Gateway stage URL' => ['https://abc123.execute-api.sa-east-1.amazonaws.com/prod/v1', 'https://abc123.execute-api.sa-east-1.amazonaws.com/prod'];
        yield 'https without /v1' => ['https://api.example.com', 'https://api.example.com'];
    }

    /** @dataProvider acceptedUrls */
    public function testAcceptsABaseUrlWithOrWithoutV1(string $given, string $kept): void
    {
        self::assertSame($kept, (new CambioClient(apiKey: self::KEY, apiSecret: self::SECRET, baseUrl: $given))->baseUrl);
    }

    /** @return iterable<string, array{0: string, 1: string}> the URL, what the refusal says */
    public static function refusedUrls(): iterable
    {
        $refusals = [
            'plain http' => [
                'plain http to a public host' => 'http://api.example.com/v1',
                'plain http to a private address' => 'http://10.0.0.5:3000/v1',
                'plain http to a host named like loopback' => 'http://127.0.0.1.example.com/v1',
            ],
            'no credentials, query or fragment' => [
                'credentials in the URL' => 'https://user:pass@api.example.com/v1',
                'a query' => 'https://api.example.com/v1?key=1',
                'a fragment' => 'https://api.example.com/v1#x',
            ],
            'http(s) URL' => [
                'another scheme' => 'ftp://api.example.com/v1',
                'no scheme' => 'api.example.com/v1',
                'not a URL' => 'http://',
            ],
        ];
        foreach ($refusals as $says => $urls) {
            foreach ($urls as $case => $url) {
                yield $case => [$url, $says];
            }
        }
    }

    /** @dataProvider refusedUrls */
    public function testRefusesAnUnsafeOrMalformedBaseUrl(string $url, string $says): void
    {
        $e = self::thrown(InvalidArgumentException::class, fn () => new CambioClient(apiKey: self::KEY, apiSecret: self::SECRET, baseUrl: $url), 'constructed');
        self::assertStringContainsString($says, $e->getMessage());
        self::assertStringNotContainsString(self::SECRET, $e->getMessage());
    }

    public function testRefusesNegativeRetriesAndTimeouts(): void
    {
        $this->expectException(InvalidArgumentException::class);
        new CambioClient(apiKey: self::KEY, apiSecret: self::SECRET, baseUrl: 'http://127.0.0.1:3000', maxRetries: -1);
    }

    public function testRefusesAZeroTimeout(): void
    {
        $this->expectException(InvalidArgumentException::class);
        new CambioClient(apiKey: self::KEY, apiSecret: self::SECRET, baseUrl: 'http://127.0.0.1:3000', timeout: 0);
    }

    public function testRefusesANewlineInTheCredentials(): void
    {
        $this->expectException(InvalidArgumentException::class);
        $this->expectExceptionMessage('control characters');
        new CambioClient(apiKey: self::KEY, apiSecret: self::SECRET . "\n", baseUrl: 'http://127.0.0.1:3000');
    }

    public function testDefaultsAreTwoRetriesAndThirtySeconds(): void
    {
        $cambio = new CambioClient(apiKey: self::KEY, apiSecret: self::SECRET, baseUrl: 'http://127.0.0.1:3000');
        $debug = $cambio->__debugInfo();
        self::assertSame(2, $debug['maxRetries']);
        self::assertSame(30.0, $debug['timeout']);
    }

    public function testTheVersionIsReadFromOnePlaceAndComposerAgrees(): void
    {
        self::assertSame(trim((string) file_get_contents(__DIR__ . '/../../VERSION')), CambioClient::VERSION, 'clients/VERSION');
        $composer = json_decode((string) file_get_contents(__DIR__ . '/../composer.json'), true);
        self::assertSame('cambio-usdt/client', $composer['name']);
        self::assertSame(CambioClient::VERSION, $composer['version']);
        self::assertSame(['Cambio\\' => 'src/'], $composer['autoload']['psr-4']);
        self::assertSame('cambio-php/' . CambioClient::VERSION . ' php/' . PHP_VERSION, Requestor::userAgent());
    }
}
