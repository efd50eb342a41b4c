package com.cambio.param;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code POST /v1/webhooks} and {@code PUT /v1/webhooks/:id} (which replaces the webhook: omitted
 * optional fields take their defaults; the secret is kept).
 */
public final class WebhookParams extends AbstractParams {
  private final String url;
  private final List<String> events;
  private final String description;
  private final Boolean enabled;

  private WebhookParams(Builder b) {
    this.url = required(b.url, "url");
    if (b.events.isEmpty()) throw new IllegalStateException("WebhookParams needs events: event types such as \"deposit.completed\", or \"*\" alone for all");
    this.events = List.copyOf(b.events);
    this.description = b.description;
    this.enabled = b.enabled;
  }

  public static Builder builder() {
    return new Builder();
  }

  public String url() {
    return url;
  }

  public List<String> events() {
    return events;
  }

  public String description() {
    return description;
  }

  public Boolean enabled() {
    return enabled;
  }

  public static final class Builder {
    private String url;
    private final List<String> events = new ArrayList<>();
    private String description;
    private Boolean enabled;

    private Builder() {}

    /** An {@code https://} URL on a public address (the local runtime also allows {@code http://} loopback). Required. */
    public Builder url(String url) {
      this.url = url;
      return this;
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
      this.description = description;
      return this;
    }

    /** Default true. */
    public Builder enabled(boolean enabled) {
      this.enabled = enabled;
      return this;
    }

    public WebhookParams build() {
      return new WebhookParams(this);
    }
  }
}
