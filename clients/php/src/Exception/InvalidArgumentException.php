<?php

declare(strict_types=1);

namespace Cambio\Exception;

/**
 * A programming error caught before any request: a missing API key or secret, a missing or
 * unsafe base URL, a float where money goes, an unknown per-request option. Not a CambioException:
 * nothing was sent.
 */
class InvalidArgumentException extends \InvalidArgumentException implements ExceptionInterface
{
}
