<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

use Cambio\CambioObject;

/**
 * `components.schemas.Balance` in openapi.json.
 */
final class Balance extends CambioObject
{
    /** The API's field names, in its order. */
    public const FIELDS = ['balances', 'updatedAt'];

    protected const LIST_OF = ['balances' => CurrencyBalance::class];

    /** Built by fromArray() (CambioObject), which reads each parameter by its name and type. */
    public function __construct(
        /** @var list<CurrencyBalance> */
        public readonly array $balances,
        /** ISO 8601 UTC time with milliseconds */
        public readonly string $updatedAt,
    ) {
    }
}
