<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

use Cambio\CambioObject;

/**
 * `components.schemas.Deposit.transactions[]` in openapi.json.
 */
final class DepositTransaction extends CambioObject
{
    /** The API's field names, in its order. */
    public const FIELDS = ['txHash', 'amount', 'blockNumber', 'confirmations', 'status'];

    /** Built by fromArray() (CambioObject), which reads each parameter by its name and type. */
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
}
