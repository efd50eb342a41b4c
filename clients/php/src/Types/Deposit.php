<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

use Cambio\CambioObject;
use Cambio\Internal\ListOf;

/**
 * `components.schemas.Deposit` in openapi.json.
 * Built by CambioObject::fromArray(), which reads each property by its name and type.
 */
final class Deposit extends CambioObject
{
    /** matches ^dep_[0-9A-HJKMNP-TV-Z]{26}$ */
    public readonly string $id;

    /** always "usdt" */
    public readonly string $method;

    public readonly string $reference;

    /** one of "tron", "ethereum", "bsc", "polygon", "arbitrum", "solana" */
    public readonly string $network;

    /** The address to pay, on the deposit's network and for this deposit only: on TRON, Ethereum, BNB Smart Chain, Polygon PoS, Arbitrum One or Solana */
    public readonly string $address;

    /** USDT amount as a decimal string with all 6 decimals */
    public readonly ?string $amount;

    /** USDT amount as a decimal string with all 6 decimals */
    public readonly string $receivedAmount;

    /** USDT amount as a decimal string with all 6 decimals */
    public readonly string $creditedAmount;

    /** one of "exact", "underpaid", "overpaid" */
    public readonly ?string $amountStatus;

    /** one of "awaiting_payment", "confirming", "completed", "expired", "held"; `held`: funds arrived that cannot be credited (see `holdReason`); not in `available` until released */
    public readonly string $status;

    /** one of "address_frozen", "sender_sanctioned"; Why a `held` deposit is not credited: `address_frozen` (the token's issuer froze the deposit address; credited once unfrozen) or `sender_sanctioned` (the paying address is on the sanctions list; credited only if Cambio releases it). Null otherwise */
    public readonly ?string $holdReason;

    public readonly int $confirmations;

    public readonly int $requiredConfirmations;

    /** @var list<DepositTransaction> */
    #[ListOf(DepositTransaction::class)]
    public readonly array $transactions;

    public readonly ?DepositSplit $split;

    /** ISO 8601 UTC time with milliseconds */
    public readonly string $expiresAt;

    /** ISO 8601 UTC time with milliseconds */
    public readonly string $createdAt;

    /** ISO 8601 UTC time with milliseconds */
    public readonly string $updatedAt;
}
