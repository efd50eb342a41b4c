package com.cambio.exception;

/** 401 {@code AUTH_FAILED}: the API key or secret is missing or wrong. */
public class AuthenticationException extends CambioException {
  private static final long serialVersionUID = 1L;

  public AuthenticationException(String message, String code, Integer statusCode, String requestId, Object details, Throwable cause) {
    super(message, code, statusCode, requestId, details, cause);
  }
}
