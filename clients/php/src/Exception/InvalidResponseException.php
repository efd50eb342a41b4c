<?php

declare(strict_types=1);

namespace Cambio\Exception;

/**
 * Code INVALID_RESPONSE: an answer that is not JSON or not the API's envelope (often a base URL
 * that is not the Cambio API, or a proxy's page), or a record that does not have the fields
 * openapi.json promises.
 */
class InvalidResponseException extends CambioException
{
    public function __construct(string $message, ?int $httpStatus = null, ?string $requestId = null, ?\Throwable $previous = null)
    {
        parent::__construct($message, 'INVALID_RESPONSE', $httpStatus, $requestId, null, $previous);
    }
}
