package org.springframework.web.bind.annotation;

import java.lang.annotation.*;

/** Stand-in (see org.springframework.package-info). */
@Target(ElementType.PARAMETER)
@Retention(RetentionPolicy.RUNTIME)
public @interface RequestBody {
  boolean required() default true;
}
