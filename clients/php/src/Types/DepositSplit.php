<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

use Cambio\CambioObject;

/**
 * `components.schemas.Deposit.split` in openapi.json.
 */
final class DepositSplit extends CambioObject
{
    /** The API's field names, in its order. */
    public const FIELDS = ['address', 'percent', 'amount', 'forwardedAmount', 'withdrawalId'];

    /** Built by fromArray() (CambioObject), which reads each parameter by its name and type. */
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
}
