<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

use Cambio\CambioObject;

/**
 * `components.schemas.FieldError` in openapi.json.
 */
final class FieldError extends CambioObject
{
    /** The API's field names, in its order. */
    public const FIELDS = ['path', 'message'];

    /** Built by fromArray() (CambioObject), which reads each parameter by its name and type. */
    public function __construct(
        public readonly string $path,
        public readonly string $message,
    ) {
    }
}
