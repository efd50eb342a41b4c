<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

use Cambio\CambioObject;

/**
 * `components.schemas.Company.rateLimit` in openapi.json.
 * Built by CambioObject::fromArray(), which reads each property by its name and type.
 */
final class RateLimit extends CambioObject
{
    /** The rate limit tier the company is at: `standard` for every new company, `growth` or `scale` once Cambio raises it */
    public readonly string $tier;

    /** Requests a second the company may send, steadily */
    public readonly int $requestsPerSecond;

    /** Requests the company may send at once before the steady rate applies */
    public readonly int $burst;
}
