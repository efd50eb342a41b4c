package com.cambio.param;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the request bodies share. {@link #toMap()} reads the instance fields, whose names are the
 * API's and whose order is the body's, so a field added to a params class is sent with no second
 * list to keep in step (as {@code com.cambio.internal.Decoder} reads the records by their
 * components); {@link #required} is the check of a required field.
 */
abstract class AbstractParams implements Params {
  /** Each body class's instance fields, made readable once. */
  private static final ClassValue<List<Field>> FIELDS = new ClassValue<>() {
    @Override
    protected List<Field> computeValue(Class<?> type) {
      List<Field> fields = new ArrayList<>();
      // getDeclaredFields() promises no order, but the JDKs give declaration order (Gson and Jackson
      // rely on it too), which is the body's; ClientTest checks the bytes sent.
      for (Field field : type.getDeclaredFields()) {
        if (Modifier.isStatic(field.getModifiers()) || field.isSynthetic()) continue;
        field.setAccessible(true);
        fields.add(field);
      }
      return List.copyOf(fields);
    }
  };

  /** The body, with the API's field names; unset (null) optional fields are left out. */
  @Override
  public Map<String, Object> toMap() {
    return body(this);
  }

  /** {@code value}, or an {@link IllegalStateException} naming this params class and the field when it is missing or empty. */
  final <T> T required(T value, String field) {
    return Params.required(value, getClass().getSimpleName(), field);
  }

  private static Map<String, Object> body(Object params) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (Field field : FIELDS.get(params.getClass())) {
      Object value;
      try {
        value = field.get(params);
      } catch (IllegalAccessException e) {
        throw new IllegalStateException(e);
      }
      if (value != null) map.put(field.getName(), json(value));
    }
    return map;
  }

  /** A JSON value as it is; any other object (a deposit's split) is a nested body, read the same way. */
  private static Object json(Object value) {
    return value instanceof String || value instanceof Number || value instanceof Boolean || value instanceof List<?> ? value : body(value);
  }
}
