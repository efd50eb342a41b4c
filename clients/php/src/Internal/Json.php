<?php

declare(strict_types=1);

namespace Cambio\Internal;

/**
 * The API's JSON decoded with every number exact: a number with a fraction or an exponent (a
 * deposit split's `percent`) as its decimal string, exactly as written ('12.50'), never a float;
 * an integer beyond PHP_INT_MAX as its string too (JSON_BIGINT_AS_STRING).
 *
 * @internal
 */
final class Json
{
    /** A JSON string (skipped whole, so digits inside it stay) or a JSON number. */
    private const TOKEN = '/"(?:[^"\\\\]++|\\\\.)*+"|-?\d++(?:\.\d++)?(?:[eE][+-]?\d++)?/';

    private const FLAGS = JSON_THROW_ON_ERROR | JSON_BIGINT_AS_STRING;

    /** @throws \JsonException when $text is not JSON */
    public static function decode(string $text): mixed
    {
        // Checked as it is first: quoting numbers must not turn a malformed body into a valid one.
        json_decode($text, false, 512, self::FLAGS);
        $exact = preg_replace_callback(
            self::TOKEN,
            static fn (array $m): string => $m[0][0] !== '"' && strpbrk($m[0], '.eE') !== false ? '"' . $m[0] . '"' : $m[0],
            $text,
        );
        if (!is_string($exact)) {
            throw new \JsonException('The JSON could not be read with exact numbers: ' . preg_last_error_msg());
        }
        return json_decode($exact, true, 512, self::FLAGS);
    }

    /** Whether $text is a JSON number (-12.5, 10, 1.5e1). */
    public static function isNumber(string $text): bool
    {
        return preg_match('/^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/D', $text) === 1;
    }
}
