package dev.jobc.sidecar;

import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The rules of a rendered Role applied to a request as Kubernetes' RBAC authorizer applies them
 * (after its request-info resolver): the verb from the method ({@code get}/{@code list}/{@code
 * watch}, {@code create}, {@code patch}, {@code update}, {@code delete}/{@code deletecollection}),
 * API group, resource with its subresource, and the object's name, which for list and watch is a
 * {@code metadata.name} field selector's value. A rule with {@code resourceNames} matches only
 * named requests; non-resource URLs are not granted.
 */
record RoleCheck(List<PolicyRule> rules) {
  static RoleCheck of(Role role) {
    return new RoleCheck(List.copyOf(role.getRules()));
  }

  /** {@code null} when a rule grants the request, else what was asked, for the test's message. */
  String refuses(String method, String pathAndQuery) {
    int q = pathAndQuery.indexOf('?');
    String path = q < 0 ? pathAndQuery : pathAndQuery.substring(0, q);
    String query =
        q < 0 ? "" : URLDecoder.decode(pathAndQuery.substring(q + 1), StandardCharsets.UTF_8);
    String[] parts = path.replaceAll("^/+", "").split("/");
    int i;
    String group;
    if (parts.length > 2 && parts[0].equals("api")) {
      group = "";
      i = 2;
    } else if (parts.length > 3 && parts[0].equals("apis")) {
      group = parts[1];
      i = 3;
    } else {
      return method + " " + path + " (not a resource)";
    }
    if (parts.length <= i + 1 || !parts[i].equals("namespaces")) {
      return method + " " + path + " (not namespaced)";
    }
    String resource = parts.length > i + 2 ? parts[i + 2] : null;
    String name = parts.length > i + 3 ? parts[i + 3] : null;
    if (resource == null) {
      return method + " " + path;
    }
    if (parts.length > i + 4) {
      resource += "/" + parts[i + 4];
    }
    boolean watch = query.matches("(.*&)?watch=(true|1)(&.*)?");
    String verb =
        switch (method) {
          case "GET" -> name != null ? "get" : watch ? "watch" : "list";
          case "POST" -> "create";
          case "PATCH" -> "patch";
          case "PUT" -> "update";
          case "DELETE" -> name != null ? "delete" : "deletecollection";
          default -> method.toLowerCase();
        };
    if (name == null && (verb.equals("list") || verb.equals("watch"))) {
      for (String param : query.split("&")) {
        if (param.startsWith("fieldSelector=metadata.name=")) {
          name = param.substring("fieldSelector=metadata.name=".length());
        }
      }
    }
    for (PolicyRule r : rules) {
      if (matches(r.getApiGroups(), group)
          && matches(r.getResources(), resource)
          && matches(r.getVerbs(), verb)
          && (r.getResourceNames() == null
              || r.getResourceNames().isEmpty()
              || (name != null && r.getResourceNames().contains(name)))) {
        return null;
      }
    }
    return verb
        + " "
        + (group.isEmpty() ? "" : group + "/")
        + resource
        + (name == null ? "" : " " + name);
  }

  private static boolean matches(List<String> granted, String asked) {
    return granted != null && (granted.contains("*") || granted.contains(asked));
  }
}
