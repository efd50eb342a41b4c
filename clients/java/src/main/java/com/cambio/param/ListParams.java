package com.cambio.param;

/** A list route's query: {@code limit} (1–100, default 20) and {@code cursor} (a previous page's {@code nextCursor}). */
public final class ListParams {
  private final Integer limit;
  private final String cursor;

  private ListParams(Builder b) {
    if (b.limit != null && (b.limit < 1 || b.limit > 100)) throw new IllegalStateException("ListParams limit must be 1-100, got " + b.limit);
    this.limit = b.limit;
    this.cursor = b.cursor;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The API's defaults: 20 per page, from the newest. */
  public static ListParams none() {
    return builder().build();
  }

  public Integer limit() {
    return limit;
  }

  public String cursor() {
    return cursor;
  }

  /** The same query from another cursor (the next page). */
  public ListParams withCursor(String cursor) {
    Builder b = builder().cursor(cursor);
    b.limit = limit;
    return b.build();
  }

  public static final class Builder {
    private Integer limit;
    private String cursor;

    private Builder() {}

    public Builder limit(int limit) {
      this.limit = limit;
      return this;
    }

    public Builder cursor(String cursor) {
      this.cursor = cursor;
      return this;
    }

    public ListParams build() {
      return new ListParams(this);
    }
  }
}
