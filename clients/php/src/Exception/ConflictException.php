<?php

declare(strict_types=1);

namespace Cambio\Exception;

/** 409: a duplicate reference (DUPLICATE_REFERENCE, getDetails()["existingId"]), a quote already used, or the same Idempotency-Key still running (retried first). */
class ConflictException extends CambioException
{
}
