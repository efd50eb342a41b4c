<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

use Cambio\CambioObject;
use Cambio\Internal\Hydrate;

/**
 * `components.schemas.Deposit.transactions[]` in openapi.json.
 */
final class DepositTransaction extends CambioObject
{
    /** The API's field names, in its order. */
    public const FIELDS = ['txHash', 'amount', 'blockNumber', 'confirmations', 'status'];

    public function __construct(
        public readonly string $txHash,
        /** USDT amount as a decimal string with all 6 decimals */
        public readonly string $amount,
        public readonly int $blockNumber,
        public readonly int $confirmations,
        /** one of "confirming", "confirmed" */
        public readonly string $status,
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
        $h = new Hydrate($data, 'DepositTransaction');
        return self::keep(new self(
            txHash: $h->string('txHash'),
            amount: $h->string('amount'),
            blockNumber: $h->int('blockNumber'),
            confirmations: $h->int('confirmations'),
            status: $h->string('status'),
        ), $data);
    }
}
