package org.springframework.context.annotation;

import java.lang.annotation.*;

/** Stand-in (see org.springframework.package-info). */
@Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
public @interface Bean {}
