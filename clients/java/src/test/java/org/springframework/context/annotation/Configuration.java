package org.springframework.context.annotation;

import java.lang.annotation.*;

/** Stand-in (see org.springframework.package-info). */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
public @interface Configuration {}
