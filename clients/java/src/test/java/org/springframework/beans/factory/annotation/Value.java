package org.springframework.beans.factory.annotation;

import java.lang.annotation.*;

/** Stand-in (see org.springframework.package-info). */
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
public @interface Value {
  String value();
}
