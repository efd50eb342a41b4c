<?php

declare(strict_types=1);

namespace Cambio\Internal;

/**
 * On a generated record's property typed `number` in openapi.json (a deposit split's `percent`):
 * the JSON number is read as its exact decimal string ('12.5', '10'), never a float.
 * CambioObject::fromArray() reads it.
 *
 * @internal
 */
#[\Attribute(\Attribute::TARGET_PROPERTY)]
final class Decimal
{
}
