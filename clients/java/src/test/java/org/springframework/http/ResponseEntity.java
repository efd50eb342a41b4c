package org.springframework.http;

/** Stand-in (see org.springframework.package-info): the builder methods the README uses. */
public class ResponseEntity<T> {
  private final int status;
  private final T body;

  private ResponseEntity(int status, T body) {
    this.status = status;
    this.body = body;
  }

  public int getStatusCodeValue() {
    return status;
  }

  public T getBody() {
    return body;
  }

  public static BodyBuilder ok() {
    return new Builder(200);
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

  public interface BodyBuilder extends HeadersBuilder<BodyBuilder> {
    <T> ResponseEntity<T> body(T body);
  }

  private static final class Builder implements BodyBuilder {
    private final int status;

    Builder(int status) {
      this.status = status;
    }

    @Override
    public <T> ResponseEntity<T> build() {
      return new ResponseEntity<>(status, null);
    }

    @Override
    public <T> ResponseEntity<T> body(T body) {
      return new ResponseEntity<>(status, body);
    }
  }
}
