package org.springframework.http;

/** Stand-in (see org.springframework.package-info): the builder methods the README uses. */
public class ResponseEntity<T> {
  private final int status;

  private ResponseEntity(int status) {
    this.status = status;
  }

  public int getStatusCodeValue() {
    return status;
  }

  public static HeadersBuilder<?> noContent() {
    return new Builder(204);
  }

  public static BodyBuilder badRequest() {
    return new Builder(400);
  }

  public interface HeadersBuilder<B extends HeadersBuilder<B>> {
    <T> ResponseEntity<T> build();
  }

  /** Spring's adds body(T), which the README does not use. */
  public interface BodyBuilder extends HeadersBuilder<BodyBuilder> {}

  private static final class Builder implements BodyBuilder {
    private final int status;

    Builder(int status) {
      this.status = status;
    }

    @Override
    public <T> ResponseEntity<T> build() {
      return new ResponseEntity<>(status);
    }
  }
}
