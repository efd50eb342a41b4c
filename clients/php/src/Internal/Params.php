<?php

declare(strict_types=1);

namespace Cambio\Internal;

use Cambio\Exception\InvalidArgumentException;

/**
 * Params arrays to JSON. Money is a decimal string: a float in a money field is refused (a float
 * cannot hold 0.1 exactly), an int is sent as its decimal string, and any \Stringable (e.g. a
 * Brick\Math\BigDecimal) as its string.
 *
 * @internal
 */
final class Params
{
    /**
     * @param array<string, mixed> $params
     * @param list<string> $money money fields, dot for nested (the generated request classes' MONEY)
     * @return array<string, mixed>
     */
    public static function prepare(array $params, array $money, string $call): array
    {
        if ($params !== [] && array_is_list($params)) {
            throw new InvalidArgumentException("$call takes an array keyed by the API's field names, e.g. ['reference' => 'order-1']");
        }
        foreach ($money as $path) {
            $keys = explode('.', $path);
            $params = self::moneyAt($params, $keys, $path, $call);
        }
        return $params;
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
            $params[$key] = (string) $value;
        }
        return $params;
    }

    /** @param array<string, mixed> $body */
    public static function encode(array $body): string
    {
        try {
            return $body === [] ? '{}' : json_encode(self::stringables($body), JSON_THROW_ON_ERROR | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_PRESERVE_ZERO_FRACTION);
        } catch (\JsonException $e) {
            throw new InvalidArgumentException('The params cannot be sent as JSON: ' . $e->getMessage(), 0, $e);
        }
    }

    private static function stringables(mixed $value): mixed
    {
        if (is_array($value)) {
            return array_map(self::stringables(...), $value);
        }
        if ($value instanceof \Stringable && !$value instanceof \JsonSerializable) {
            return (string) $value;
        }
        return $value;
    }
}
