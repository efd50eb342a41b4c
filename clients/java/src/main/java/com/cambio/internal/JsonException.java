package com.cambio.internal;

/**
 * Thrown when a text is not exactly one JSON value ({@link Json#parse}), or a JSON value is not
 * the record asked for ({@link Decoder#decode}). Not part of the public API.
 */
public final class JsonException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public JsonException(String message) {
    super(message);
  }
}
