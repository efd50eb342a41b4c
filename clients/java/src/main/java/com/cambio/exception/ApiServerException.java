package com.cambio.exception;

/** 5xx: Cambio failed or a dependency is unavailable (e.g. {@code PRICE_UNAVAILABLE}); the client already retried. */
public class ApiServerException extends CambioException {
  private static final long serialVersionUID = 1L;

  public ApiServerException(String message, String code, Integer statusCode, String requestId, Object details, Throwable cause) {
    super(message, code, statusCode, requestId, details, cause);
  }
}
