<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

use Cambio\CambioObject;

/**
 * `components.schemas.WebhookTestEvent` in openapi.json.
 */
final class WebhookTestEvent extends CambioObject
{
    /** The API's field names, in its order. */
    public const FIELDS = ['id', 'type', 'createdAt', 'data'];

    /** Built by fromArray() (CambioObject), which reads each parameter by its name and type. */
    public function __construct(
        /** The event id; also the `webhook-id` header */
        public readonly string $id,
        /** always "webhook.test" */
        public readonly string $type,
        /** ISO 8601 UTC time with milliseconds */
        public readonly string $createdAt,
        public readonly WebhookTestEventData $data,
    ) {
    }
}
