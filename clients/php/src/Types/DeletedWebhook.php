<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

use Cambio\CambioObject;

/**
 * `components.schemas.DeletedWebhook` in openapi.json.
 */
final class DeletedWebhook extends CambioObject
{
    /** The API's field names, in its order. */
    public const FIELDS = ['id', 'deleted'];

    /** Built by fromArray() (CambioObject), which reads each parameter by its name and type. */
    public function __construct(
        /** matches ^whk_[0-9A-HJKMNP-TV-Z]{26}$ */
        public readonly string $id,
        /** always true */
        public readonly bool $deleted,
    ) {
    }
}
