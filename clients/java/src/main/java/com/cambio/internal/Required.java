package com.cambio.internal;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A record component that must be set (not null, and not empty when a string): {@link Records}
 * refuses a record without it with an {@link IllegalStateException} naming the record and the
 * component, followed by {@link #value()} in parentheses when given. Not part of the public API.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.RECORD_COMPONENT)
public @interface Required {
  /** What the value should be, for the message, e.g. {@code "a TRON address"}; none by default. */
  String value() default "";
}
