<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

use Cambio\CambioObject;

/**
 * `components.schemas.WebhookTestEvent.data` in openapi.json.
 */
final class WebhookTestEventData extends CambioObject
{
    /** The API's field names, in its order. */
    public const FIELDS = ['webhookId', 'url', 'message'];

    /** Built by fromArray() (CambioObject), which reads each parameter by its name and type. */
    public function __construct(
        /** matches ^whk_[0-9A-HJKMNP-TV-Z]{26}$ */
        public readonly string $webhookId,
        public readonly string $url,
        public readonly string $message,
    ) {
    }
}
