package com.cambio.exception;

/** 422: refused on its merits: {@code INSUFFICIENT_BALANCE}, {@code QUOTE_EXPIRED}, {@code AMOUNT_TOO_SMALL}, {@code LIMIT_REACHED}, {@code ADDRESS_NOT_ALLOWED}, {@code IDEMPOTENCY_KEY_REUSED}. */
public class RefusedException extends CambioException {
  private static final long serialVersionUID = 1L;

  public RefusedException(String message, String code, Integer statusCode, String requestId, Object details, Throwable cause) {
    super(message, code, statusCode, requestId, details, cause);
  }
}
