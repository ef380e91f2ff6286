package dev.jobc.sidecar;

/** An answer of the API server that is not a success, with its HTTP status code. */
final class ApiException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int code;

  ApiException(int code, String message) {
    super(message);
    this.code = code;
  }

  /** The HTTP status code ({@code 404}, {@code 410}, ...). */
  int code() {
    return code;
  }
}
