<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

use Cambio\CambioObject;

/**
 * `components.schemas.Withdrawal.networkCost` in openapi.json.
 * Built by CambioObject::fromArray(), which reads each property by its name and type.
 */
final class WithdrawalNetworkCost extends CambioObject
{
    /** The network's own coin the hot wallet paid in (its fee asset): TRX, ETH (ethereum and arbitrum), BNB, POL or SOL on today's networks */
    public readonly string $asset;

    /** What the hot wallet paid in the final transaction, a decimal string with all the coin's decimals (TRX: 6, SOL: 9, ETH, BNB and POL: 18): its fee (TRX burnt for the energy and bandwidth the hot wallet had not staked; gas used at its effective price), plus the rent of the destination's token account when the payout created it (Solana) */
    public readonly string $amount;

    /** The payout created the destination's token account (Solana), its rent included in `amount`; always false on the other networks, whose token keeps its balances itself */
    public readonly bool $tokenAccountCreated;
}
