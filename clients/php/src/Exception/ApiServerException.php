<?php

declare(strict_types=1);

namespace Cambio\Exception;

/** 5xx: Cambio failed or a dependency is unavailable; the client already retried. */
class ApiServerException extends CambioException
{
}
