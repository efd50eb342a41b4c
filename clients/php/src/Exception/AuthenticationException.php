<?php

declare(strict_types=1);

namespace Cambio\Exception;

/** 401 AUTH_FAILED: the API key or secret is missing or wrong. */
class AuthenticationException extends CambioException
{
}
