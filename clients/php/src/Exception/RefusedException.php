<?php

declare(strict_types=1);

namespace Cambio\Exception;

/** 422: refused on its merits: INSUFFICIENT_BALANCE, QUOTE_EXPIRED, AMOUNT_TOO_SMALL, LIMIT_REACHED, ADDRESS_NOT_ALLOWED, IDEMPOTENCY_KEY_REUSED. */
class RefusedException extends CambioException
{
}
