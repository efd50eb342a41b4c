<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

use Cambio\CambioObject;
use Cambio\Internal\Hydrate;

/**
 * `components.schemas.WebhookTestEvent` in openapi.json.
 */
final class WebhookTestEvent extends CambioObject
{
    /** The API's field names, in its order. */
    public const FIELDS = ['id', 'type', 'createdAt', 'data'];

    public function __construct(
        /** The event id; also the `webhook-id` header */
        public readonly string $id,
        /** always "webhook.test" */
        public readonly string $type,
        /** ISO 8601 UTC time with milliseconds */
        public readonly string $createdAt,
        public readonly WebhookTestEventData $data,
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
        $h = new Hydrate($data, 'WebhookTestEvent');
        return self::keep(new self(
            id: $h->string('id'),
            type: $h->string('type'),
            createdAt: $h->string('createdAt'),
            data: $h->object('data', WebhookTestEventData::fromArray(...)),
        ), $data);
    }
}
