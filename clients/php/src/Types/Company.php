<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

use Cambio\CambioObject;

/**
 * `components.schemas.Company` in openapi.json.
 * Built by CambioObject::fromArray(), which reads each property by its name and type.
 */
final class Company extends CambioObject
{
    /** matches ^cmp_[0-9A-HJKMNP-TV-Z]{26}$ */
    public readonly string $id;

    public readonly string $name;

    /** one of "sandbox", "production" */
    public readonly string $environment;

    /** always "active" */
    public readonly string $status;

    /** ISO 8601 UTC time with milliseconds */
    public readonly string $createdAt;

    /** The company's own rate limit on this stage; past it, requests are answered 429 `RATE_LIMITED` with `Retry-After` */
    public readonly RateLimit $rateLimit;
}
