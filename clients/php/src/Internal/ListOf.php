<?php

declare(strict_types=1);

namespace Cambio\Internal;

/**
 * On a generated record's `array` property: the record class each item of the list is read as
 * (the only thing PHP's types cannot say). CambioObject::fromArray() reads it.
 *
 * @internal
 */
#[\Attribute(\Attribute::TARGET_PROPERTY)]
final class ListOf
{
    /** @param class-string<\Cambio\CambioObject> $class */
    public function __construct(public readonly string $class)
    {
    }
}
