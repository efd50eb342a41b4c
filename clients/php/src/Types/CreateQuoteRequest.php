<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

/**
 * The keys of the params array (`components.schemas.CreateQuoteRequest` in openapi.json):
 *
 * - `sourceCurrency` (required): always "USDT"
 * - `settlementCurrency` (required): always "BRL"
 * - `sourceAmount` (required): USDT amount: a decimal string greater than zero with at most 6 decimals, never a JSON number
 *
 * @phpstan-type Params array{sourceCurrency: 'USDT', settlementCurrency: 'BRL', sourceAmount: string|\Stringable|int}
 */
final class CreateQuoteRequest
{
    public const FIELDS = ['sourceCurrency', 'settlementCurrency', 'sourceAmount'];

    public const REQUIRED = ['sourceCurrency', 'settlementCurrency', 'sourceAmount'];

    /** Money fields (dot for nested): decimal strings; the client refuses a float here. */
    public const MONEY = ['sourceAmount'];

    /** Number fields (dot for nested): an int, a float or a decimal string, sent as the exact JSON number. */
    public const NUMBERS = [];

    private function __construct()
    {
    }
}
