<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

use Cambio\CambioObject;
use Cambio\Internal\Hydrate;

/**
 * `components.schemas.Deposit.split` in openapi.json.
 */
final class DepositSplit extends CambioObject
{
    /** The API's field names, in its order. */
    public const FIELDS = ['address', 'percent', 'amount', 'forwardedAmount', 'withdrawalId'];

    public function __construct(
        public readonly string $address,
        public readonly int|float|null $percent,
        /** USDT amount as a decimal string with all 6 decimals */
        public readonly ?string $amount,
        /** USDT amount as a decimal string with all 6 decimals */
        public readonly string $forwardedAmount,
        /** matches ^wdr_[0-9A-HJKMNP-TV-Z]{26}$ */
        public readonly ?string $withdrawalId,
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
        $h = new Hydrate($data, 'DepositSplit');
        return self::keep(new self(
            address: $h->string('address'),
            percent: $h->nullable('number', 'percent'),
            amount: $h->nullable('string', 'amount'),
            forwardedAmount: $h->string('forwardedAmount'),
            withdrawalId: $h->nullable('string', 'withdrawalId'),
        ), $data);
    }
}
