package com.cambio;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.cambio.internal.Json;
import com.cambio.param.ConversionCreateParams;
import com.cambio.param.ConversionQuoteParams;
import com.cambio.param.DepositCreateParams;
import com.cambio.param.WebhookParams;
import com.cambio.param.WithdrawalCreateParams;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The hand-written params builders offer exactly the fields of openapi.json's request schemas (the
 * drift check for request bodies; the records are checked by GeneratedTypesTest).
 */
class ParamsMatchOpenapiTest {
  @SuppressWarnings("unchecked")
  static Map<String, Object> schema(String pointer) throws Exception {
    Map<String, Object> node = (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) Json.parse(Files.readString(Path.of("../../openapi.json")))).get("components")).get("schemas");
    for (String part : pointer.split("\\.")) node = (Map<String, Object>) (node.containsKey(part) ? node.get(part) : ((Map<String, Object>) node.get("properties")).get(part));
    return node;
  }

  /** The fields a request schema takes; for a oneOf of objects (a deposit's split: by percent or by
   * amount), those any of them takes (a `false` property is one that alternative forbids). */
  @SuppressWarnings("unchecked")
  static Set<String> fields(Map<String, Object> schema) {
    if (schema.get("properties") instanceof Map<?, ?> properties) {
      Set<String> names = new TreeSet<>();
      properties.forEach((name, property) -> { if (!Boolean.FALSE.equals(property)) names.add((String) name); });
      return names;
    }
    Set<String> names = new TreeSet<>();
    for (Object alternative : (java.util.List<Object>) schema.get("oneOf")) names.addAll(fields((Map<String, Object>) alternative));
    return names;
  }

  @ParameterizedTest(name = "{0} has the fields of {1}")
  @CsvSource({
    "DepositCreateParams, CreateDepositRequest",
    "DepositCreateParams$SplitBuilder, CreateDepositRequest.split",
    "WithdrawalCreateParams, CreateWithdrawalRequest",
    "ConversionQuoteParams, CreateQuoteRequest",
    "ConversionCreateParams, CreateConversionRequest",
    "WebhookParams, WebhookRequest",
  })
  @SuppressWarnings("unchecked")
  void builderSettersAreTheSchemasProperties(String params, String schemaName) throws Exception {
    Class<?> builder = Class.forName("com.cambio.param." + (params.contains("$") ? params : params + "$Builder"));
    // Every public method an integrator can call on the builder, its own and those it inherits
    // (a deposit's and a withdrawal's share theirs), but Object's.
    Set<String> setters = Arrays.stream(builder.getMethods())
        .filter(m -> m.getDeclaringClass() != Object.class && !m.getName().equals("build") && !m.getName().equals("addEvent"))
        .map(Method::getName)
        .collect(Collectors.toCollection(TreeSet::new));
    assertEquals(fields(schema(schemaName)), setters, params + " vs openapi.json " + schemaName);
  }

  @org.junit.jupiter.api.Test
  void theBodiesUseTheSchemasNames() throws Exception {
    assertEquals(((Map<?, ?>) schema("CreateWithdrawalRequest").get("properties")).keySet(),
        WithdrawalCreateParams.builder().network("tron").address("T").amount("1").reference("r").build().toMap().keySet());
    assertEquals(((Map<?, ?>) schema("CreateQuoteRequest").get("properties")).keySet(), ConversionQuoteParams.builder().sourceAmount("1").build().toMap().keySet());
    assertEquals(((Map<?, ?>) schema("CreateConversionRequest").get("properties")).keySet(), ConversionCreateParams.builder().quoteId("q").reference("r").build().toMap().keySet());
    assertEquals(((Map<?, ?>) schema("WebhookRequest").get("properties")).keySet(),
        WebhookParams.builder().url("u").events("*").description("d").enabled(true).build().toMap().keySet());
    assertEquals(((Map<?, ?>) schema("CreateDepositRequest").get("properties")).keySet(),
        DepositCreateParams.builder().network("tron").reference("r").amount("1").split(DepositCreateParams.Split.builder().address("T").amount("1").build()).build().toMap().keySet());
  }
}
