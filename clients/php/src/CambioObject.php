<?php

declare(strict_types=1);

namespace Cambio;

use Cambio\Internal\Decimal;
use Cambio\Internal\Hidden;
use Cambio\Internal\Hydrate;
use Cambio\Internal\ListOf;

/**
 * Base of every record the API returns (src/Types/, generated from openapi.json): typed readonly
 * properties named as the API names them, plus the answer's JSON as received in toArray().
 */
abstract class CambioObject implements \JsonSerializable
{
    /** @var array<string, mixed> */
    private array $raw = [];

    /** @var array<class-string, list<array{\ReflectionProperty, ?class-string<CambioObject>, bool, bool}>> read once per class */
    private static array $fields = [];

    /** A record is built by fromArray(), from the API's JSON. */
    protected function __construct()
    {
    }

    /**
     * Builds the record from the API's JSON (decoded as an array): each public property is read by
     * its name and declared type (a parent record's first, e.g. Webhook's in CreatedWebhook), so a
     * generated class says its fields once. Fields the API adds later are kept in toArray().
     *
     * @param array<string, mixed> $data
     * @throws \UnexpectedValueException when a field is missing or of another type
     */
    public static function fromArray(array $data): static
    {
        $read = new Hydrate($data, (new \ReflectionClass(static::class))->getShortName());
        $record = new static();
        foreach (self::$fields[static::class] ??= self::fields(static::class) as [$property, $listOf, $decimal]) {
            $property->setValue($record, $decimal ? $read->decimal($property->getName(), $property->getType()) : $read->typed($property->getName(), $property->getType(), $listOf));
        }
        return self::keep($record, $data);
    }

    /**
     * The public properties of a record class and of its parent records, each reflected from the
     * class that declares it (the scope that may initialise a readonly property), with the record
     * class of its list items when it is a list of records, whether it is a #[Decimal] (a JSON
     * number read as its decimal string) and whether it is #[Hidden] (a secret).
     *
     * @param class-string<CambioObject> $class
     * @return list<array{\ReflectionProperty, ?class-string<CambioObject>, bool, bool}>
     */
    private static function fields(string $class): array
    {
        $parent = get_parent_class($class);
        $fields = $parent === false || $parent === self::class ? [] : self::fields($parent);
        foreach ((new \ReflectionClass($class))->getProperties(\ReflectionProperty::IS_PUBLIC) as $property) {
            if ($property->class === $class && !$property->isStatic()) {
                $listOf = $property->getAttributes(ListOf::class)[0] ?? null;
                $fields[] = [$property, $listOf?->newInstance()->class, $property->getAttributes(Decimal::class) !== [], $property->getAttributes(Hidden::class) !== []];
            }
        }
        return $fields;
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

    /**
     * What print_r() and var_dump() show: the fields, a secret (CreatedWebhook::$secret) as
     * `[hidden]`, then any field the API added after this client was generated.
     *
     * @return array<string, mixed>
     */
    public function __debugInfo(): array
    {
        $shown = [];
        foreach (self::$fields[static::class] ??= self::fields(static::class) as [$property, , , $hidden]) {
            $shown[$property->getName()] = $hidden ? '[hidden]' : ($property->isInitialized($this) ? $property->getValue($this) : null);
        }
        return $shown + $this->raw;
    }
}
