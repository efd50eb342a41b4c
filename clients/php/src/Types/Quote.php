<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

use Cambio\CambioObject;
use Cambio\Internal\Hydrate;

/**
 * `components.schemas.Quote` in openapi.json.
 */
final class Quote extends CambioObject
{
    /** The API's field names, in its order. */
    public const FIELDS = ['id', 'sourceCurrency', 'settlementCurrency', 'sourceAmount', 'settlementAmount', 'rate', 'expiresAt', 'createdAt'];

    public function __construct(
        /** matches ^qte_[0-9A-HJKMNP-TV-Z]{26}$ */
        public readonly string $id,
        /** always "USDT" */
        public readonly string $sourceCurrency,
        /** always "BRL" */
        public readonly string $settlementCurrency,
        /** USDT amount as a decimal string with all 6 decimals */
        public readonly string $sourceAmount,
        /** sourceAmount × rate, rounded down to the cent */
        public readonly string $settlementAmount,
        /** BRL per USDT with 8 decimals, Cambio's spread included */
        public readonly string $rate,
        /** ISO 8601 UTC time with milliseconds */
        public readonly string $expiresAt,
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
        $h = new Hydrate($data, 'Quote');
        return self::keep(new self(
            id: $h->string('id'),
            sourceCurrency: $h->string('sourceCurrency'),
            settlementCurrency: $h->string('settlementCurrency'),
            sourceAmount: $h->string('sourceAmount'),
            settlementAmount: $h->string('settlementAmount'),
            rate: $h->string('rate'),
            expiresAt: $h->string('expiresAt'),
            createdAt: $h->string('createdAt'),
        ), $data);
    }
}
