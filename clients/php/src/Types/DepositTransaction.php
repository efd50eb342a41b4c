<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

use Cambio\CambioObject;

/**
 * `components.schemas.Deposit.transactions[]` in openapi.json.
 * Built by CambioObject::fromArray(), which reads each property by its name and type.
 */
final class DepositTransaction extends CambioObject
{
    public readonly string $txHash;

    /** USDT amount as a decimal string with all 6 decimals */
    public readonly string $amount;

    public readonly int $blockNumber;

    public readonly int $confirmations;

    /** one of "confirming", "confirmed" */
    public readonly string $status;
}
