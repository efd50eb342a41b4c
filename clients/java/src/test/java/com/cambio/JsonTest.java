package com.cambio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.cambio.internal.Json;
import com.cambio.internal.JsonException;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The client's own strict JSON: numbers stay decimal, never double. */
class JsonTest {
  @Test
  void readsNumbersAsBigDecimalKeepingEveryDigit() {
    Map<?, ?> parsed = (Map<?, ?>) Json.parse("{\"a\":0.1,\"b\":12345678901234567890.123456789,\"c\":-0,\"d\":1e2}");
    assertEquals(new BigDecimal("0.1"), parsed.get("a"));
    assertEquals(new BigDecimal("12345678901234567890.123456789"), parsed.get("b"));
    assertEquals(new BigDecimal("1e2"), parsed.get("d"));
  }

  @Test
  void isStrict() {
    for (String bad : List.of("", "{", "{\"a\":1,}", "[1,]", "01", "1.", ".5", "+1", "'x'", "{\"a\":1}{}", "NaN", "\"\u0001\"", "{\"a\":1,\"a\":2}", "tru", "\"\\x\"")) {
      assertThrows(JsonException.class, () -> Json.parse(bad), bad);
    }
  }

  @Test
  void writesCompactJsonAsJavaScriptDoes() {
    Map<String, Object> value = new LinkedHashMap<>();
    value.put("s", "Olá \"q\" \\ \n \u0001 / \u2028 😀");
    value.put("n", new BigDecimal("25.50"));
    value.put("i", 19L);
    value.put("l", Arrays.asList(true, null, "x"));
    String text = Json.write(value);
    assertEquals("{\"s\":\"Olá \\\"q\\\" \\\\ \\n \\u0001 / \u2028 😀\",\"n\":25.5,\"i\":19,\"l\":[true,null,\"x\"]}", text);
    assertEquals(Json.parse(text), Json.parse(Json.write(Json.parse(text))));
  }

  @Test
  void refusesToWriteADouble() {
    assertThrows(IllegalArgumentException.class, () -> Json.write(Map.of("amount", 0.1d)));
  }

  @Test
  void readsEscapesAndSurrogatePairs() {
    assertEquals("é😀\n/", Json.parse("\"\\u00e9\\ud83d\\ude00\\n\\/\""));
  }
}
