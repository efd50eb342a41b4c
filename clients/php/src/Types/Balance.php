<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

use Cambio\CambioObject;
use Cambio\Internal\ListOf;

/**
 * `components.schemas.Balance` in openapi.json.
 * Built by CambioObject::fromArray(), which reads each property by its name and type.
 */
final class Balance extends CambioObject
{
    /** @var list<CurrencyBalance> */
    #[ListOf(CurrencyBalance::class)]
    public readonly array $balances;

    /** ISO 8601 UTC time with milliseconds */
    public readonly string $updatedAt;
}
