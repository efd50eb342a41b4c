package com.cambio.param;

import java.math.BigDecimal;
import java.util.Map;

/** A request body: what the client sends as JSON. */
public interface Params {
  /** The body, with the API's field names; unset optional fields are left out. */
  Map<String, Object> toMap();

  /** A money value as the API wants it: a plain decimal string, never a float nor exponent notation. */
  static String decimal(BigDecimal amount) {
    return amount == null ? null : amount.toPlainString();
  }

  static <T> T required(T value, String params, String field) {
    if (value == null || (value instanceof String s && s.isEmpty())) {
      throw new IllegalStateException(params + " needs " + field);
    }
    return value;
  }
}
