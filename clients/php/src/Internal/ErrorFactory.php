<?php

declare(strict_types=1);

namespace Cambio\Internal;

use Cambio\Exception\ApiServerException;
use Cambio\Exception\AuthenticationException;
use Cambio\Exception\CambioException;
use Cambio\Exception\ConflictException;
use Cambio\Exception\InvalidRequestException;
use Cambio\Exception\InvalidResponseException;
use Cambio\Exception\NotFoundException;
use Cambio\Exception\RateLimitException;
use Cambio\Exception\RefusedException;

/**
 * The one mapping from an answer to its exception family, as clients/node/src/errors.ts
 * errorFromResponse: 401 Authentication, 404 NotFound, 409 Conflict, 422 Refused, 429 RateLimit,
 * 5xx ApiServer, other 4xx InvalidRequest.
 *
 * @internal
 */
final class ErrorFactory
{
    /** @param mixed $json the decoded body, or null when it was not JSON */
    public static function fromResponse(int $status, mixed $json, ?string $requestId, string $contentType = '', string $where = ''): CambioException
    {
        $error = is_array($json) && ($json['success'] ?? null) === false && is_array($json['error'] ?? null) ? $json['error'] : null;
        if ($error === null || !is_string($error['code'] ?? null)) {
            return self::notTheEnvelope($status, $json, $requestId, $contentType, $where);
        }
        $code = $error['code'];
        $message = (is_string($error['message'] ?? null) ? $error['message'] : "HTTP $status") . " ($code" . ($requestId !== null ? ", request $requestId" : '') . ')';
        $details = $error['details'] ?? null;
        $class = self::family($status);
        return new $class($message, $code, $status, $requestId, $details);
    }

    /** @return class-string<CambioException> */
    public static function family(int $status): string
    {
        return match (true) {
            $status === 401 => AuthenticationException::class,
            $status === 404 => NotFoundException::class,
            $status === 409 => ConflictException::class,
            $status === 422 => RefusedException::class,
            $status === 429 => RateLimitException::class,
            $status >= 500 => ApiServerException::class,
            $status >= 400 => InvalidRequestException::class,
            default => CambioException::class,
        };
    }

    /**
     * An answer without the envelope: a 5xx (a gateway's or proxy's error page) is an
     * ApiServerException and a 429 a RateLimitException, both retried; anything else is an
     * InvalidResponseException, usually a base URL that is not the Cambio API.
     */
    private static function notTheEnvelope(int $status, mixed $json, ?string $requestId, string $contentType, string $where): CambioException
    {
        $what = $json === null ? 'a body that is not JSON' . ($contentType !== '' ? " ($contentType)" : '') : "JSON that is not the API's envelope";
        $suffix = $requestId !== null ? " (request $requestId)" : '';
        if ($status >= 500) {
            return new ApiServerException("HTTP $status with $what from $where$suffix", 'INTERNAL_ERROR', $status, $requestId);
        }
        if ($status === 429) {
            return new RateLimitException("HTTP 429 with $what from $where$suffix", 'RATE_LIMITED', $status, $requestId);
        }
        return new InvalidResponseException(
            "HTTP $status with $what from $where$suffix: is baseUrl the Cambio API (your stack's ApiUrl output, or the URL `npm start` prints)?",
            $status,
            $requestId,
        );
    }
}
