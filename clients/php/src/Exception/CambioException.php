<?php

declare(strict_types=1);

namespace Cambio\Exception;

/**
 * Every failure of a call is a CambioException: the subclass tells the family (what to do about
 * it), getCambioCode() the contract's reason (`INSUFFICIENT_BALANCE`, … or a client-side
 * `CONNECTION_FAILED`, `TIMEOUT`, `INVALID_RESPONSE`, `WEBHOOK_VERIFICATION_FAILED`),
 * getHttpStatus() the HTTP status and getRequestId() the `X-Request-Id` to quote to support.
 * Match on the class or on the code, never on the message.
 *
 * (PHP's own getCode() is an int and stays 0; the Cambio code is a string, hence getCambioCode().)
 */
class CambioException extends \RuntimeException implements ExceptionInterface
{
    private string $cambioCode;
    private ?int $httpStatus;
    private ?string $requestId;
    private mixed $details;

    public function __construct(
        string $message,
        string $cambioCode,
        ?int $httpStatus = null,
        ?string $requestId = null,
        mixed $details = null,
        ?\Throwable $previous = null,
    ) {
        parent::__construct($message, 0, $previous);
        $this->cambioCode = $cambioCode;
        $this->httpStatus = $httpStatus;
        $this->requestId = $requestId;
        $this->details = $details;
    }

    /** The contract's code, e.g. `INSUFFICIENT_BALANCE`, or the client's own (`CONNECTION_FAILED`, `TIMEOUT`, `INVALID_RESPONSE`, `WEBHOOK_VERIFICATION_FAILED`). */
    public function getCambioCode(): string
    {
        return $this->cambioCode;
    }

    /** HTTP status; null when no answer came back. */
    public function getHttpStatus(): ?int
    {
        return $this->httpStatus;
    }

    /** The answer's `X-Request-Id`: quote it to support. */
    public function getRequestId(): ?string
    {
        return $this->requestId;
    }

    /** `error.details` from the answer: for VALIDATION_FAILED a list of `['path' => …, 'message' => …]`; else null (or what the API sent). */
    public function getDetails(): mixed
    {
        return $this->details;
    }
}
