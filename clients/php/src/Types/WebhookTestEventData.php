<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

use Cambio\CambioObject;

/**
 * `components.schemas.WebhookTestEvent.data` in openapi.json.
 * Built by CambioObject::fromArray(), which reads each property by its name and type.
 */
final class WebhookTestEventData extends CambioObject
{
    /** matches ^whk_[0-9A-HJKMNP-TV-Z]{26}$ */
    public readonly string $webhookId;

    public readonly string $url;

    public readonly string $message;
}
