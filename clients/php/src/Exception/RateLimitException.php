<?php

declare(strict_types=1);

namespace Cambio\Exception;

/** 429 RATE_LIMITED: throttled; the client already retried with backoff (and Retry-After). */
class RateLimitException extends CambioException
{
}
