<?php

declare(strict_types=1);

namespace Cambio\Internal;

/**
 * On a generated record's property that holds a secret (CreatedWebhook::$secret): print_r() and
 * var_dump() show it as `[hidden]` (CambioObject::__debugInfo()); the property itself, toArray()
 * and json_encode() still give it.
 *
 * @internal
 */
#[\Attribute(\Attribute::TARGET_PROPERTY)]
final class Hidden
{
}
