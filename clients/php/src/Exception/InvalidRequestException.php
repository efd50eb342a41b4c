<?php

declare(strict_types=1);

namespace Cambio\Exception;

/** 400, 403, 413, 415: the request itself is wrong (see getDetails()), or a firewall refused it; retrying will not help. */
class InvalidRequestException extends CambioException
{
}
