<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

use Cambio\CambioObject;

/**
 * `components.schemas.DeletedWebhook` in openapi.json.
 * Built by CambioObject::fromArray(), which reads each property by its name and type.
 */
final class DeletedWebhook extends CambioObject
{
    /** matches ^whk_[0-9A-HJKMNP-TV-Z]{26}$ */
    public readonly string $id;

    /** always true */
    public readonly bool $deleted;
}
