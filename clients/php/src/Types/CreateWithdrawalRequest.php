<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

/**
 * The keys of the params array (`components.schemas.CreateWithdrawalRequest` in openapi.json):
 *
 * - `method` (required): always "usdt"
 * - `network` (required): one of "tron", "ethereum", "bsc", "polygon", "arbitrum", "solana"
 * - `address` (required): TRON address (base58check, starting with T) or Ethereum, BNB Smart Chain, Polygon PoS or Arbitrum One address (EIP-55 0x followed by 40 hex digits) or Solana address (base58 of 32 bytes: a wallet, or a wallet's USDT associated token account)
 * - `amount` (required): USDT amount: a decimal string greater than zero with at most 6 decimals, never a JSON number
 * - `reference` (required): matches ^[A-Za-z0-9._:-]{1,128}$
 *
 * @phpstan-type Params array{method: 'usdt', network: 'tron'|'ethereum'|'bsc'|'polygon'|'arbitrum'|'solana', address: string, amount: string|\Stringable|int, reference: string}
 */
final class CreateWithdrawalRequest
{
    public const FIELDS = ['method', 'network', 'address', 'amount', 'reference'];

    public const REQUIRED = ['method', 'network', 'address', 'amount', 'reference'];

    /** Money fields (dot for nested): decimal strings; the client refuses a float here. */
    public const MONEY = ['amount'];

    /** Number fields (dot for nested): an int, a float or a decimal string, sent as the exact JSON number. */
    public const NUMBERS = [];

    private function __construct()
    {
    }
}
