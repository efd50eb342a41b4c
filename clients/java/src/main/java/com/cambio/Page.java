package com.cambio;

import com.cambio.exception.InvalidResponseException;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Function;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * One page of a list: {@link #data()} and {@link #nextCursor()} (null on the last page). {@link
 * #autoPagingIterable()} walks every item of this page and of every page after it, fetching the
 * next page only when the iteration reaches it.
 *
 * @param <T> the record listed
 */
public final class Page<T> {
  private final List<T> data;
  private final String nextCursor;
  private final String requestId;
  private final Function<String, Page<T>> fetchNext;
  /** The cursor this page was asked for (null for the first page). */
  private final String cursor;

  Page(List<T> data, String nextCursor, String requestId, Function<String, Page<T>> fetchNext, String cursor) {
    this.data = List.copyOf(data);
    this.nextCursor = nextCursor;
    this.requestId = requestId;
    this.fetchNext = fetchNext;
    this.cursor = cursor;
  }

  /** This page's items, newest first. */
  public List<T> data() {
    return data;
  }

  /** Pass as {@code ListParams.builder().cursor(…)} for the next page; null on the last page. */
  public String nextCursor() {
    return nextCursor;
  }

  public boolean hasMore() {
    return nextCursor != null;
  }

  /** The answer's X-Request-Id. */
  public String requestId() {
    return requestId;
  }

  /** The next page (one request), or null on the last page. */
  public Page<T> nextPage() {
    return nextCursor == null ? null : fetchNext.apply(nextCursor);
  }

  /**
   * Every item of this page and the pages after it, lazily, page by page. Each {@code iterator()}
   * starts again from this page. A failed page fetch throws the call's {@code CambioException}
   * from {@code hasNext()}; so does a next cursor already followed by this iterator, this page's
   * own cursor included ({@link InvalidResponseException}: the list would never end), after the
   * items read so far.
   */
  public Iterable<T> autoPagingIterable() {
    return () -> new Iterator<T>() {
      private Page<T> page = Page.this;
      private int index = 0;
      // A walk that starts at a cursor has followed it: list(cursor C) answering C repeats itself.
      private final Set<String> followed = cursor == null ? new HashSet<>() : new HashSet<>(Set.of(cursor));

      @Override
      public boolean hasNext() {
        while (index >= page.data.size()) {
          if (page.nextCursor == null) return false;
          if (!followed.add(page.nextCursor)) {
            // Following it again would walk the same pages forever; stopping would end the list
            // early without a word. Either way the answer is not what the API promises.
            throw new InvalidResponseException(
                "The API answered the cursor " + page.nextCursor + " again after it was followed: the list repeats, so it was not walked to its end (INVALID_RESPONSE"
                    + (page.requestId == null ? "" : ", request " + page.requestId) + ")",
                "INVALID_RESPONSE", null, page.requestId, null, null);
          }
          page = page.nextPage();
          index = 0;
        }
        return true;
      }

      @Override
      public T next() {
        if (!hasNext()) throw new NoSuchElementException();
        return page.data.get(index++);
      }
    };
  }

  /** {@link #autoPagingIterable()} as a sequential stream. */
  public Stream<T> autoPagingStream() {
    return StreamSupport.stream(Spliterators.spliteratorUnknownSize(autoPagingIterable().iterator(), Spliterator.ORDERED | Spliterator.NONNULL), false);
  }

  @Override
  public String toString() {
    return "Page{data=" + data + ", nextCursor=" + nextCursor + "}";
  }
}
