package com.cambio.exception;

/** An answer that is not JSON or not the API's envelope ({@code INVALID_RESPONSE}), e.g. a proxy's HTML page. */
public class InvalidResponseException extends CambioException {
  private static final long serialVersionUID = 1L;

  public InvalidResponseException(String message, String code, Integer statusCode, String requestId, Object details, Throwable cause) {
    super(message, code, statusCode, requestId, details, cause);
  }
}
