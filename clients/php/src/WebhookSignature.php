<?php

declare(strict_types=1);

namespace Cambio;

use Cambio\Exception\WebhookVerificationException;
use Cambio\Internal\Json;

/**
 * Standard Webhooks verification (https://www.standardwebhooks.com/), usable without a client, in
 * two steps as the reference libraries and Stripe's do it: first the signature and the timestamp,
 * then the body. The signature is base64(HMAC-SHA256(key, "{webhook-id}.{webhook-timestamp}.{body}"))
 * over the exact bytes Cambio sent, the key being the secret's base64 (after an optional `whsec_`,
 * padded or not). A body that verifies is never reported as a bad signature, whatever it holds.
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
     * Verifies the delivery (verifySignature()), then returns its event. A verified body that is
     * not a Cambio event (not JSON, or without id, type and data) is returned too, with `type`
     * null (isCambioEvent() false, `id` the webhook-id header), never refused as a bad signature.
     *
     * @param mixed $rawBody the body exactly as received, a string (or a \Stringable such as a PSR-7 stream)
     * @param mixed $headers an array (getallheaders(), $request->headers->all(), $_SERVER) with names in any case
     *                       and string or list values, or an object with get() (Symfony HeaderBag), getHeaderLine() (PSR-7)
     *                       or a public $headers bag (a Symfony or Laravel Request)
     * @param string $secret the webhook's signing secret, `whsec_…`, or its raw base64 key (padded or not)
     * @param int $tolerance seconds webhook-timestamp may be from now, either way
     * @param int|\DateTimeInterface|null $now the current time (unix seconds or a date), for tests; default the clock
     * @throws WebhookVerificationException saying what failed, when not signed with $secret or not fresh
     */
    public static function verify(mixed $rawBody, mixed $headers, #[\SensitiveParameter] string $secret, int $tolerance = self::DEFAULT_TOLERANCE, int|\DateTimeInterface|null $now = null): WebhookEvent
    {
        [$body, $id] = self::signedDelivery($rawBody, $headers, $secret, $tolerance, $now);
        try {
            $event = Json::decode($body);
        } catch (\JsonException) {
            return WebhookEvent::unknown($id);
        }
        $data = is_array($event) ? $event['data'] ?? null : null;
        // An object `data` ({} decodes to [] as well): a JSON array there is not a record.
        $isEvent = is_string($event['id'] ?? null) && is_string($event['type'] ?? null) && is_array($data) && ($data === [] || !array_is_list($data));
        return $isEvent ? WebhookEvent::fromArray($event) : WebhookEvent::unknown($id);
    }

    /**
     * The first step of verify() alone: throws unless the delivery is signed with $secret and fresh; the body is not read.
     *
     * @throws WebhookVerificationException saying what failed
     */
    public static function verifySignature(mixed $rawBody, mixed $headers, #[\SensitiveParameter] string $secret, int $tolerance = self::DEFAULT_TOLERANCE, int|\DateTimeInterface|null $now = null): void
    {
        self::signedDelivery($rawBody, $headers, $secret, $tolerance, $now);
    }

    /** @return array{0: string, 1: string} the body and the webhook-id of a delivery signed with $secret and fresh */
    private static function signedDelivery(mixed $rawBody, mixed $headers, #[\SensitiveParameter] string $secret, int $tolerance, int|\DateTimeInterface|null $now): array
    {
        $key = self::signingKey($secret);
        if ($rawBody instanceof \Stringable) {
            $rawBody = (string) $rawBody;
        }
        if (!is_string($rawBody)) {
            throw new WebhookVerificationException('The body is ' . get_debug_type($rawBody) . ', not the raw request body: it was parsed (and would have to be re-serialised, which changes its bytes). ' . self::RAW_BODY_HINT);
        }
        if (!is_array($headers) && !is_object($headers)) {
            throw new WebhookVerificationException('The headers are ' . get_debug_type($headers) . '; pass getallheaders(), $request->headers->all() or the request\'s header bag');
        }
        $found = [];
        foreach (['webhook-id', 'webhook-timestamp', 'webhook-signature'] as $name) {
            $found[$name] = self::header($headers, $name);
        }
        $missing = array_keys(array_filter($found, fn (?string $value) => $value === null || $value === ''));
        if ($missing !== []) {
            throw new WebhookVerificationException('Missing ' . implode(', ', $missing) . ' header: is this a Cambio delivery? (Pass all the request\'s headers.)');
        }
        ['webhook-id' => $id, 'webhook-timestamp' => $timestamp, 'webhook-signature' => $signatures] = $found;
        if (!preg_match('/^\d{1,15}$/', $timestamp)) {
            throw new WebhookVerificationException('webhook-timestamp is not unix seconds: ' . json_encode(substr($timestamp, 0, 40)));
        }
        self::checkFreshness((int) $timestamp, $tolerance, $now);
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
        if (!self::anyMatches($candidates, self::sign($key, $id, $timestamp, $rawBody))) {
            throw new WebhookVerificationException('No matching signature: ' . self::diagnose($rawBody, $key, $id, $timestamp, $candidates));
        }
        return [$rawBody, $id];
    }

    private static function checkFreshness(int $seconds, int $tolerance, int|\DateTimeInterface|null $now): void
    {
        $nowSeconds = match (true) {
            $now === null => time(),
            $now instanceof \DateTimeInterface => $now->getTimestamp(),
            default => $now,
        };
        $age = $nowSeconds - $seconds;
        $beyond = "beyond the $tolerance s tolerance (a replayed or delayed delivery, or a wrong clock)";
        if ($age > $tolerance) {
            throw new WebhookVerificationException("webhook-timestamp is too old: $age s before now, $beyond");
        }
        if (-$age > $tolerance) {
            throw new WebhookVerificationException('webhook-timestamp is in the future: ' . -$age . " s after now, $beyond");
        }
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

    /** The secret's base64 after an optional `whsec_`, padding optional (as the reference libraries take it). */
    private static function signingKey(#[\SensitiveParameter] string $secret): string
    {
        // A secret read from an env file or pasted keeps a newline or spaces around it: trimmed
        // first, then the prefix comes off (as the other clients do).
        $trimmed = trim($secret);
        $encoded = rtrim(str_starts_with($trimmed, 'whsec_') ? substr($trimmed, 6) : $trimmed, '=');
        if ($encoded === '') {
            throw new WebhookVerificationException('The secret is empty: pass the webhook\'s signing secret, "whsec_…", as webhooks->create() returned it');
        }
        $key = base64_decode($encoded . str_repeat('=', (4 - strlen($encoded) % 4) % 4), true);
        if ($key === false || $key === '') {
            throw new WebhookVerificationException('The secret is not base64 after "whsec_": copy it whole, as webhooks->create() returned it');
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

    /**
     * Why no signature matched, as far as it can be known: the mistakes that leave a mark are named, anything else is not guessed at.
     *
     * @param list<string> $candidates
     */
    private static function diagnose(string $body, #[\SensitiveParameter] string $key, string $id, string $timestamp, array $candidates): string
    {
        if ($candidates === []) {
            return 'webhook-signature holds no v1 signature ("v1,<base64>"), the only scheme Cambio signs with.';
        }
        try {
            // Decoded as an app that re-serialised the body would have (plain json_decode), not exactly.
            $parsed = json_decode($body, false, 512, JSON_THROW_ON_ERROR | JSON_BIGINT_AS_STRING);
            // Cambio sends compact JSON (as JavaScript's JSON.stringify writes it): if that form verifies, the body was re-serialised.
            $compact = json_encode($parsed, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_PRESERVE_ZERO_FRACTION);
        } catch (\JsonException) {
            $compact = $body;
        }
        if (is_string($compact) && $compact !== $body && self::anyMatches($candidates, self::sign($key, $id, $timestamp, $compact))) {
            return 'the body was re-serialised: the signature matches the same JSON as Cambio sent it, not the bytes you passed. ' . self::RAW_BODY_HINT;
        }
        return 'the secret is not this webhook\'s, or the body or webhook-id is not what was signed. ' . self::RAW_BODY_HINT;
    }
}
