<?php

declare(strict_types=1);

namespace Cambio;

use Cambio\Exception\WebhookVerificationException;

/**
 * Standard Webhooks verification (https://www.standardwebhooks.com/), usable without a client:
 * the signature is base64(HMAC-SHA256(key, "{webhook-id}.{webhook-timestamp}.{body}")) over the
 * exact bytes Cambio sent, the key being the base64-decoded part of the secret after `whsec_`.
 */
final class WebhookSignature
{
    /** How far webhook-timestamp may be from now, in seconds (replay protection). */
    public const DEFAULT_TOLERANCE = 300;

    private const RAW_BODY_HINT = 'Pass the raw request body exactly as received (plain PHP: file_get_contents(\'php://input\'); '
        . 'Laravel/Symfony: $request->getContent()), not a parsed array or object encoded again with json_encode().';

    private function __construct()
    {
    }

    /**
     * Returns the event when the delivery is authentic and fresh; throws WebhookVerificationException otherwise.
     *
     * @param mixed $rawBody the body exactly as received, a string (or a \Stringable such as a PSR-7 stream)
     * @param mixed $headers an array (getallheaders(), $request->headers->all(), $_SERVER) with names in any case
     *                       and string or list values, or an object with get() (Symfony HeaderBag), getHeaderLine() (PSR-7)
     *                       or a public $headers bag (a Symfony or Laravel Request)
     * @param string $secret the webhook's signing secret, `whsec_…`
     * @param int $tolerance seconds webhook-timestamp may be from now
     * @param int|\DateTimeInterface|null $now the current time (unix seconds or a date), for tests; default the clock
     */
    public static function verify(mixed $rawBody, mixed $headers, #[\SensitiveParameter] string $secret, int $tolerance = self::DEFAULT_TOLERANCE, int|\DateTimeInterface|null $now = null): WebhookEvent
    {
        if ($rawBody instanceof \Stringable) {
            $rawBody = (string) $rawBody;
        }
        if (!is_string($rawBody)) {
            throw new WebhookVerificationException('The body is ' . get_debug_type($rawBody) . ', not the raw request body: it was parsed (and would have to be re-serialised, which changes its bytes). ' . self::RAW_BODY_HINT);
        }
        if (!is_array($headers) && !is_object($headers)) {
            throw new WebhookVerificationException('The headers are ' . get_debug_type($headers) . '; pass getallheaders(), $request->headers->all() or the request\'s header bag');
        }
        $id = self::header($headers, 'webhook-id');
        $timestamp = self::header($headers, 'webhook-timestamp');
        $signatures = self::header($headers, 'webhook-signature');
        if ($id === null || $id === '' || $timestamp === null || $timestamp === '' || $signatures === null || $signatures === '') {
            throw new WebhookVerificationException('Missing webhook-id, webhook-timestamp or webhook-signature header: is this a Cambio delivery? (Pass all the request\'s headers.)');
        }
        if (!preg_match('/^\d{1,15}$/', $timestamp)) {
            throw new WebhookVerificationException('webhook-timestamp is not unix seconds');
        }
        $nowSeconds = match (true) {
            $now === null => time(),
            $now instanceof \DateTimeInterface => $now->getTimestamp(),
            default => $now,
        };
        $age = $nowSeconds - (int) $timestamp;
        if (abs($age) > $tolerance) {
            $when = $age > 0 ? "$age s old" : -$age . ' s in the future';
            throw new WebhookVerificationException("webhook-timestamp is $when, beyond the $tolerance s tolerance: a replayed or delayed delivery, or a wrong clock");
        }
        $key = self::signingKey($secret);
        $candidates = [];
        foreach (preg_split('/\s+/', trim($signatures)) ?: [] as $entry) {
            $entry = rtrim($entry, ','); // PSR-7 getHeaderLine() joins repeated headers with ", "
            if (str_starts_with($entry, 'v1,')) {
                $decoded = base64_decode(substr($entry, 3), true);
                if ($decoded !== false) {
                    $candidates[] = $decoded;
                }
            }
        }
        if ($candidates === []) {
            throw new WebhookVerificationException('webhook-signature holds no v1 signature ("v1,<base64>"): not a scheme Cambio signs with');
        }
        if (!self::anyMatches($candidates, self::sign($key, $id, $timestamp, $rawBody))) {
            throw new WebhookVerificationException('No signature matches. ' . self::diagnose($rawBody, $key, $id, $timestamp, $candidates));
        }
        try {
            $event = json_decode($rawBody, true, 512, JSON_THROW_ON_ERROR | JSON_BIGINT_AS_STRING);
        } catch (\JsonException) {
            throw new WebhookVerificationException('The signature matches but the body is not JSON');
        }
        if (!is_array($event) || !is_string($event['type'] ?? null)) {
            throw new WebhookVerificationException('The signature matches but the body is not a Cambio event (no `type`)');
        }
        return WebhookEvent::fromArray($event);
    }

    /** Case-insensitive, for arrays (getallheaders(), Laravel/Symfony all(), $_SERVER's HTTP_*) and header-bag objects. */
    private static function header(array|object $headers, string $name): ?string
    {
        if (is_object($headers)) {
            if (isset($headers->headers) && is_object($headers->headers) && method_exists($headers->headers, 'get')) {
                $headers = $headers->headers; // a Symfony/Laravel Request itself: its get() reads input, its headers are here
            }
            if (method_exists($headers, 'getHeaderLine')) { // PSR-7
                $value = $headers->getHeaderLine($name);
                return $value === '' ? null : $value;
            }
            if (method_exists($headers, 'get')) { // Symfony HeaderBag, Laravel's $request->headers
                $value = $headers->get($name);
                return is_string($value) ? $value : null;
            }
            if ($headers instanceof \Traversable) {
                $headers = iterator_to_array($headers);
            } else {
                return null;
            }
        }
        $server = 'HTTP_' . strtoupper(str_replace('-', '_', $name));
        foreach ($headers as $key => $value) {
            if (!is_string($key) || (strcasecmp($key, $name) !== 0 && $key !== $server)) {
                continue;
            }
            if (is_array($value)) {
                return implode(' ', array_map('strval', $value));
            }
            return is_scalar($value) ? (string) $value : null;
        }
        return null;
    }

    private static function signingKey(#[\SensitiveParameter] string $secret): string
    {
        if (!str_starts_with($secret, 'whsec_')) {
            throw new WebhookVerificationException('The secret must be the webhook\'s signing secret, "whsec_…", as webhooks->create() returned it');
        }
        $key = base64_decode(substr($secret, 6), true);
        if ($key === false || $key === '') {
            throw new WebhookVerificationException('The secret after "whsec_" is not base64: copy it whole, as webhooks->create() returned it');
        }
        return $key;
    }

    private static function sign(#[\SensitiveParameter] string $key, string $id, string $timestamp, string $body): string
    {
        return hash_hmac('sha256', "$id.$timestamp.$body", $key, true);
    }

    /** Constant-time comparison of every candidate (no early exit on the first match). @param list<string> $candidates */
    private static function anyMatches(array $candidates, string $expected): bool
    {
        $match = false;
        foreach ($candidates as $candidate) {
            $match = hash_equals($expected, $candidate) || $match;
        }
        return $match;
    }

    /** Names the usual mistake when the body looks parsed and serialised again. @param list<string> $candidates */
    private static function diagnose(string $body, #[\SensitiveParameter] string $key, string $id, string $timestamp, array $candidates): string
    {
        try {
            $parsed = json_decode($body, false, 512, JSON_THROW_ON_ERROR | JSON_BIGINT_AS_STRING);
        } catch (\JsonException) {
            return 'Check that the secret is this webhook\'s and that the body is unchanged. ' . self::RAW_BODY_HINT;
        }
        // Cambio sends compact JSON (as JavaScript's JSON.stringify writes it): if that form verifies, the body was re-serialised.
        $compact = json_encode($parsed, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_PRESERVE_ZERO_FRACTION);
        if (is_string($compact) && $compact !== $body && self::anyMatches($candidates, self::sign($key, $id, $timestamp, $compact))) {
            return 'The body was re-serialised: the signature matches the same JSON as Cambio sent it, not the bytes you passed. ' . self::RAW_BODY_HINT;
        }
        if (is_string($compact) && $compact !== $body && preg_match('/^\s*[\[{]\s*\n|\n\s+"/', $body)) {
            return 'The body looks like re-serialised JSON (re-indented), not the bytes Cambio signed. ' . self::RAW_BODY_HINT;
        }
        return 'The body is JSON: if your framework parsed it and you encoded it again, its bytes may differ from what Cambio signed '
            . '(key order, escapes such as \/ or \u00e9). ' . self::RAW_BODY_HINT . ' Otherwise check that the secret is this webhook\'s.';
    }
}
