<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

use Cambio\CambioObject;
use Cambio\Internal\Hydrate;

/**
 * `components.schemas.Company` in openapi.json.
 */
final class Company extends CambioObject
{
    /** The API's field names, in its order. */
    public const FIELDS = ['id', 'name', 'environment', 'status', 'createdAt'];

    public function __construct(
        /** matches ^cmp_[0-9A-HJKMNP-TV-Z]{26}$ */
        public readonly string $id,
        public readonly string $name,
        /** one of "sandbox", "production" */
        public readonly string $environment,
        /** always "active" */
        public readonly string $status,
        /** ISO 8601 UTC time with milliseconds */
        public readonly string $createdAt,
    ) {
    }

    /**
     * Builds the record from the API's JSON (decoded as an array); fields the API adds later are kept in toArray().
     *
     * @param array<string, mixed> $data
     * @throws \UnexpectedValueException when a field is missing or of another type
     */
    public static function fromArray(array $data): self
    {
        $h = new Hydrate($data, 'Company');
        return self::keep(new self(
            id: $h->string('id'),
            name: $h->string('name'),
            environment: $h->string('environment'),
            status: $h->string('status'),
            createdAt: $h->string('createdAt'),
        ), $data);
    }
}
