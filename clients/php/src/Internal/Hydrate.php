<?php

declare(strict_types=1);

namespace Cambio\Internal;

/**
 * Reads one record's fields out of decoded JSON for the generated types, checking each type.
 * Unknown extra fields are ignored (the API may add fields); enum values are not checked (the
 * API may add values). A missing required field or a wrong type throws UnexpectedValueException,
 * which the client reports as an InvalidResponseException.
 *
 * @internal
 */
final class Hydrate
{
    /** @param array<string, mixed> $data */
    public function __construct(private readonly array $data, private readonly string $record)
    {
    }

    public function string(string $key): string
    {
        $value = $this->value($key);
        return is_string($value) ? $value : throw $this->wrong($key, 'a string', $value);
    }

    public function int(string $key): int
    {
        $value = $this->value($key);
        return is_int($value) ? $value : throw $this->wrong($key, 'an integer', $value);
    }

    public function number(string $key): int|float
    {
        $value = $this->value($key);
        return is_int($value) || is_float($value) ? $value : throw $this->wrong($key, 'a number', $value);
    }

    /**
     * A JSON number as its exact decimal string: Json::decode() gives one with a fraction as its
     * string already, an integer is written out, and a float (from an array decoded another way)
     * as its shortest exact form; null when nullable and null or absent.
     */
    public function decimal(string $key, ?\ReflectionType $type = null): ?string
    {
        if ($type?->allowsNull() && (!array_key_exists($key, $this->data) || $this->data[$key] === null)) {
            return null;
        }
        $value = $this->value($key);
        return match (true) {
            is_string($value) && Json::isNumber($value) => $value,
            is_int($value) => (string) $value,
            is_float($value) && is_finite($value) => json_encode($value, JSON_PRESERVE_ZERO_FRACTION | JSON_THROW_ON_ERROR),
            default => throw $this->wrong($key, 'a number', $value),
        };
    }

    public function bool(string $key): bool
    {
        $value = $this->value($key);
        return is_bool($value) ? $value : throw $this->wrong($key, 'a boolean', $value);
    }

    /** @return list<mixed> */
    public function list(string $key): array
    {
        $value = $this->value($key);
        return is_array($value) && array_is_list($value) ? $value : throw $this->wrong($key, 'a list', $value);
    }

    /**
     * @template T
     * @param callable(array<string, mixed>): T $make
     * @return list<T>
     */
    public function listOf(string $key, callable $make): array
    {
        $items = [];
        foreach ($this->list($key) as $index => $item) {
            $items[] = is_array($item) ? $make($item) : throw $this->wrong("{$key}[$index]", 'an object', $item);
        }
        return $items;
    }

    /**
     * @template T
     * @param callable(array<string, mixed>): T $make
     * @return T
     */
    public function object(string $key, callable $make): mixed
    {
        $value = $this->value($key);
        return is_array($value) && ($value === [] || !array_is_list($value)) ? $make($value) : throw $this->wrong($key, 'an object', $value);
    }

    /**
     * The field read as a record's property declares it: null when nullable and null or absent;
     * int|float a number; an array a list (of `$listOf` records when given); a CambioObject class a
     * nested record.
     *
     * @param class-string<\Cambio\CambioObject>|null $listOf
     */
    public function typed(string $key, ?\ReflectionType $type, ?string $listOf = null): mixed
    {
        if ($type === null) {
            return $this->value($key);
        }
        if ($type->allowsNull() && (!array_key_exists($key, $this->data) || $this->data[$key] === null)) {
            return null;
        }
        if ($type instanceof \ReflectionUnionType) {
            return $this->number($key);
        }
        $name = $type instanceof \ReflectionNamedType ? $type->getName() : 'mixed';
        return match ($name) {
            'string' => $this->string($key),
            'int' => $this->int($key),
            'float' => $this->number($key),
            'bool' => $this->bool($key),
            'array' => $listOf !== null ? $this->listOf($key, $listOf::fromArray(...)) : $this->list($key),
            'mixed' => $this->value($key),
            default => $this->object($key, $name::fromArray(...)),
        };
    }

    /** null when the field is null or absent, else the typed read `$method`. */
    public function nullable(string $method, string $key, mixed ...$args): mixed
    {
        if (!array_key_exists($key, $this->data) || $this->data[$key] === null) {
            return null;
        }
        return $this->$method($key, ...$args);
    }

    private function value(string $key): mixed
    {
        if (!array_key_exists($key, $this->data)) {
            throw new \UnexpectedValueException("{$this->record}.$key is missing from the answer");
        }
        return $this->data[$key];
    }

    private function wrong(string $key, string $expected, mixed $value): \UnexpectedValueException
    {
        return new \UnexpectedValueException("{$this->record}.$key should be $expected, got " . get_debug_type($value));
    }
}
