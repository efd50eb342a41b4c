<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

use Cambio\CambioObject;
use Cambio\Internal\Hydrate;

/**
 * `components.schemas.Balance` in openapi.json.
 */
final class Balance extends CambioObject
{
    /** The API's field names, in its order. */
    public const FIELDS = ['balances', 'updatedAt'];

    public function __construct(
        /** @var list<CurrencyBalance> */
        public readonly array $balances,
        /** ISO 8601 UTC time with milliseconds */
        public readonly string $updatedAt,
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
        $h = new Hydrate($data, 'Balance');
        return self::keep(new self(
            balances: $h->listOf('balances', CurrencyBalance::fromArray(...)),
            updatedAt: $h->string('updatedAt'),
        ), $data);
    }
}
