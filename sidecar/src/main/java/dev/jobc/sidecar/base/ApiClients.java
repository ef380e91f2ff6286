package dev.jobc.sidecar.base;

/**
 * The user agent of a sidecar process: it names the sidecar and its command in the API server's
 * audit log.
 */
public final class ApiClients {
  public static final String USER_AGENT = "jobc-sidecar";

  private ApiClients() {}

  /**
   * {@code jobc-sidecar/<command>}. For a write without {@code fieldManager} the API server takes
   * the part before the slash as the field manager ({@code jobc-sidecar}), which is what the
   * documented Argo CD {@code managedFieldsManagers} name.
   */
  public static String userAgent(String command) {
    return USER_AGENT + "/" + command;
  }
}
