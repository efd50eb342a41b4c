package com.cambio.internal;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Records read and made by their components, whose names are the API's field names: the one place
 * the client's reflection lives ({@link Decoder} makes the model's records from JSON, the params
 * builders make the params records, and a params record is read back as a request body). Not part
 * of the public API.
 */
public final class Records {
  private Records() {}

  /** A record class's components, canonical constructor and accessors, made accessible once. */
  private record Shape(RecordComponent[] components, Constructor<?> constructor, Method[] accessors) {}

  private static final ClassValue<Shape> SHAPES = new ClassValue<>() {
    @Override
    protected Shape computeValue(Class<?> type) {
      RecordComponent[] components = type.getRecordComponents();
      Class<?>[] types = new Class<?>[components.length];
      Method[] accessors = new Method[components.length];
      for (int i = 0; i < components.length; i++) {
        types[i] = components[i].getType();
        accessors[i] = components[i].getAccessor();
        accessors[i].setAccessible(true);
      }
      try {
        Constructor<?> constructor = type.getDeclaredConstructor(types);
        constructor.setAccessible(true);
        return new Shape(components, constructor, accessors);
      } catch (NoSuchMethodException e) {
        throw new IllegalStateException(e);
      }
    }
  };

  /** {@code type}'s components, in declaration order. */
  public static List<RecordComponent> components(Class<? extends Record> type) {
    return List.of(SHAPES.get(type).components);
  }

  /**
   * A new {@code type} from its canonical constructor, each component's value given by {@code
   * value}, once the {@link Required} ones are checked. What the constructor throws (a record's
   * own checks) is thrown as it is.
   */
  public static <R extends Record> R construct(Class<R> type, Function<RecordComponent, Object> value) {
    Shape shape = SHAPES.get(type);
    Object[] args = new Object[shape.components.length];
    for (int i = 0; i < args.length; i++) args[i] = value.apply(shape.components[i]);
    checkRequired(type, args);
    try {
      return type.cast(shape.constructor.newInstance(args));
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof RuntimeException runtime) throw runtime;
      if (e.getCause() instanceof Error error) throw error;
      throw new IllegalStateException(e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * {@code record}'s components by name, in declaration order; the null ones are left out. The
   * {@link Required} ones are checked (as {@link #construct} does) first.
   */
  public static Map<String, Object> values(Record record) {
    Shape shape = SHAPES.get(record.getClass());
    Object[] values = new Object[shape.accessors.length];
    for (int i = 0; i < values.length; i++) {
      try {
        values[i] = shape.accessors[i].invoke(record);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(e);
      }
    }
    checkRequired(record.getClass(), values);
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < values.length; i++) {
      if (values[i] != null) map.put(shape.components[i].getName(), values[i]);
    }
    return map;
  }

  /** An {@link IllegalStateException} such as "WithdrawalCreateParams needs address (a TRON, EIP-55 0x or Solana address)" for the first {@link Required} value missing. */
  private static void checkRequired(Class<?> type, Object[] values) {
    RecordComponent[] components = SHAPES.get(type).components;
    for (int i = 0; i < values.length; i++) {
      Required required = components[i].getAnnotation(Required.class);
      if (required != null && (values[i] == null || (values[i] instanceof String s && s.isEmpty()))) {
        String name = type.getName().substring(type.getPackageName().length() + 1).replace('$', '.');
        String what = required.value().isEmpty() ? "" : " (" + required.value() + ")";
        throw new IllegalStateException(name + " needs " + components[i].getName() + what);
      }
    }
  }
}
