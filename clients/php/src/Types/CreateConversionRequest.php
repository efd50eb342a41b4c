<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

/**
 * The keys of the params array (`components.schemas.CreateConversionRequest` in openapi.json):
 *
 * - `quoteId` (required)
 * - `reference`: matches ^[A-Za-z0-9._:-]{1,128}$
 *
 * @phpstan-type Params array{quoteId: string, reference?: string}
 */
final class CreateConversionRequest
{
    public const FIELDS = ['quoteId', 'reference'];

    public const REQUIRED = ['quoteId'];

    /** Money fields (dot for nested): decimal strings; the client refuses a float here. */
    public const MONEY = [];

    /** Number fields (dot for nested): an int, a float or a decimal string, sent as the exact JSON number. */
    public const NUMBERS = [];

    private function __construct()
    {
    }
}
