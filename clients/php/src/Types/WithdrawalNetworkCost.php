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
    /** always "SOL"; The network's own coin the hot wallet paid in: `SOL` on Solana */
    public readonly string $asset;

    /** What the hot wallet paid, a decimal string with all the coin's decimals (SOL: 9): the transaction's fee, plus the rent of the destination's token account when the payout created it */
    public readonly string $amount;

    /** The payout created the destination's token account (Solana), its rent included in `amount` */
    public readonly bool $tokenAccountCreated;
}
