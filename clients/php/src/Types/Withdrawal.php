<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

use Cambio\CambioObject;

/**
 * `components.schemas.Withdrawal` in openapi.json.
 * Built by CambioObject::fromArray(), which reads each property by its name and type.
 */
final class Withdrawal extends CambioObject
{
    /** matches ^wdr_[0-9A-HJKMNP-TV-Z]{26}$ */
    public readonly string $id;

    /** always "usdt" */
    public readonly string $method;

    public readonly string $reference;

    /** one of "tron", "ethereum", "bsc", "polygon", "arbitrum", "solana" */
    public readonly string $network;

    public readonly string $address;

    /** USDT amount as a decimal string with all 6 decimals */
    public readonly string $amount;

    /** Network fee, held and spent on top of `amount` */
    public readonly string $fee;

    /** one of "pending", "processing", "completed", "failed" */
    public readonly string $status;

    public readonly ?string $txHash;

    /** USDT amount as a decimal string with all 6 decimals; What the destination received per the token's Transfer event, once completed: below `amount` only when the token's issuer charges a transfer fee. Null until completed */
    public readonly ?string $deliveredAmount;

    /** What the payout cost Cambio on the network, in the network's own coin, once its transaction is final (completed, or failed after it landed: a failed transaction still pays its fee). Cambio's cost, not charged to the company: the withdrawal's `fee` covers it. Null until then, for a payout that never landed (but one whose nonce another transaction filled, after the node refused it for good, shows that transaction's cost), and on withdrawals settled before their network reported it */
    public readonly ?WithdrawalNetworkCost $networkCost;

    public readonly ?string $failureReason;

    /** ISO 8601 UTC time with milliseconds */
    public readonly string $createdAt;

    /** ISO 8601 UTC time with milliseconds */
    public readonly string $updatedAt;

    /** ISO 8601 UTC time with milliseconds */
    public readonly ?string $completedAt;
}
