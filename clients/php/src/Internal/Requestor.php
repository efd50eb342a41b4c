<?php

declare(strict_types=1);

namespace Cambio\Internal;

use Cambio\CambioClient;
use Cambio\Exception\ApiServerException;
use Cambio\Exception\CambioException;
use Cambio\Exception\ConflictException;
use Cambio\Exception\ConnectionException;
use Cambio\Exception\InvalidArgumentException;
use Cambio\Exception\InvalidResponseException;
use Cambio\Exception\NotFoundException;
use Cambio\Exception\RateLimitException;

/**
 * Sends one call with cURL: headers, JSON, the Idempotency-Key of a POST (the same on every
 * retry), retries with jittered exponential backoff or Retry-After, and the envelope turned into
 * data or an exception.
 *
 * @internal
 */
final class Requestor
{
    /** Per-request options (the trailing `array $opts` of every call). */
    public const OPTIONS = ['idempotency_key', 'max_retries', 'timeout'];

    private ?\CurlHandle $curl = null;

    public function __construct(
        public readonly string $baseUrl,
        private readonly Credentials $credentials,
        public readonly int $maxRetries,
        public readonly float $timeout,
        public readonly float $initialRetryDelay,
        public readonly float $maxRetryDelay,
        public readonly float $maxRetryAfter,
    ) {
    }

    /**
     * @param array<string, mixed>|null $query
     * @param array<string, mixed>|null $body
     * @param array<string, mixed> $opts
     * @param array<string, mixed>|null $goneIsDone for a DELETE: the data to answer when a retry gets
     *        404 NotFound after a try that may have reached the API (a timeout or a lost connection once
     *        connected, a 5xx): that try deleted it and its answer was lost. A 404 to the first try, or
     *        after only 429s and tries that never connected (refused, DNS, connect timeout), stays NotFound.
     */
    public function request(string $method, string $path, ?array $query = null, ?array $body = null, array $opts = [], ?array $goneIsDone = null): Answer
    {
        $opts = self::checkOptions($opts);
        $url = $this->baseUrl . $path;
        if ($query) {
            $url .= '?' . http_build_query($query, '', '&', PHP_QUERY_RFC3986);
        }
        $headers = [
            'Accept: application/json',
            'User-Agent: ' . self::userAgent(),
            'Expect:',
        ];
        $payload = null;
        if ($body !== null) {
            $payload = Params::encode($body);
            $headers[] = 'Content-Type: application/json';
        }
        if ($method === 'POST') {
            // One key per call, kept across its retries: the API replays the first answer instead
            // of doing the work again (api-contract.md, Conventions: Idempotency-Key).
            $headers[] = 'Idempotency-Key: ' . ($opts['idempotency_key'] ?? self::uuid4());
        }
        $maxRetries = $opts['max_retries'] ?? $this->maxRetries;
        $timeout = $opts['timeout'] ?? $this->timeout;
        $where = "$method " . strtok($url, '?');

        $mayHaveBeenDone = false; // an earlier try may have done the work (its answer lost, or a 5xx)
        for ($attempt = 0; ; $attempt++) {
            $response = $this->send($method, $url, $headers, $payload, $timeout);
            if ($response instanceof ConnectionException) {
                $error = $response;
                $retryAfter = null;
                $thisTryMayHaveDoneIt = $this->lastTrySentItsRequest();
            } else {
                [$status, $responseHeaders, $text] = $response;
                $requestId = $responseHeaders['x-request-id'] ?? null;
                $json = self::decode($text);
                if ($status >= 200 && $status < 300 && is_array($json) && ($json['success'] ?? null) === true && array_key_exists('data', $json)) {
                    $cursor = $json['pagination']['nextCursor'] ?? null;
                    return new Answer($json['data'], is_string($cursor) && $cursor !== '' ? $cursor : null, $requestId, $status, ($responseHeaders['idempotent-replayed'] ?? '') === 'true');
                }
                $error = ErrorFactory::fromResponse($status, $json, $requestId, $responseHeaders['content-type'] ?? '', $where);
                if ($goneIsDone !== null && $mayHaveBeenDone && $error instanceof NotFoundException) {
                    return new Answer($goneIsDone, null, $requestId, $status, false);
                }
                $retryAfter = $this->retryAfter($responseHeaders['retry-after'] ?? null);
                $thisTryMayHaveDoneIt = $error instanceof ApiServerException; // a 429 did nothing
            }
            if ($attempt >= $maxRetries || !self::retryable($error)) {
                throw $error;
            }
            $mayHaveBeenDone = $mayHaveBeenDone || $thisTryMayHaveDoneIt;
            $delay = $retryAfter ?? $this->backoff($attempt);
            if ($delay > 0) {
                usleep((int) round($delay * 1_000_000));
            }
        }
    }

    /** Network errors and timeouts, 429, 5xx, and 409 IDEMPOTENCY_KEY_IN_USE (the first try is still running). */
    public static function retryable(CambioException $error): bool
    {
        return $error instanceof ConnectionException
            || $error instanceof RateLimitException
            || $error instanceof ApiServerException
            || ($error instanceof ConflictException && $error->getCambioCode() === 'IDEMPOTENCY_KEY_IN_USE');
    }

    /** Before retry $attempt (0-based): a random delay between half and all of min(maxRetryDelay, initialRetryDelay × 2^attempt), in seconds. */
    public function backoff(int $attempt): float
    {
        $ceiling = min($this->maxRetryDelay, $this->initialRetryDelay * (2 ** $attempt));
        return $ceiling / 2 + (random_int(0, 1_000_000) / 1_000_000) * ($ceiling / 2);
    }

    /** Seconds to wait from a Retry-After header (delta-seconds or an HTTP date), when at most maxRetryAfter; else null. */
    public function retryAfter(?string $value, ?int $now = null): ?float
    {
        if ($value === null || ($value = trim($value)) === '') {
            return null;
        }
        if (preg_match('/^\d+$/', $value)) {
            $seconds = (float) $value;
        } else {
            $time = strtotime($value);
            if ($time === false || !preg_match('/[A-Za-z]{3}/', $value)) {
                return null;
            }
            $seconds = (float) max(0, $time - ($now ?? time()));
        }
        return $seconds <= $this->maxRetryAfter ? $seconds : null;
    }

    public static function userAgent(): string
    {
        return 'cambio-php/' . CambioClient::VERSION . ' php/' . PHP_VERSION;
    }

    /** A random (version 4) UUID. */
    public static function uuid4(): string
    {
        $bytes = random_bytes(16);
        $bytes[6] = chr((ord($bytes[6]) & 0x0f) | 0x40);
        $bytes[8] = chr((ord($bytes[8]) & 0x3f) | 0x80);
        return vsprintf('%s%s-%s-%s-%s-%s%s%s', str_split(bin2hex($bytes), 4));
    }

    /**
     * @param array<string, mixed> $opts
     * @return array{idempotency_key?: string, max_retries?: int, timeout?: float}
     */
    public static function checkOptions(array $opts): array
    {
        foreach ($opts as $key => $value) {
            if (!in_array($key, self::OPTIONS, true)) {
                throw new InvalidArgumentException('Unknown request option ' . var_export($key, true) . '; the options are ' . implode(', ', self::OPTIONS) . ' (e.g. [\'idempotency_key\' => \'order-1-payout\'])');
            }
        }
        if (array_key_exists('idempotency_key', $opts)) {
            $key = $opts['idempotency_key'];
            if (!is_string($key) || !preg_match('/^[\x21-\x7e][\x20-\x7e]{0,254}$/', $key) || $key !== trim($key)) {
                throw new InvalidArgumentException('idempotency_key must be 1–255 printable ASCII characters, without leading or trailing spaces');
            }
        }
        if (array_key_exists('max_retries', $opts) && (!is_int($opts['max_retries']) || $opts['max_retries'] < 0)) {
            throw new InvalidArgumentException('max_retries must be an integer ≥ 0');
        }
        if (array_key_exists('timeout', $opts)) {
            if ((!is_int($opts['timeout']) && !is_float($opts['timeout'])) || $opts['timeout'] <= 0) {
                throw new InvalidArgumentException('timeout must be a number of seconds > 0');
            }
            $opts['timeout'] = (float) $opts['timeout'];
        }
        return $opts;
    }

    /**
     * One try. @param list<string> $headers
     * @return array{0: int, 1: array<string, string>, 2: string}|ConnectionException
     */
    private function send(string $method, string $url, array $headers, ?string $payload, float $timeout): array|ConnectionException
    {
        if ($this->curl === null) {
            $this->curl = curl_init();
        } else {
            curl_reset($this->curl);
        }
        $responseHeaders = [];
        $timeoutMs = max(1, (int) ceil($timeout * 1000));
        curl_setopt_array($this->curl, [
            CURLOPT_URL => $url,
            CURLOPT_CUSTOMREQUEST => $method,
            // The credentials are added here, not passed in: no argument in any stack trace carries the secret.
            CURLOPT_HTTPHEADER => [...$headers, 'X-Api-Key: ' . $this->credentials->apiKey, 'X-Api-Secret: ' . $this->credentials->secret()],
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_FOLLOWLOCATION => false,
            CURLOPT_PROTOCOLS => CURLPROTO_HTTP | CURLPROTO_HTTPS,
            CURLOPT_TIMEOUT_MS => $timeoutMs,
            CURLOPT_CONNECTTIMEOUT_MS => $timeoutMs,
            CURLOPT_NOSIGNAL => true,
            CURLOPT_ENCODING => '',
            CURLOPT_HEADERFUNCTION => static function ($curl, string $line) use (&$responseHeaders): int {
                if (str_starts_with($line, 'HTTP/')) {
                    $responseHeaders = []; // a 100 Continue or a redirect's headers: keep only the last answer's
                } elseif (str_contains($line, ':')) {
                    [$name, $value] = explode(':', $line, 2);
                    $responseHeaders[strtolower(trim($name))] = trim($value);
                }
                return strlen($line);
            },
        ]);
        if ($payload !== null) {
            curl_setopt($this->curl, CURLOPT_POSTFIELDS, $payload);
        }
        $text = curl_exec($this->curl);
        if ($text === false) {
            $errno = curl_errno($this->curl);
            $message = curl_error($this->curl);
            $where = "$method " . strtok($url, '?');
            return $errno === CURLE_OPERATION_TIMEDOUT
                ? new ConnectionException("No answer within {$timeout} s ($where): $message", 'TIMEOUT')
                : new ConnectionException("Could not reach Cambio ($where): $message", 'CONNECTION_FAILED');
        }
        return [(int) curl_getinfo($this->curl, CURLINFO_RESPONSE_CODE), $responseHeaders, (string) $text];
    }

    /**
     * Whether the last try got as far as writing its request, so that the API may have done the
     * work: a refused connection, a name that did not resolve, a connect or TLS handshake that
     * failed or timed out sent nothing. libcurl sets the pre-transfer time once the connection
     * (TLS included) is up, just before the request goes out, and leaves it 0 when it never was.
     */
    private function lastTrySentItsRequest(): bool
    {
        return $this->curl !== null && curl_getinfo($this->curl, CURLINFO_PRETRANSFER_TIME_T) > 0;
    }

    private static function decode(string $text): mixed
    {
        if ($text === '') {
            return null;
        }
        try {
            return Json::decode($text);
        } catch (\JsonException) {
            return null;
        }
    }

    /**
     * Turns an answer's data into a record, reporting a record without the promised fields as an
     * InvalidResponseException.
     *
     * @template T
     * @param callable(array<string, mixed>): T $make
     * @return T
     */
    public static function hydrate(Answer $answer, callable $make): mixed
    {
        if (!is_array($answer->data)) {
            throw new InvalidResponseException('The answer\'s data is ' . get_debug_type($answer->data) . ', not a record', $answer->status, $answer->requestId);
        }
        try {
            return $make($answer->data);
        } catch (\UnexpectedValueException|\TypeError $e) {
            throw new InvalidResponseException('The answer does not have the fields openapi.json promises: ' . $e->getMessage(), $answer->status, $answer->requestId, $e);
        }
    }

    /** @return array<string, mixed> */
    public function __debugInfo(): array
    {
        return ['baseUrl' => $this->baseUrl, 'credentials' => $this->credentials, 'maxRetries' => $this->maxRetries, 'timeout' => $this->timeout];
    }

    public function __serialize(): array
    {
        throw new \LogicException('A Cambio client cannot be serialized (it holds credentials); make a new CambioClient where you need one');
    }
}
