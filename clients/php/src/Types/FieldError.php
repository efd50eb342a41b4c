<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

use Cambio\CambioObject;
use Cambio\Internal\Hydrate;

/**
 * `components.schemas.FieldError` in openapi.json.
 */
final class FieldError extends CambioObject
{
    /** The API's field names, in its order. */
    public const FIELDS = ['path', 'message'];

    public function __construct(
        public readonly string $path,
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
        $h = new Hydrate($data, 'FieldError');
        return self::keep(new self(
            path: $h->string('path'),
            message: $h->string('message'),
        ), $data);
    }
}
