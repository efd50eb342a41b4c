<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

use Cambio\CambioObject;

/**
 * `components.schemas.Conversion` in openapi.json.
 * Built by CambioObject::fromArray(), which reads each property by its name and type.
 */
final class Conversion extends CambioObject
{
    /** matches ^cnv_[0-9A-HJKMNP-TV-Z]{26}$ */
    public readonly string $id;

    /** matches ^qte_[0-9A-HJKMNP-TV-Z]{26}$ */
    public readonly string $quoteId;

    public readonly ?string $reference;

    /** always "USDT" */
    public readonly string $sourceCurrency;

    /** always "BRL" */
    public readonly string $settlementCurrency;

    /** USDT amount as a decimal string with all 6 decimals */
    public readonly string $sourceAmount;

    /** BRL amount as a decimal string with all 2 decimals */
    public readonly string $settlementAmount;

    /** BRL per USDT with 8 decimals, Cambio's spread included */
    public readonly string $rate;

    /** always "completed" */
    public readonly string $status;

    /** ISO 8601 UTC time with milliseconds */
    public readonly string $createdAt;

    /** ISO 8601 UTC time with milliseconds */
    public readonly string $completedAt;
}
