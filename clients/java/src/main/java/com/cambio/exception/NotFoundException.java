package com.cambio.exception;

/** 404 {@code NOT_FOUND}: an unknown id (or another company's). */
public class NotFoundException extends CambioException {
  private static final long serialVersionUID = 1L;

  public NotFoundException(String message, String code, Integer statusCode, String requestId, Object details, Throwable cause) {
    super(message, code, statusCode, requestId, details, cause);
  }
}
