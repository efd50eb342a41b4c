<?php

declare(strict_types=1);

namespace Cambio;

/**
 * Base of every record the API returns (src/Types/, generated from openapi.json): typed readonly
 * properties named as the API names them, plus the answer's JSON as received in toArray().
 */
abstract class CambioObject implements \JsonSerializable
{
    /** @var array<string, mixed> */
    private array $raw = [];

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
