<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

use Cambio\CambioObject;

/**
 * `components.schemas.Webhook` in openapi.json.
 */
final class Webhook extends CambioObject
{
    /** The API's field names, in its order. */
    public const FIELDS = ['id', 'url', 'events', 'description', 'enabled', 'createdAt', 'updatedAt'];

    /** Built by fromArray() (CambioObject), which reads each parameter by its name and type. */
    public function __construct(
        /** matches ^whk_[0-9A-HJKMNP-TV-Z]{26}$ */
        public readonly string $id,
        public readonly string $url,
        /** @var list<string> */
        public readonly array $events,
        public readonly ?string $description,
        public readonly bool $enabled,
        /** ISO 8601 UTC time with milliseconds */
        public readonly string $createdAt,
        /** ISO 8601 UTC time with milliseconds */
        public readonly string $updatedAt,
    ) {
    }
}
