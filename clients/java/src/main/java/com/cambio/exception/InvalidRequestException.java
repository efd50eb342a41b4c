package com.cambio.exception;

/** 400, 403, 413, 415: the request itself is wrong (see {@link #getDetails()}), or production's firewall refused it (403 {@code FORBIDDEN}); retrying it will not help. */
public class InvalidRequestException extends CambioException {
  private static final long serialVersionUID = 1L;

  public InvalidRequestException(String message, String code, Integer statusCode, String requestId, Object details, Throwable cause) {
    super(message, code, statusCode, requestId, details, cause);
  }
}
