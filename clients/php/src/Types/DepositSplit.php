<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

use Cambio\CambioObject;
use Cambio\Internal\Decimal;

/**
 * `components.schemas.Deposit.split` in openapi.json.
 * Built by CambioObject::fromArray(), which reads each property by its name and type.
 */
final class DepositSplit extends CambioObject
{
    public readonly string $address;

    /** @var numeric-string|null A JSON number as its exact decimal string ('12.5'), never a float */
    #[Decimal]
    public readonly ?string $percent;

    /** USDT amount as a decimal string with all 6 decimals */
    public readonly ?string $amount;

    /** USDT amount as a decimal string with all 6 decimals */
    public readonly string $forwardedAmount;

    /** matches ^wdr_[0-9A-HJKMNP-TV-Z]{26}$ */
    public readonly ?string $withdrawalId;
}
