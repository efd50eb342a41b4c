<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

use Cambio\CambioObject;

/**
 * `components.schemas.Balance.balances[]` in openapi.json.
 * Built by CambioObject::fromArray(), which reads each property by its name and type.
 */
final class CurrencyBalance extends CambioObject
{
    /** one of "USDT", "BRL" */
    public readonly string $currency;

    /** Spendable now */
    public readonly string $available;

    /** Deposits seen on chain, not yet confirmed */
    public readonly string $pending;

    /** Held for withdrawals in flight */
    public readonly string $locked;
}
