package org.springframework.http;

import java.util.LinkedHashMap;
import java.util.List;

/** Stand-in (see org.springframework.package-info): Spring's HttpHeaders is a Map&lt;String, List&lt;String&gt;&gt; (a MultiValueMap). */
public class HttpHeaders extends LinkedHashMap<String, List<String>> {
  private static final long serialVersionUID = 1L;
}
