package com.cambio.exception;

/** 409: a duplicate reference ({@code DUPLICATE_REFERENCE}), a quote already used ({@code QUOTE_ALREADY_USED}), or the same Idempotency-Key still running ({@code IDEMPOTENCY_KEY_IN_USE}, retried by the client). */
public class ConflictException extends CambioException {
  private static final long serialVersionUID = 1L;

  public ConflictException(String message, String code, Integer statusCode, String requestId, Object details, Throwable cause) {
    super(message, code, statusCode, requestId, details, cause);
  }
}
