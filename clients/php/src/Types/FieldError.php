<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

use Cambio\CambioObject;

/**
 * `components.schemas.FieldError` in openapi.json.
 * Built by CambioObject::fromArray(), which reads each property by its name and type.
 */
final class FieldError extends CambioObject
{
    public readonly string $path;

    public readonly string $message;
}
