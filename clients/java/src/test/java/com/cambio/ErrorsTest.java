package com.cambio;

import static com.cambio.ScriptedServer.failure;
import static com.cambio.ScriptedServer.json;
import static com.cambio.ScriptedServer.ok;
import static com.cambio.ScriptedServer.raw;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.cambio.exception.ApiServerException;
import com.cambio.exception.AuthenticationException;
import com.cambio.exception.CambioException;
import com.cambio.exception.ConflictException;
import com.cambio.exception.InvalidRequestException;
import com.cambio.exception.InvalidResponseException;
import com.cambio.exception.NotFoundException;
import com.cambio.exception.RateLimitException;
import com.cambio.exception.RefusedException;
import com.cambio.model.FieldError;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** Every answer maps to one exception family by status, as the Node client's errorFromResponse. */
class ErrorsTest {
  @ParameterizedTest(name = "HTTP {0} {1} → {2}")
  @CsvSource({
    "400, VALIDATION_FAILED, InvalidRequestException",
    "400, INVALID_JSON, InvalidRequestException",
    "403, FORBIDDEN, InvalidRequestException",
    "413, PAYLOAD_TOO_LARGE, InvalidRequestException",
    "415, UNSUPPORTED_MEDIA_TYPE, InvalidRequestException",
    "401, AUTH_FAILED, AuthenticationException",
    "404, NOT_FOUND, NotFoundException",
    "409, DUPLICATE_REFERENCE, ConflictException",
    "422, INSUFFICIENT_BALANCE, RefusedException",
    "429, RATE_LIMITED, RateLimitException",
    "500, INTERNAL_ERROR, ApiServerException",
    "503, PRICE_UNAVAILABLE, ApiServerException",
    "503, NETWORK_UNAVAILABLE, ApiServerException",
    "503, SCREENING_UNAVAILABLE, ApiServerException",
  })
  void mapsEachStatusToItsFamily(int status, String code, String family) throws Exception {
    try (ScriptedServer server = new ScriptedServer((req, n) -> failure(status, code))) {
      CambioException error = assertThrows(CambioException.class, () -> server.client().maxRetries(0).build().company().get());
      assertEquals(family, error.getClass().getSimpleName());
      assertEquals("com.cambio.exception", error.getClass().getPackageName());
      assertEquals(code, error.getCode());
      assertEquals(status, error.getStatusCode());
      assertEquals("req_1", error.getRequestId());
      assertTrue(error.getMessage().contains(code) && error.getMessage().contains("req_1"), error.getMessage());
      assertInstanceOf(RuntimeException.class, error);
    }
  }

  @Test
  void theFamiliesAreSubclassesOfCambioException() {
    for (Class<?> family : List.of(InvalidRequestException.class, AuthenticationException.class, NotFoundException.class, ConflictException.class,
        RefusedException.class, RateLimitException.class, ApiServerException.class, InvalidResponseException.class,
        com.cambio.exception.ConnectionException.class, com.cambio.exception.WebhookVerificationException.class)) {
      assertTrue(CambioException.class.isAssignableFrom(family), family.getName());
    }
  }

  @Test
  void keepsValidationDetails() throws Exception {
    String body = "{\"success\":false,\"error\":{\"code\":\"VALIDATION_FAILED\",\"message\":\"Invalid request\",\"details\":[{\"path\":\"amount\",\"message\":\"must be a decimal string\"}]}}";
    try (ScriptedServer server = new ScriptedServer((req, n) -> json(400, body))) {
      InvalidRequestException error = assertThrows(InvalidRequestException.class, () -> server.client().build().company().get());
      assertEquals(List.of(new FieldError("amount", "must be a decimal string")), error.getFieldErrors());
      assertEquals(List.of(Map.of("path", "amount", "message", "must be a decimal string")), error.getDetails());
    }
  }

  @Test
  void keepsObjectDetails() throws Exception {
    String body = "{\"success\":false,\"error\":{\"code\":\"DUPLICATE_REFERENCE\",\"message\":\"Reference already used\",\"details\":{\"existingId\":\"dep_1\"}}}";
    try (ScriptedServer server = new ScriptedServer((req, n) -> json(409, body))) {
      ConflictException error = assertThrows(ConflictException.class, () -> server.client().build().company().get());
      assertEquals(Map.of("existingId", "dep_1"), error.getDetails());
      assertEquals(List.of(), error.getFieldErrors());
      assertEquals(1, server.seen().size());
    }
  }

  @Test
  void aNonJson5xxIsAnApiServerExceptionAndRetried() throws Exception {
    try (ScriptedServer server = new ScriptedServer((req, n) -> n == 1 ? raw(502, "text/html", "<html>Bad Gateway</html>") : ok(Fixtures.COMPANY))) {
      assertEquals("Acme", server.client().build().company().get().name());
      assertEquals(2, server.seen().size());
    }
    try (ScriptedServer server = new ScriptedServer((req, n) -> raw(502, "text/html", "<html>Bad Gateway</html>"))) {
      ApiServerException error = assertThrows(ApiServerException.class, () -> server.client().build().company().get());
      assertEquals("INTERNAL_ERROR", error.getCode());
      assertEquals(502, error.getStatusCode());
      assertEquals(3, server.seen().size());
    }
  }

  @Test
  void anAnswerWithoutTheEnvelopeIsAnInvalidResponseException() throws Exception {
    for (ScriptedServer.Reply reply : List.of(
        raw(200, "text/html", "<html>hello</html>"),
        json(200, "{\"id\":\"cmp_1\"}"),
        json(200, "[1,2]"),
        json(200, "{\"success\":true}"),
        raw(200, "application/json", "{\"success\":true,\"data\":"),
        raw(400, "text/plain", "Bad Request"),
        json(404, "{\"message\":\"Not Found\"}"))) {
      try (ScriptedServer server = new ScriptedServer((req, n) -> reply)) {
        InvalidResponseException error = assertThrows(InvalidResponseException.class, () -> server.client().build().company().get(), reply.body());
        assertEquals("INVALID_RESPONSE", error.getCode());
        assertEquals(reply.status(), error.getStatusCode());
        assertEquals("req_1", error.getRequestId());
        assertEquals(1, server.seen().size(), "not retried");
      }
    }
  }

  @Test
  void dataOfTheWrongShapeIsAnInvalidResponseException() throws Exception {
    try (ScriptedServer server = new ScriptedServer((req, n) -> ok("{\"id\":42,\"name\":\"Acme\"}"))) {
      InvalidResponseException error = assertThrows(InvalidResponseException.class, () -> server.client().build().company().get());
      assertTrue(error.getMessage().contains("data.id should be a string"), error.getMessage());
    }
  }

  @Test
  void aListWithoutAnArrayIsAnInvalidResponseException() throws Exception {
    try (ScriptedServer server = new ScriptedServer((req, n) -> ScriptedServer.created("{\"id\":\"cnv_1\"}"))) {
      InvalidResponseException error = assertThrows(InvalidResponseException.class, () -> server.client().build().conversions().list());
      assertEquals(201, error.getStatusCode());
    }
  }

  @Test
  void anErrorWithoutAnAnswerHasNoStatus() {
    CambioException error = new com.cambio.exception.ConnectionException("x", "CONNECTION_FAILED", null, null, null, null);
    assertNull(error.getStatusCode());
    assertNull(error.getRequestId());
  }
}
