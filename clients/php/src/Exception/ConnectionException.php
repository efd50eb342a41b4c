<?php

declare(strict_types=1);

namespace Cambio\Exception;

/** No answer: the connection failed (code CONNECTION_FAILED) or timed out (code TIMEOUT); the client already retried. */
class ConnectionException extends CambioException
{
}
