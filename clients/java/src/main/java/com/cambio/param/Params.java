package com.cambio.param;

import com.cambio.internal.Records;
import java.math.BigDecimal;
import java.util.Map;

/**
 * A request body: what the client sends as JSON. The params are records whose components are
 * named as the API's fields and ordered as the body's, so {@link #toMap()} reads them with no
 * second list to keep in step (as {@code com.cambio.internal.Decoder} makes the model's records by
 * their components). A component marked {@code @Required} is checked by the params' builder
 * ({@code build()} throws an {@link IllegalStateException} naming it), and again here.
 */
public interface Params {
  /** The body, with the API's field names; unset (null) optional fields are left out. */
  default Map<String, Object> toMap() {
    return body((Record) this);
  }

  /**
   * A money value as the API wants it: a plain decimal string, never a float nor exponent notation,
   * without the fraction's trailing zeros. A BigDecimal keeps its scale (a JDBC NUMERIC(20,8) reads
   * 25 back as 25.00000000) and the API refuses more than 6 decimals, zeros included; only zeros go,
   * so a real 7th decimal is still sent as it is, for the API to refuse.
   */
  static String decimal(BigDecimal amount) {
    if (amount == null) return null;
    return amount.signum() == 0 ? "0" : amount.stripTrailingZeros().toPlainString();
  }

  private static Map<String, Object> body(Record params) {
    Map<String, Object> map = Records.values(params);
    map.replaceAll((field, value) -> value instanceof Record nested ? body(nested) : value);
    return map;
  }
}
