package com.cambio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.cambio.exception.InvalidResponseException;
import com.cambio.exception.NotFoundException;
import com.cambio.model.Conversion;
import com.cambio.param.ListParams;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A list call returns one page; the auto-paging iterable walks every page, lazily. */
class PaginationTest {
  /** Three pages: cnv_5 cnv_4 | cnv_3 cnv_2 | cnv_1, cursors c2 and c3. */
  static ScriptedServer.Reply pages(ScriptedServer.Seen req) {
    String uri = req.uri();
    if (uri.equals("/v1/conversions?limit=2")) return page(null, "c2", "cnv_5", "cnv_4");
    if (uri.equals("/v1/conversions?limit=2&cursor=c2")) return page(null, "c3", "cnv_3", "cnv_2");
    if (uri.equals("/v1/conversions?limit=2&cursor=c3")) return page(null, null, "cnv_1");
    return ScriptedServer.failure(404, "NOT_FOUND");
  }

  static ScriptedServer.Reply page(String unused, String next, String... ids) {
    List<String> items = new ArrayList<>();
    for (String id : ids) items.add(Fixtures.conversion(id));
    return ScriptedServer.json(200, "{\"success\":true,\"data\":[" + String.join(",", items) + "],\"pagination\":{\"nextCursor\":" + (next == null ? "null" : "\"" + next + "\"") + "}}");
  }

  @Test
  void oneCallIsOnePage() throws Exception {
    try (ScriptedServer server = new ScriptedServer((req, n) -> pages(req))) {
      Page<Conversion> page = server.client().build().conversions().list(ListParams.builder().limit(2).build());
      assertEquals(List.of("cnv_5", "cnv_4"), page.data().stream().map(Conversion::id).toList());
      assertEquals("c2", page.nextCursor());
      assertTrue(page.hasMore());
      assertEquals("req_1", page.requestId());
      assertEquals(1, server.seen().size());
      Page<Conversion> second = page.nextPage();
      assertEquals(List.of("cnv_3", "cnv_2"), second.data().stream().map(Conversion::id).toList());
    }
  }

  @Test
  void autoPagingWalksEveryItemOfEveryPageLazily() throws Exception {
    try (ScriptedServer server = new ScriptedServer((req, n) -> pages(req))) {
      Page<Conversion> first = server.client().build().conversions().list(ListParams.builder().limit(2).build());
      Iterator<Conversion> each = first.autoPagingIterable().iterator();
      assertEquals("cnv_5", each.next().id());
      assertEquals("cnv_4", each.next().id());
      assertEquals(1, server.seen().size(), "the second page is fetched only when reached");
      assertEquals("cnv_3", each.next().id());
      assertEquals(2, server.seen().size());

      List<String> walked = new ArrayList<>();
      for (Conversion c : first.autoPagingIterable()) walked.add(c.id());
      assertEquals(List.of("cnv_5", "cnv_4", "cnv_3", "cnv_2", "cnv_1"), walked);
      assertEquals(List.of("cnv_5", "cnv_4", "cnv_3", "cnv_2", "cnv_1"), first.autoPagingStream().map(Conversion::id).toList());
    }
  }

  @Test
  void aPageFromACursorAndTheLastPage() throws Exception {
    try (ScriptedServer server = new ScriptedServer((req, n) -> pages(req))) {
      Page<Conversion> last = server.client().build().conversions().list(ListParams.builder().limit(2).cursor("c3").build());
      assertNull(last.nextCursor());
      assertFalse(last.hasMore());
      assertNull(last.nextPage());
      List<String> walked = new ArrayList<>();
      last.autoPagingIterable().forEach(c -> walked.add(c.id()));
      assertEquals(List.of("cnv_1"), walked);
    }
  }

  /**
   * A server that answers a cursor already followed would be walked forever, and stopping there
   * would end the list early without a word: an InvalidResponseException, after the items read.
   */
  @Test
  void aCursorAlreadyFollowedIsAnInvalidResponseNotALoopNorASilentEnd() throws Exception {
    record Case(List<String> cursors, String repeated) {}
    for (Case c : List.of(
        new Case(List.of("c2", "c2"), "c2"), // the next page answers its own cursor
        new Case(List.of("c2", "c3", "c2"), "c2"), // A, B, A
        new Case(List.of("c2", "c3", "c4", "c3"), "c3"))) {
      // Page n (1-based) holds cnv_n and answers the n-th cursor, twice over, then a last page: a
      // client that keeps going is caught by the count, one that stops by the missing exception.
      int size = c.cursors().size();
      try (ScriptedServer server = new ScriptedServer((req, n) -> page(null, n > 2 * size ? null : c.cursors().get((n - 1) % size), "cnv_" + n))) {
        Page<Conversion> first = server.client().build().conversions().list(ListParams.builder().limit(1).build());
        List<String> walked = new ArrayList<>();
        InvalidResponseException error = assertThrows(InvalidResponseException.class, () -> {
          for (Conversion conversion : first.autoPagingIterable()) walked.add(conversion.id());
        }, c.cursors().toString());
        assertEquals("INVALID_RESPONSE", error.getCode());
        assertTrue(error.getMessage().contains(c.repeated()), error.getMessage());
        assertEquals("req_" + c.cursors().size(), error.getRequestId());
        List<String> read = new ArrayList<>();
        for (int i = 1; i <= c.cursors().size(); i++) read.add("cnv_" + i);
        assertEquals(read, walked);
        assertEquals(c.cursors().size(), server.seen().size(), "no request for a cursor already followed");
        // The stream says so too (the first page kept, the others asked for again).
        assertThrows(InvalidResponseException.class, () -> first.autoPagingStream().count());
      }
    }
  }

  /** A walk that starts at a cursor has followed it: a page answering that same cursor repeats the list. */
  @Test
  void aStartingCursorAnsweredAgainIsAnInvalidResponseBeforeAnyItemIsReadTwice() throws Exception {
    try (ScriptedServer server = new ScriptedServer((req, n) -> page(null, "c3", "cnv_3"))) {
      Page<Conversion> start = server.client().build().conversions().list(ListParams.builder().limit(1).cursor("c3").build());
      List<String> walked = new ArrayList<>();
      InvalidResponseException error = assertThrows(InvalidResponseException.class, () -> {
        for (Conversion conversion : start.autoPagingIterable()) walked.add(conversion.id());
      }, "the walk read page c3 twice without saying the list repeats");
      assertEquals("INVALID_RESPONSE", error.getCode());
      assertTrue(error.getMessage().contains("c3"), error.getMessage());
      assertEquals(List.of("cnv_3"), walked, "page c3's items once");
      assertEquals(List.of("/v1/conversions?limit=1&cursor=c3"), server.seen().stream().map(ScriptedServer.Seen::uri).toList());
    }
  }

  @Test
  void aFailingPageThrowsItsException() throws Exception {
    try (ScriptedServer server = new ScriptedServer((req, n) -> req.uri().contains("cursor") ? ScriptedServer.failure(404, "NOT_FOUND") : pages(req))) {
      Page<Conversion> first = server.client().build().conversions().list(ListParams.builder().limit(2).build());
      Iterator<Conversion> each = first.autoPagingIterable().iterator();
      each.next();
      each.next();
      assertThrows(NotFoundException.class, each::hasNext);
    }
  }
}
