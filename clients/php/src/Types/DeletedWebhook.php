<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

use Cambio\CambioObject;
use Cambio\Internal\Hydrate;

/**
 * `components.schemas.DeletedWebhook` in openapi.json.
 */
final class DeletedWebhook extends CambioObject
{
    /** The API's field names, in its order. */
    public const FIELDS = ['id', 'deleted'];

    public function __construct(
        /** matches ^whk_[0-9A-HJKMNP-TV-Z]{26}$ */
        public readonly string $id,
        /** always true */
        public readonly bool $deleted,
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
        $h = new Hydrate($data, 'DeletedWebhook');
        return self::keep(new self(
            id: $h->string('id'),
            deleted: $h->bool('deleted'),
        ), $data);
    }
}
