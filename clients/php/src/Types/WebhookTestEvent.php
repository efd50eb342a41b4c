<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

use Cambio\CambioObject;

/**
 * `components.schemas.WebhookTestEvent` in openapi.json.
 * Built by CambioObject::fromArray(), which reads each property by its name and type.
 */
final class WebhookTestEvent extends CambioObject
{
    /** The event id; also the `webhook-id` header */
    public readonly string $id;

    /** always "webhook.test" */
    public readonly string $type;

    /** ISO 8601 UTC time with milliseconds */
    public readonly string $createdAt;

    public readonly WebhookTestEventData $data;
}
