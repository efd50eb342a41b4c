<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

/**
 * The keys of the params array (`components.schemas.WebhookRequest` in openapi.json):
 *
 * - `url` (required): `https://` URL resolving to public addresses only (the local runtime also allows `http://` loopback)
 * - `events` (required): Event types to receive, or `["*"]` alone for all of them
 * - `description`
 * - `enabled`
 *
 * @phpstan-type Params array{url: string, events: list<string>, description?: string|null, enabled?: bool}
 */
final class WebhookRequest
{
    public const FIELDS = ['url', 'events', 'description', 'enabled'];

    public const REQUIRED = ['url', 'events'];

    /** Money fields (dot for nested): decimal strings; the client refuses a float here. */
    public const MONEY = [];

    /** Number fields (dot for nested): an int, a float or a decimal string, sent as the exact JSON number. */
    public const NUMBERS = [];

    private function __construct()
    {
    }
}
