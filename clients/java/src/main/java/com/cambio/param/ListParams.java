package com.cambio.param;

import com.cambio.internal.RecordBuilder;

/**
 * A list route's query: {@code limit} (1–100, default 20) and {@code cursor} (a previous page's
 * {@code nextCursor}).
 *
 * @param limit items per page, or null (20)
 * @param cursor where the page starts, or null (the newest)
 */
public record ListParams(Integer limit, String cursor) {
  /** Refuses a limit outside 1–100 with an {@link IllegalStateException}. */
  public ListParams {
    if (limit != null && (limit < 1 || limit > 100)) throw new IllegalStateException("ListParams limit must be 1-100, got " + limit);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The API's defaults: 20 per page, from the newest. */
  public static ListParams none() {
    return builder().build();
  }

  /** The same query from another cursor (the next page). */
  public ListParams withCursor(String cursor) {
    return new ListParams(limit, cursor);
  }

  public static final class Builder extends RecordBuilder<Builder, ListParams> {
    public Builder limit(int limit) {
      return set("limit", limit);
    }

    public Builder cursor(String cursor) {
      return set("cursor", cursor);
    }
  }
}
