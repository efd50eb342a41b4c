<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

use Cambio\Internal\Hidden;

/**
 * `components.schemas.CreatedWebhook` in openapi.json: the fields of Webhook, then its own.
 * Built by CambioObject::fromArray(), which reads each property by its name and type.
 */
final class CreatedWebhook extends Webhook
{
    /** Standard Webhooks signing secret: `whsec_` + base64 of 24 random bytes. Shown once: store it */
    #[Hidden]
    public readonly string $secret;
}
