<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

use Cambio\CambioObject;
use Cambio\Internal\Hydrate;

/**
 * `components.schemas.Conversion` in openapi.json.
 */
final class Conversion extends CambioObject
{
    /** The API's field names, in its order. */
    public const FIELDS = ['id', 'quoteId', 'reference', 'sourceCurrency', 'settlementCurrency', 'sourceAmount', 'settlementAmount', 'rate', 'status', 'createdAt', 'completedAt'];

    public function __construct(
        /** matches ^cnv_[0-9A-HJKMNP-TV-Z]{26}$ */
        public readonly string $id,
        /** matches ^qte_[0-9A-HJKMNP-TV-Z]{26}$ */
        public readonly string $quoteId,
        public readonly ?string $reference,
        /** always "USDT" */
        public readonly string $sourceCurrency,
        /** always "BRL" */
        public readonly string $settlementCurrency,
        /** USDT amount as a decimal string with all 6 decimals */
        public readonly string $sourceAmount,
        /** BRL amount as a decimal string with all 2 decimals */
        public readonly string $settlementAmount,
        /** BRL per USDT with 8 decimals, Cambio's spread included */
        public readonly string $rate,
        /** always "completed" */
        public readonly string $status,
        /** ISO 8601 UTC time with milliseconds */
        public readonly string $createdAt,
        /** ISO 8601 UTC time with milliseconds */
        public readonly string $completedAt,
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
        $h = new Hydrate($data, 'Conversion');
        return self::keep(new self(
            id: $h->string('id'),
            quoteId: $h->string('quoteId'),
            reference: $h->nullable('string', 'reference'),
            sourceCurrency: $h->string('sourceCurrency'),
            settlementCurrency: $h->string('settlementCurrency'),
            sourceAmount: $h->string('sourceAmount'),
            settlementAmount: $h->string('settlementAmount'),
            rate: $h->string('rate'),
            status: $h->string('status'),
            createdAt: $h->string('createdAt'),
            completedAt: $h->string('completedAt'),
        ), $data);
    }
}
