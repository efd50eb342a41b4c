<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

use Cambio\CambioObject;

/**
 * `components.schemas.Quote` in openapi.json.
 * Built by CambioObject::fromArray(), which reads each property by its name and type.
 */
final class Quote extends CambioObject
{
    /** matches ^qte_[0-9A-HJKMNP-TV-Z]{26}$ */
    public readonly string $id;

    /** always "USDT" */
    public readonly string $sourceCurrency;

    /** always "BRL" */
    public readonly string $settlementCurrency;

    /** USDT amount as a decimal string with all 6 decimals */
    public readonly string $sourceAmount;

    /** sourceAmount × rate, rounded down to the cent */
    public readonly string $settlementAmount;

    /** BRL per USDT with 8 decimals, Cambio's spread included */
    public readonly string $rate;

    /** ISO 8601 UTC time with milliseconds */
    public readonly string $expiresAt;

    /** ISO 8601 UTC time with milliseconds */
    public readonly string $createdAt;
}
