<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

use Cambio\CambioObject;
use Cambio\Internal\Hydrate;

/**
 * `components.schemas.WebhookTestEvent.data` in openapi.json.
 */
final class WebhookTestEventData extends CambioObject
{
    /** The API's field names, in its order. */
    public const FIELDS = ['webhookId', 'url', 'message'];

    public function __construct(
        /** matches ^whk_[0-9A-HJKMNP-TV-Z]{26}$ */
        public readonly string $webhookId,
        public readonly string $url,
        public readonly string $message,
    ) {
    }

    /**
     * Builds the record from the API's JSON (decoded as an array); fields the API adds later are kept in toArray().
     *
     * @param array<string, mixed> $data
     * @throws \UnexpectedValueException when a field is missing or of another type
     */
    public static function fromArray(array $data): self
    {
        $h = new Hydrate($data, 'WebhookTestEventData');
        return self::keep(new self(
            webhookId: $h->string('webhookId'),
            url: $h->string('url'),
            message: $h->string('message'),
        ), $data);
    }
}
