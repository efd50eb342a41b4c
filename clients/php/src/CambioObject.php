<?php

declare(strict_types=1);

namespace Cambio;

use Cambio\Internal\Hydrate;

/**
 * Base of every record the API returns (src/Types/, generated from openapi.json): typed readonly
 * properties named as the API names them, plus the answer's JSON as received in toArray().
 */
abstract class CambioObject implements \JsonSerializable
{
    /** The record class each list of records holds, by field (the only thing PHP's types cannot say). */
    protected const LIST_OF = [];

    /** @var array<string, mixed> */
    private array $raw = [];

    /** @var array<class-string, \ReflectionClass<CambioObject>> read once per class */
    private static array $reflected = [];

    /**
     * Builds the record from the API's JSON (decoded as an array): each constructor parameter is read
     * by its name and declared type, so a generated class says its fields once. Fields the API adds
     * later are kept in toArray().
     *
     * @param array<string, mixed> $data
     * @throws \UnexpectedValueException when a field is missing or of another type
     */
    public static function fromArray(array $data): static
    {
        $class = self::$reflected[static::class] ??= new \ReflectionClass(static::class);
        $fields = new Hydrate($data, $class->getShortName());
        $values = [];
        foreach ($class->getConstructor()?->getParameters() ?? [] as $parameter) {
            $name = $parameter->getName();
            $values[$name] = $fields->typed($name, $parameter->getType(), static::LIST_OF[$name] ?? null);
        }
        return self::keep(new static(...$values), $data);
    }

    /**
     * @template T of CambioObject
     * @param T $object
     * @param array<string, mixed> $raw
     * @return T
     */
    protected static function keep(CambioObject $object, array $raw): CambioObject
    {
        $object->raw = $raw;
        return $object;
    }

    /** The record as the API sent it (decoded JSON), including any field added after this client was generated. @return array<string, mixed> */
    public function toArray(): array
    {
        return $this->raw;
    }

    /** @return array<string, mixed> */
    public function jsonSerialize(): array
    {
        return $this->raw;
    }
}
