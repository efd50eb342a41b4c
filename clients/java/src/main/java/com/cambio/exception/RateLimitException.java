package com.cambio.exception;

/** 429 {@code RATE_LIMITED}: throttled; the client already retried with backoff. */
public class RateLimitException extends CambioException {
  private static final long serialVersionUID = 1L;

  public RateLimitException(String message, String code, Integer statusCode, String requestId, Object details, Throwable cause) {
    super(message, code, statusCode, requestId, details, cause);
  }
}
