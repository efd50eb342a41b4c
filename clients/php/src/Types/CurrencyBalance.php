<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

use Cambio\CambioObject;
use Cambio\Internal\Hydrate;

/**
 * `components.schemas.Balance.balances[]` in openapi.json.
 */
final class CurrencyBalance extends CambioObject
{
    /** The API's field names, in its order. */
    public const FIELDS = ['currency', 'available', 'pending', 'locked'];

    public function __construct(
        /** one of "USDT", "BRL" */
        public readonly string $currency,
        /** Spendable now */
        public readonly string $available,
        /** Deposits seen on chain, not yet confirmed */
        public readonly string $pending,
        /** Held for withdrawals in flight */
        public readonly string $locked,
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
        $h = new Hydrate($data, 'CurrencyBalance');
        return self::keep(new self(
            currency: $h->string('currency'),
            available: $h->string('available'),
            pending: $h->string('pending'),
            locked: $h->string('locked'),
        ), $data);
    }
}
