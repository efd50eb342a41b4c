package org.springframework.web.bind.annotation;

import java.lang.annotation.*;

/** Stand-in (see org.springframework.package-info). */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
public @interface PostMapping {
  String[] value() default {};

  String[] path() default {};

  String[] consumes() default {};
}
