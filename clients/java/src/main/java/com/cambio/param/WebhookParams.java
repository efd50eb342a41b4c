package com.cambio.param;

import com.cambio.internal.RecordBuilder;
import com.cambio.internal.Required;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code POST /v1/webhooks} and {@code PUT /v1/webhooks/:id} (which replaces the webhook: omitted
 * optional fields take their defaults; the secret is kept).
 *
 * @param url where Cambio POSTs the events
 * @param events event types, or {@code "*"} alone for all (copied, unmodifiable)
 * @param description or null
 * @param enabled or null (true)
 */
public record WebhookParams(@Required String url, List<String> events, String description, Boolean enabled) implements Params {
  /** Refuses no events with an {@link IllegalStateException}; the list is copied, unmodifiable. */
  public WebhookParams {
    if (events == null || events.isEmpty()) throw new IllegalStateException("WebhookParams needs events: event types such as \"deposit.completed\", or \"*\" alone for all");
    events = List.copyOf(events);
  }

  public static Builder builder() {
    return new Builder();
  }

  public static final class Builder extends RecordBuilder<Builder, WebhookParams> {
    private final List<String> events = new ArrayList<>();

    public Builder() {
      set("events", events);
    }

    /** An {@code https://} URL on a public address (the local runtime also allows {@code http://} loopback). Required. */
    public Builder url(String url) {
      return set("url", url);
    }

    /** Event types ({@code "deposit.completed"}, …) or {@code "*"} alone for all; replaces earlier ones. Required. */
    public Builder events(List<String> events) {
      this.events.clear();
      this.events.addAll(events);
      return this;
    }

    public Builder events(String... events) {
      return events(List.of(events));
    }

    /** Adds one event type. */
    public Builder addEvent(String event) {
      this.events.add(event);
      return this;
    }

    /** Up to 500 characters. */
    public Builder description(String description) {
      return set("description", description);
    }

    /** Default true. */
    public Builder enabled(boolean enabled) {
      return set("enabled", enabled);
    }
  }
}
