<?php

declare(strict_types=1);

namespace Cambio;

use Cambio\Exception\InvalidArgumentException;
use Cambio\Internal\Credentials;
use Cambio\Internal\Requestor;
use Cambio\Service\CompanyService;
use Cambio\Service\ConversionService;
use Cambio\Service\DepositService;
use Cambio\Service\WebhookService;
use Cambio\Service\WithdrawalService;

/**
 * The Cambio API. One instance per (API key, secret, base URL); no global state.
 *
 *     $cambio = new \Cambio\CambioClient(apiKey: $key, apiSecret: $secret, baseUrl: $apiUrl);
 *     $deposit = $cambio->deposits->create(['method' => 'usdt', 'network' => 'tron', 'reference' => 'order-1', 'amount' => '25']);
 *
 * Every POST carries an Idempotency-Key (a random UUID unless you pass `['idempotency_key' => …]`
 * as the last argument), the same on each retry of that call, so a retried withdrawal is replayed
 * by the API, never made twice.
 */
final class CambioClient
{
    /** This library's version: the User-Agent's, composer.json's. */
    public const VERSION = '0.4.0';

    /** Where the base URL comes from, for the errors that ask for one (there is no default host). */
    public const WHERE_THE_URL_IS = "the `ApiUrl` output of your Cambio stack (printed by `cdk deploy`, e.g. https://{restApiId}.execute-api.{region}.amazonaws.com/{stage}/v1), "
        . 'or for the local runtime the API URL `npm start` prints (http://127.0.0.1:3000/v1)';

    /** The API's origin and stage path, without the trailing /v1 (the routes carry it). */
    public readonly string $baseUrl;

    public readonly CompanyService $company;
    public readonly DepositService $deposits;
    public readonly WithdrawalService $withdrawals;
    public readonly ConversionService $conversions;
    public readonly WebhookService $webhooks;

    private readonly Requestor $requestor;

    /**
     * @param string $apiKey the company's API key
     * @param string $apiSecret its secret (kept out of var_dump(), print_r(), var_export(), logs and exception traces)
     * @param string $baseUrl your stack's `ApiUrl` output (https://{restApiId}.execute-api.{region}.amazonaws.com/{stage}/v1)
     *                        or the local runtime's URL as `npm start` prints it; with or without the trailing /v1;
     *                        https, or plain http for loopback only (127.0.0.0/8, ::1, localhost)
     * @param int $maxRetries retries after the first try, on connection failures, timeouts, 409 IDEMPOTENCY_KEY_IN_USE, 429 and 5xx
     * @param float $timeout seconds per try
     * @param float $initialRetryDelay backoff before retry n: a random delay between half and all of
     *                                 min($maxRetryDelay, $initialRetryDelay × 2^n) seconds…
     * @param float $maxRetryDelay …capped here
     * @param float $maxRetryAfter a Retry-After header (seconds or HTTP date) is honoured up to this many seconds
     */
    public function __construct(
        string|false|null $apiKey = null,
        #[\SensitiveParameter] string|false|null $apiSecret = null,
        string|false|null $baseUrl = null,
        int $maxRetries = 2,
        float $timeout = 30.0,
        float $initialRetryDelay = 0.5,
        float $maxRetryDelay = 5.0,
        float $maxRetryAfter = 60.0,
    ) {
        if ($apiKey === null || $apiKey === false || $apiKey === '' || $apiSecret === null || $apiSecret === false || $apiSecret === '') {
            $missing = $apiKey === null || $apiKey === false || $apiKey === '' ? 'apiKey' : 'apiSecret';
            throw new InvalidArgumentException("new CambioClient(apiKey:, apiSecret:, baseUrl:) needs $missing: the company's API key and secret (printed by `npm start` on first start or by `npm run company:create`, or made in the dashboard's Integrations → API keys)");
        }
        if (preg_match('/[\x00-\x20\x7f]/', $apiKey) || preg_match('/[\x00-\x1f\x7f]/', $apiSecret)) {
            throw new InvalidArgumentException('apiKey and apiSecret must not contain spaces or control characters (a stray newline from a file or an environment variable?)');
        }
        if ($maxRetries < 0) {
            throw new InvalidArgumentException('maxRetries must be ≥ 0');
        }
        if ($timeout <= 0 || $initialRetryDelay < 0 || $maxRetryDelay < 0 || $maxRetryAfter < 0) {
            throw new InvalidArgumentException('timeout must be > 0 and the retry delays ≥ 0 (seconds)');
        }
        $this->baseUrl = self::checkBaseUrl($baseUrl);
        $this->requestor = new Requestor($this->baseUrl, new Credentials($apiKey, $apiSecret), $maxRetries, $timeout, $initialRetryDelay, $maxRetryDelay, $maxRetryAfter);
        $this->company = new CompanyService($this->requestor);
        $this->deposits = new DepositService($this->requestor);
        $this->withdrawals = new WithdrawalService($this->requestor);
        $this->conversions = new ConversionService($this->requestor);
        $this->webhooks = new WebhookService($this->requestor);
    }

    /**
     * The base URL, checked before any request carries the key and secret: given explicitly (no
     * default host), http(s), and https unless it is loopback, so the credentials never cross the
     * network in clear text; no credentials, query or fragment. Returned without a trailing /v1.
     */
    private static function checkBaseUrl(string|false|null $baseUrl): string
    {
        if ($baseUrl === null || $baseUrl === false || trim($baseUrl) === '') {
            throw new InvalidArgumentException('new CambioClient(apiKey:, apiSecret:, baseUrl:) needs baseUrl: ' . self::WHERE_THE_URL_IS);
        }
        $shown = var_export($baseUrl, true);
        $parts = preg_match('/[\x00-\x20\x7f]/', $baseUrl) ? false : parse_url($baseUrl);
        $scheme = is_array($parts) ? strtolower($parts['scheme'] ?? '') : '';
        if (!is_array($parts) || !in_array($scheme, ['http', 'https'], true) || ($parts['host'] ?? '') === '') {
            throw new InvalidArgumentException("baseUrl must be an http(s) URL, got $shown: use " . self::WHERE_THE_URL_IS);
        }
        if (isset($parts['user']) || isset($parts['pass']) || isset($parts['query']) || isset($parts['fragment']) || strpbrk($baseUrl, '?#@') !== false) {
            throw new InvalidArgumentException('baseUrl must carry no credentials, query or fragment: ' . self::WHERE_THE_URL_IS);
        }
        $host = strtolower($parts['host']);
        if ($scheme === 'http' && !self::isLoopback($host)) {
            throw new InvalidArgumentException(
                "baseUrl http://$host is plain http, which would send your API key and secret in clear text: use https ("
                . self::WHERE_THE_URL_IS . '); http is accepted only for loopback (127.0.0.0/8, ::1, localhost)',
            );
        }
        $path = rtrim($parts['path'] ?? '', '/');
        // The routes carry /v1 themselves: accept a base URL given with or without it (ApiUrl has it).
        if (str_ends_with(strtolower($path), '/v1')) {
            $path = substr($path, 0, -3);
        }
        return "$scheme://$host" . (isset($parts['port']) ? ":{$parts['port']}" : '') . rtrim($path, '/');
    }

    private static function isLoopback(string $host): bool
    {
        if ($host === 'localhost' || $host === '[::1]') {
            return true;
        }
        if (!preg_match('/^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/', $host, $octets)) {
            return false;
        }
        return max((int) $octets[1], (int) $octets[2], (int) $octets[3]) <= 255;
    }

    /** @return array<string, mixed> what var_dump() and print_r() show: never the secret */
    public function __debugInfo(): array
    {
        return $this->requestor->__debugInfo();
    }

    public function __serialize(): array
    {
        throw new \LogicException('A CambioClient cannot be serialized (it holds credentials); make a new one where you need it');
    }
}
