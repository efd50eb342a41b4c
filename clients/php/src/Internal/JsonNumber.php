<?php

declare(strict_types=1);

namespace Cambio\Internal;

/**
 * A JSON number to send as exactly these digits (a decimal string given for a split's percent):
 * Params::encode() writes it unquoted.
 *
 * @internal
 */
final class JsonNumber
{
    public function __construct(public readonly string $digits)
    {
    }
}
