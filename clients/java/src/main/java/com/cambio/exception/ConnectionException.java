package com.cambio.exception;

/** No answer: the connection failed ({@code CONNECTION_FAILED}) or timed out ({@code TIMEOUT}); the client already retried. */
public class ConnectionException extends CambioException {
  private static final long serialVersionUID = 1L;

  public ConnectionException(String message, String code, Integer statusCode, String requestId, Object details, Throwable cause) {
    super(message, code, statusCode, requestId, details, cause);
  }
}
