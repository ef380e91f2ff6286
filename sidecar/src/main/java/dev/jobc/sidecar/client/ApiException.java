package dev.jobc.sidecar.client;

import java.time.Duration;

/**
 * An answer of the API server that is not a success, with its HTTP status code and, when it said
 * one, how long to wait before asking again ({@code Retry-After}).
 */
public final class ApiException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int code;
  private final transient Duration retryAfter;

  public ApiException(int code, String message) {
    this(code, message, null);
  }

  public ApiException(int code, String message, Duration retryAfter) {
    super(message);
    this.code = code;
    this.retryAfter = retryAfter;
  }

  /** The HTTP status code ({@code 404}, {@code 410}, ...). */
  public int code() {
    return code;
  }

  /** The answer's {@code Retry-After}, or {@code null}. */
  public Duration retryAfter() {
    return retryAfter;
  }
}
