<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

use Cambio\CambioObject;
use Cambio\Internal\Hydrate;

/**
 * `components.schemas.Webhook` in openapi.json.
 */
final class Webhook extends CambioObject
{
    /** The API's field names, in its order. */
    public const FIELDS = ['id', 'url', 'events', 'description', 'enabled', 'createdAt', 'updatedAt'];

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

    /**
     * Builds the record from the API's JSON (decoded as an array); fields the API adds later are kept in toArray().
     *
     * @param array<string, mixed> $data
     * @throws \UnexpectedValueException when a field is missing or of another type
     */
    public static function fromArray(array $data): self
    {
        $h = new Hydrate($data, 'Webhook');
        return self::keep(new self(
            id: $h->string('id'),
            url: $h->string('url'),
            events: $h->list('events'),
            description: $h->nullable('string', 'description'),
            enabled: $h->bool('enabled'),
            createdAt: $h->string('createdAt'),
            updatedAt: $h->string('updatedAt'),
        ), $data);
    }
}
