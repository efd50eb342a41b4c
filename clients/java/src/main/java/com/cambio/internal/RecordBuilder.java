package com.cambio.internal;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.HashMap;
import java.util.Map;

/**
 * What the client's builders of records (the params, {@code RequestOptions}) share: the values set
 * so far, by component name, and {@link #build()}, which checks the {@link Required} ones and
 * passes them all to the record's canonical constructor (where the record checks the rest). Each
 * setter of a builder is then one line, {@code return set("amount", amount);}. Not part of the
 * public API.
 *
 * @param <B> the builder itself, which every setter returns
 * @param <R> the record it builds
 */
public abstract class RecordBuilder<B extends RecordBuilder<B, R>, R extends Record> {
  private final Class<R> type;
  private final Map<String, Object> values = new HashMap<>();

  /** The record is the one the builder's class names, e.g. {@code extends RecordBuilder<Builder, ListParams>}. */
  @SuppressWarnings("unchecked")
  protected RecordBuilder() {
    this.type = (Class<R>) recordType(getClass());
  }

  /** The record a builder class names as the last type argument of its superclass, or of a superclass of that. */
  private static Class<?> recordType(Class<?> builder) {
    for (Class<?> c = builder; c != RecordBuilder.class; c = c.getSuperclass()) {
      if (c.getGenericSuperclass() instanceof ParameterizedType superclass) {
        Type[] arguments = superclass.getActualTypeArguments();
        if (arguments[arguments.length - 1] instanceof Class<?> type && type.isRecord()) return type;
      }
    }
    throw new IllegalStateException(builder + " names no record to build");
  }

  /** Sets the component {@code component} (replacing an earlier value) and returns this builder. */
  @SuppressWarnings("unchecked")
  protected final B set(String component, Object value) {
    values.put(component, value);
    return (B) this;
  }

  /**
   * The record of the values set (null for those never set); an {@link IllegalStateException}
   * naming the first {@link Required} one missing, or what the record's constructor throws.
   */
  public R build() {
    return Records.construct(type, component -> values.get(component.getName()));
  }
}
