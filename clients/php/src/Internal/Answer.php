<?php

declare(strict_types=1);

namespace Cambio\Internal;

/** @internal One successful answer: the envelope's `data`, its `pagination.nextCursor`, the request id. */
final class Answer
{
    public function __construct(
        public readonly mixed $data,
        public readonly ?string $nextCursor,
        public readonly ?string $requestId,
        public readonly int $status,
        public readonly bool $replayed,
    ) {
    }
}
