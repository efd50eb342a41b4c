<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

use Cambio\CambioObject;

/**
 * `components.schemas.Company` in openapi.json.
 */
final class Company extends CambioObject
{
    /** The API's field names, in its order. */
    public const FIELDS = ['id', 'name', 'environment', 'status', 'createdAt'];

    /** Built by fromArray() (CambioObject), which reads each parameter by its name and type. */
    public function __construct(
        /** matches ^cmp_[0-9A-HJKMNP-TV-Z]{26}$ */
        public readonly string $id,
        public readonly string $name,
        /** one of "sandbox", "production" */
        public readonly string $environment,
        /** always "active" */
        public readonly string $status,
        /** ISO 8601 UTC time with milliseconds */
        public readonly string $createdAt,
    ) {
    }
}
