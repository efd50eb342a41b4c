<?php

declare(strict_types=1);

namespace Cambio\Internal;

use Cambio\Exception\InvalidArgumentException;

/**
 * Params arrays to JSON. Money is a decimal string: a float in a money field is refused (a float
 * cannot hold 0.1 exactly), an int is sent as its decimal string, and any \Stringable (e.g. a
 * Brick\Math\BigDecimal) as its string; a decimal string goes without the trailing zeros of its
 * fraction. A number field (a split's percent) takes an int, a float or a decimal string (or
 * \Stringable), the last sent as a JSON number of exactly its digits.
 *
 * @internal
 */
final class Params
{
    /**
     * @param array<string, mixed> $params
     * @param list<string> $money money fields, dot for nested (the generated request classes' MONEY)
     * @param list<string> $numbers number fields, dot for nested (their NUMBERS)
     * @return array<string, mixed>
     */
    public static function prepare(array $params, array $money, string $call, array $numbers = []): array
    {
        if ($params !== [] && array_is_list($params)) {
            throw new InvalidArgumentException("$call takes an array keyed by the API's field names, e.g. ['reference' => 'order-1']");
        }
        foreach ($money as $path) {
            $keys = explode('.', $path);
            $params = self::moneyAt($params, $keys, $path, $call);
        }
        foreach ($numbers as $path) {
            $params = self::at($params, explode('.', $path), static fn (mixed $value): mixed => self::number($value, $path, $call));
        }
        return $params;
    }

    /**
     * $params with the value at $keys (when there) replaced by $change($value).
     *
     * @param array<string, mixed> $params
     * @param list<string> $keys
     * @param callable(mixed): mixed $change
     * @return array<string, mixed>
     */
    private static function at(array $params, array $keys, callable $change): array
    {
        $key = array_shift($keys);
        if (!array_key_exists($key, $params) || $params[$key] === null) {
            return $params;
        }
        if ($keys === []) {
            $params[$key] = $change($params[$key]);
        } elseif (is_array($params[$key])) {
            $params[$key] = self::at($params[$key], $keys, $change);
        }
        return $params;
    }

    /** An int or a float as it is; a decimal string (or \Stringable) as a JSON number of exactly its digits. */
    private static function number(mixed $value, string $path, string $call): mixed
    {
        if (is_int($value) || is_float($value)) {
            return $value;
        }
        $text = $value instanceof \Stringable ? (string) $value : $value;
        if (is_string($text) && Json::isNumber($text)) {
            return new JsonNumber($text);
        }
        throw new InvalidArgumentException("$call: `$path` must be a number, as an int, a float or a decimal string such as '12.5'");
    }

    /** @param array<string, mixed> $params @param list<string> $keys */
    private static function moneyAt(array $params, array $keys, string $path, string $call): array
    {
        $key = array_shift($keys);
        if (!array_key_exists($key, $params)) {
            return $params;
        }
        if ($keys !== []) {
            if (is_array($params[$key])) {
                $params[$key] = self::moneyAt($params[$key], $keys, $path, $call);
            }
            return $params;
        }
        $value = $params[$key];
        if (is_float($value)) {
            throw new InvalidArgumentException("$call: `$path` is a float; money is a decimal string such as '25.50' (a float cannot hold every amount exactly)");
        }
        if (is_int($value)) {
            $params[$key] = (string) $value;
        } elseif ($value instanceof \Stringable) {
            $params[$key] = self::withoutTrailingZeros((string) $value);
        } elseif (is_string($value)) {
            $params[$key] = self::withoutTrailingZeros($value);
        }
        return $params;
    }

    /**
     * A decimal string without the trailing zeros of its fraction ('12.50000000' → '12.5', '10.00'
     * → '10'): the API counts them against its decimal places, and a BigDecimal of scale 8 or
     * bcmul(…, 8) has them. Only zeros go, never a digit (no rounding); anything that is not a
     * plain decimal string is sent as it is, for the API to refuse.
     */
    private static function withoutTrailingZeros(string $amount): string
    {
        return preg_match('/^-?\d+\.\d+$/D', $amount) ? rtrim(rtrim($amount, '0'), '.') : $amount;
    }

    /** @param array<string, mixed> $body */
    public static function encode(array $body): string
    {
        // json_encode() cannot write a number from its digits: each JsonNumber goes in as a
        // placeholder string unique to this call, which is then replaced by the digits.
        $numbers = [];
        $nonce = bin2hex(random_bytes(8));
        try {
            $json = $body === [] ? '{}' : json_encode(self::stringables($body, $numbers, $nonce), JSON_THROW_ON_ERROR | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_PRESERVE_ZERO_FRACTION);
        } catch (\JsonException $e) {
            throw new InvalidArgumentException('The params cannot be sent as JSON: ' . $e->getMessage(), 0, $e);
        }
        return strtr($json, $numbers);
    }

    /** @param array<string, string> $numbers placeholder (quoted) => digits, filled here */
    private static function stringables(mixed $value, array &$numbers, string $nonce): mixed
    {
        if (is_array($value)) {
            foreach ($value as $key => $item) {
                $value[$key] = self::stringables($item, $numbers, $nonce);
            }
            return $value;
        }
        if ($value instanceof JsonNumber) {
            $placeholder = "cambio-number-$nonce-" . count($numbers);
            $numbers["\"$placeholder\""] = $value->digits;
            return $placeholder;
        }
        if ($value instanceof \Stringable && !$value instanceof \JsonSerializable) {
            return (string) $value;
        }
        return $value;
    }
}
