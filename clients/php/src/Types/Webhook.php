<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

use Cambio\CambioObject;

/**
 * `components.schemas.Webhook` in openapi.json.
 * Built by CambioObject::fromArray(), which reads each property by its name and type.
 */
class Webhook extends CambioObject
{
    /** matches ^whk_[0-9A-HJKMNP-TV-Z]{26}$ */
    public readonly string $id;

    public readonly string $url;

    /** @var list<string> */
    public readonly array $events;

    public readonly ?string $description;

    public readonly bool $enabled;

    /** ISO 8601 UTC time with milliseconds */
    public readonly string $createdAt;

    /** ISO 8601 UTC time with milliseconds */
    public readonly string $updatedAt;
}
