package com.cambio.exception;

import com.cambio.model.FieldError;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Every failure the client reports is a {@code CambioException} (unchecked). The subclass tells
 * the family (what to do about it), {@link #getCode()} the contract's reason, {@link
 * #getStatusCode()} the HTTP status and {@link #getRequestId()} the id to quote to support. Match on
 * the class or on the code, never on the message.
 */
public class CambioException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String code;
  private final Integer statusCode;
  private final String requestId;
  private final transient Object details;

  public CambioException(String message, String code, Integer statusCode, String requestId, Object details, Throwable cause) {
    super(message, cause);
    this.code = code;
    this.statusCode = statusCode;
    this.requestId = requestId;
    this.details = details;
  }

  /**
   * The contract's code ({@code INSUFFICIENT_BALANCE}, {@code VALIDATION_FAILED}, …), or a
   * client-side one: {@code CONNECTION_FAILED}, {@code TIMEOUT}, {@code INVALID_RESPONSE},
   * {@code WEBHOOK_VERIFICATION_FAILED}.
   */
  public String getCode() {
    return code;
  }

  /** The HTTP status, or {@code null} when no answer came back. */
  public Integer getStatusCode() {
    return statusCode;
  }

  /** The answer's {@code X-Request-Id}, or {@code null}. */
  public String getRequestId() {
    return requestId;
  }

  /**
   * {@code error.details} from the answer, as parsed JSON (unmodifiable {@code List}/{@code Map},
   * strings, {@link BigDecimal} numbers, booleans): {@code null}; for {@code VALIDATION_FAILED} a
   * list of {@code {path, message}} (see {@link #getFieldErrors()}); for some codes an object such
   * as {@code {"existingId": "dep_…"}}.
   */
  public Object getDetails() {
    return details;
  }

  /** For {@code VALIDATION_FAILED}: the failing fields; otherwise an empty list. */
  public List<FieldError> getFieldErrors() {
    if (!(details instanceof List<?> list)) return List.of();
    List<FieldError> errors = new ArrayList<>();
    for (Object item : list) {
      if (item instanceof Map<?, ?> map && map.get("path") instanceof String path && map.get("message") instanceof String message) {
        errors.add(new FieldError(path, message));
      }
    }
    return Collections.unmodifiableList(errors);
  }
}
