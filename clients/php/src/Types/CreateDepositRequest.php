<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

/**
 * The keys of the params array (`components.schemas.CreateDepositRequest` in openapi.json):
 *
 * - `method` (required): always "usdt"
 * - `reference` (required): matches ^[A-Za-z0-9._:-]{1,128}$
 * - `network` (required): one of "tron", "ethereum", "bsc", "polygon", "arbitrum", "solana"
 * - `amount`: USDT amount: a decimal string greater than zero with at most 6 decimals, never a JSON number
 * - `split`: Forwards a share of every confirmed transfer to `address`: either `percent` of it or a fixed `amount`, not both
 *
 * @phpstan-type Params array{method: 'usdt', reference: string, network: 'tron'|'ethereum'|'bsc'|'polygon'|'arbitrum'|'solana', amount?: string|\Stringable|int, split?: array<string, mixed>}
 */
final class CreateDepositRequest
{
    public const FIELDS = ['method', 'reference', 'network', 'amount', 'split'];

    public const REQUIRED = ['method', 'reference', 'network'];

    /** Money fields (dot for nested): decimal strings; the client refuses a float here. */
    public const MONEY = ['amount', 'split.amount'];

    /** Number fields (dot for nested): an int, a float or a decimal string, sent as the exact JSON number. */
    public const NUMBERS = ['split.percent'];

    private function __construct()
    {
    }
}
