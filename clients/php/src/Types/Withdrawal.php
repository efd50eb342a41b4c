<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

use Cambio\CambioObject;
use Cambio\Internal\Hydrate;

/**
 * `components.schemas.Withdrawal` in openapi.json.
 */
final class Withdrawal extends CambioObject
{
    /** The API's field names, in its order. */
    public const FIELDS = ['id', 'method', 'reference', 'network', 'address', 'amount', 'fee', 'status', 'txHash', 'failureReason', 'createdAt', 'updatedAt', 'completedAt'];

    public function __construct(
        /** matches ^wdr_[0-9A-HJKMNP-TV-Z]{26}$ */
        public readonly string $id,
        /** always "usdt" */
        public readonly string $method,
        public readonly string $reference,
        /** always "tron" */
        public readonly string $network,
        public readonly string $address,
        /** USDT amount as a decimal string with all 6 decimals */
        public readonly string $amount,
        /** Network fee, held and spent on top of `amount` */
        public readonly string $fee,
        /** one of "pending", "processing", "completed", "failed" */
        public readonly string $status,
        public readonly ?string $txHash,
        public readonly ?string $failureReason,
        /** ISO 8601 UTC time with milliseconds */
        public readonly string $createdAt,
        /** ISO 8601 UTC time with milliseconds */
        public readonly string $updatedAt,
        /** ISO 8601 UTC time with milliseconds */
        public readonly ?string $completedAt,
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
        $h = new Hydrate($data, 'Withdrawal');
        return self::keep(new self(
            id: $h->string('id'),
            method: $h->string('method'),
            reference: $h->string('reference'),
            network: $h->string('network'),
            address: $h->string('address'),
            amount: $h->string('amount'),
            fee: $h->string('fee'),
            status: $h->string('status'),
            txHash: $h->nullable('string', 'txHash'),
            failureReason: $h->nullable('string', 'failureReason'),
            createdAt: $h->string('createdAt'),
            updatedAt: $h->string('updatedAt'),
            completedAt: $h->nullable('string', 'completedAt'),
        ), $data);
    }
}
