package dev.jobc.sidecar;

import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The rules of a rendered Role applied to a request as Kubernetes' RBAC authorizer applies them
 * (kubernetes/kubernetes {@code plugin/pkg/auth/authorizer/rbac/rbac.go}, {@code RuleAllows}, with
 * {@code pkg/apis/rbac/v1/evaluation_helpers.go}), after its request-info resolver ({@code
 * staging/src/k8s.io/apiserver/pkg/endpoints/request/requestinfo.go}): the verb from the method
 * ({@code get}/{@code list}/{@code watch}, {@code create}, {@code patch}, {@code update}, {@code
 * delete}/{@code deletecollection}), API group, resource with its subresource, and the object's
 * name, which for list and watch is a {@code metadata.name} field selector's value. A rule with
 * {@code resourceNames} matches only named requests; non-resource URLs are not granted.
 */
public record RoleCheck(List<PolicyRule> rules) {
  public static RoleCheck of(Role role) {
    return new RoleCheck(List.copyOf(role.getRules()));
  }

  /**
   * A resource request as the request-info resolver reads it.
   *
   * @param resource the plural, with {@code /subresource} when there is one
   * @param name the object's name, or {@code null} for a collection
   */
  public record Request(String verb, String group, String resource, String name) {
    /** {@code group/resource}, core resources without group. */
    String groupResource() {
      return group.isEmpty() ? resource : group + "/" + resource;
    }

    @Override
    public String toString() {
      return verb + " " + groupResource() + (name == null ? "" : " " + name);
    }

    /** The request, or {@code null} with why in {@code problem[0]} for a non-resource URL. */
    static Request parse(String method, String pathAndQuery, String[] problem) {
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
        problem[0] = method + " " + path + " (not a resource)";
        return null;
      }
      if (parts.length <= i + 1 || !parts[i].equals("namespaces")) {
        problem[0] = method + " " + path + " (not namespaced)";
        return null;
      }
      String resource = parts.length > i + 2 ? parts[i + 2] : null;
      String name = parts.length > i + 3 ? parts[i + 3] : null;
      if (resource == null) {
        problem[0] = method + " " + path;
        return null;
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
      return new Request(verb, group, resource, name);
    }
  }

  /** {@code null} when a rule grants the request, else what was asked, for the test's message. */
  public String refuses(String method, String pathAndQuery) {
    String[] problem = new String[1];
    Request r = Request.parse(method, pathAndQuery, problem);
    if (r == null) {
      return problem[0];
    }
    for (PolicyRule rule : rules) {
      if (matches(rule.getApiGroups(), r.group())
          && matches(rule.getResources(), r.resource())
          && matches(rule.getVerbs(), r.verb())
          && (rule.getResourceNames() == null
              || rule.getResourceNames().isEmpty()
              || (r.name() != null && rule.getResourceNames().contains(r.name())))) {
        return null;
      }
    }
    return r.toString();
  }

  private static boolean matches(List<String> granted, String asked) {
    return granted != null && (granted.contains("*") || granted.contains(asked));
  }
}
