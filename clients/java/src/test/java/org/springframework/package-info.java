/**
 * Stand-ins for the few Spring types the README's Spring Boot example uses (same names, packages
 * and signatures as Spring Framework 6), so the example compiles and runs here, offline and
 * without Spring. Test sources only: nothing of this is shipped.
 */
package org.springframework;
