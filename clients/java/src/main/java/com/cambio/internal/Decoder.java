package com.cambio.internal;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns parsed JSON into the generated records by their components (whose names are the API's
 * field names). Unknown fields are ignored, so a new field in the API never breaks an old client;
 * a value of the wrong type is a {@link JsonException}. Not part of the public API.
 */
public final class Decoder {
  private Decoder() {}

  public static <T> T decode(Object json, Class<T> type) {
    return type.cast(decode(json, (Type) type, "data"));
  }

  private static Object decode(Object json, Type type, String path) {
    if (type instanceof ParameterizedType parameterized) {
      Class<?> raw = (Class<?>) parameterized.getRawType();
      if (raw == List.class) {
        if (json == null) return null;
        if (!(json instanceof List<?> list)) throw mismatch(path, "an array", json);
        List<Object> out = new ArrayList<>(list.size());
        Type item = parameterized.getActualTypeArguments()[0];
        for (int i = 0; i < list.size(); i++) out.add(decode(list.get(i), item, path + "[" + i + "]"));
        return out;
      }
      if (raw == Map.class) {
        if (json == null) return null;
        if (!(json instanceof Map<?, ?>)) throw mismatch(path, "an object", json);
        return Json.frozen(json);
      }
      throw new JsonException("cannot decode " + type);
    }
    Class<?> cls = (Class<?>) type;
    if (cls == Object.class) return Json.frozen(json);
    if (cls == String.class) {
      if (json == null || json instanceof String) return json;
      throw mismatch(path, "a string", json);
    }
    if (cls == long.class || cls == Long.class) {
      if (json == null) {
        if (cls == long.class) throw mismatch(path, "an integer", null);
        return null;
      }
      if (!(json instanceof BigDecimal number)) throw mismatch(path, "an integer", json);
      try {
        return number.longValueExact();
      } catch (ArithmeticException e) {
        throw mismatch(path, "an integer", json);
      }
    }
    if (cls == BigDecimal.class) {
      if (json == null || json instanceof BigDecimal) return json;
      throw mismatch(path, "a number", json);
    }
    if (cls == boolean.class || cls == Boolean.class) {
      if (json instanceof Boolean) return json;
      if (json == null && cls == Boolean.class) return null;
      throw mismatch(path, "a boolean", json);
    }
    if (cls.isRecord()) {
      if (json == null) return null;
      if (!(json instanceof Map<?, ?> map)) throw mismatch(path, "an object", json);
      Class<? extends Record> record = cls.asSubclass(Record.class);
      Map<String, Object> values = new HashMap<>();
      for (RecordComponent component : Records.components(record)) {
        String name = component.getName();
        values.put(name, decode(map.get(name), component.getGenericType(), path + "." + name));
      }
      try {
        return Records.construct(record, component -> values.get(component.getName()));
      } catch (RuntimeException e) { // the record's own checks
        throw new JsonException(path + ": " + e);
      }
    }
    throw new JsonException("cannot decode " + type);
  }

  private static JsonException mismatch(String path, String expected, Object json) {
    String got = json == null ? "null" : json instanceof Map ? "an object" : json instanceof List ? "an array" : json instanceof String ? "a string" : json instanceof Boolean ? "a boolean" : "a number";
    return new JsonException(path + " should be " + expected + ", got " + got);
  }
}
