package dev.jobc.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobc.load.Document;
import dev.jobc.load.YamlLimits;
import dev.jobc.load.YamlLoader;
import dev.jobc.model.Source;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The objects of a previous render that the API server would refuse to update to a new one: a field
 * it holds immutable changed, so {@code kubectl apply}, an Argo CD sync and a Flux reconciliation
 * of the new render fail for that object once it exists in a cluster. The fields, from Kubernetes
 * 1.32's update validation ({@code ValidateJobSpecUpdate}, {@code ValidatePodSpecUpdate}, {@code
 * ValidateStatefulSetUpdate}, {@code ValidateServiceUpdate}):
 *
 * <ul>
 *   <li>Job: {@code spec.template}, {@code selector}, {@code completions}, {@code completionMode},
 *       {@code podFailurePolicy}, {@code podReplacementPolicy}, {@code managedBy};
 *   <li>Pod: all of {@code spec} but the containers' images, {@code activeDeadlineSeconds}, {@code
 *       tolerations} and {@code schedulingGates};
 *   <li>StatefulSet: {@code spec.selector}, {@code serviceName}, {@code podManagementPolicy},
 *       {@code volumeClaimTemplates};
 *   <li>Service: {@code spec.clusterIP};
 *   <li>JobSet: {@code spec.replicatedJobs}, {@code network}, {@code successPolicy}, {@code
 *       failurePolicy}, {@code managedBy} (kubernetes-sigs/jobset v0.12.0 {@code
 *       pkg/webhooks/jobset_webhook.go}, {@code ValidateUpdate}; it lets Kueue change a suspended
 *       JobSet's scheduling fields, which no render does).
 * </ul>
 *
 * A jobc upgrade or an option that changes what a Job's pod template holds (the sidecar image,
 * {@code --kubectl-image}, the cluster domain) is the usual cause; {@code jobc render -o} and
 * {@code --check} know the previous render, and say it with what to do (docs/gitops.md, "When a
 * render changes an existing Job").
 */
public final class RefusedUpdates {
  /** Where a GitOps user reads what to do about it. */
  static final String DOCS = "docs/gitops.md#when-a-render-changes-an-existing-job";

  private static final Map<String, List<String>> IMMUTABLE =
      Map.of(
          "batch/v1 Job",
          List.of(
              "template",
              "selector",
              "completions",
              "completionMode",
              "podFailurePolicy",
              "podReplacementPolicy",
              "managedBy"),
          "apps/v1 StatefulSet",
          List.of("selector", "serviceName", "podManagementPolicy", "volumeClaimTemplates"),
          "v1 Service",
          List.of("clusterIP"),
          "jobset.x-k8s.io/v1alpha2 JobSet",
          List.of("replicatedJobs", "network", "successPolicy", "failurePolicy", "managedBy"));

  /** What a Pod's update may change; the rest of its {@code spec} is fixed once it exists. */
  private static final Set<String> POD_MUTABLE =
      Set.of("activeDeadlineSeconds", "tolerations", "schedulingGates");

  private RefusedUpdates() {}

  /** One object an update would be refused for: which, and the first difference found. */
  public record Refusal(String file, String object, String field, String before, String after) {
    /** One line, as printed. */
    public String message() {
      return object
          + ": "
          + field
          + " changes ("
          + before
          + " -> "
          + after
          + "), and the API server refuses to change it in an existing "
          + object.substring(0, object.indexOf(' '))
          + "; if it exists in a cluster, applying this render fails there ("
          + DOCS
          + ")";
    }
  }

  /**
   * The objects in both renders (file name to text, one object per file; other files ignored) whose
   * immutable fields differ, in the order of the new render's files.
   */
  public static List<Refusal> between(Map<String, String> before, Map<String, String> after) {
    Map<String, Located> old = objects(before);
    List<Refusal> out = new ArrayList<>();
    for (Map.Entry<String, Located> e : objects(after).entrySet()) {
      Located previous = old.get(e.getKey());
      if (previous != null) {
        Refusal r = refusal(e.getValue().file(), e.getKey(), previous.root(), e.getValue().root());
        if (r != null) {
          out.add(r);
        }
      }
    }
    return out;
  }

  private static Refusal refusal(String file, String key, JsonNode before, JsonNode after) {
    String type = key.substring(0, key.indexOf(' ', key.indexOf(' ') + 1));
    String object = key.substring(key.indexOf(' ') + 1);
    if (type.equals("v1 Pod")) {
      return difference(
          file, object, "spec", strip(before.path("spec")), strip(after.path("spec")));
    }
    List<String> fields = IMMUTABLE.get(type);
    if (fields == null) {
      return null;
    }
    for (String field : fields) {
      Refusal r =
          difference(
              file,
              object,
              "spec." + field,
              before.path("spec").path(field),
              after.path("spec").path(field));
      if (r != null) {
        return r;
      }
    }
    return null;
  }

  /** A Pod's spec without what may change: its mutable fields and every container's image. */
  private static JsonNode strip(JsonNode spec) {
    if (!spec.isObject()) {
      return spec;
    }
    ObjectNode copy = ((ObjectNode) spec).deepCopy();
    copy.remove(POD_MUTABLE);
    for (String list : List.of("containers", "initContainers", "ephemeralContainers")) {
      copy.path(list).forEach(c -> ((ObjectNode) c).remove("image"));
    }
    return copy;
  }

  /** The first difference between {@code a} and {@code b} under {@code path}, or none. */
  private static Refusal difference(
      String file, String object, String path, JsonNode a, JsonNode b) {
    if (a.equals(b)) {
      return null;
    }
    if (a.isObject() && b.isObject()) {
      Set<String> names = new java.util.TreeSet<>();
      a.fieldNames().forEachRemaining(names::add);
      b.fieldNames().forEachRemaining(names::add);
      for (String n : names) {
        Refusal r = difference(file, object, path + "." + n, a.path(n), b.path(n));
        if (r != null) {
          return r;
        }
      }
    }
    if (a.isArray() && b.isArray() && a.size() == b.size()) {
      for (int i = 0; i < a.size(); i++) {
        JsonNode name = a.get(i).path("name");
        String item =
            name.isTextual() && name.equals(b.get(i).path("name")) ? name.asText() : "" + i;
        Refusal r = difference(file, object, path + "[" + item + "]", a.get(i), b.get(i));
        if (r != null) {
          return r;
        }
      }
    }
    String before = text(a);
    String after = text(b);
    // Long values are cut around their first difference, both at the same place, so that the
    // part that differs shows.
    int common = 0;
    while (common < before.length()
        && common < after.length()
        && before.charAt(common) == after.charAt(common)) {
      common++;
    }
    int from = common > SHOWN / 2 ? common - SHOWN / 2 : 0;
    return new Refusal(file, object, path, cut(before, from), cut(after, from));
  }

  /** The most characters of a value shown. */
  static final int SHOWN = 80;

  private static String text(JsonNode n) {
    if (n.isMissingNode()) {
      return "none";
    }
    return n.isTextual() ? n.asText() : n.toString();
  }

  private static String cut(String s, int from) {
    if (s.length() <= SHOWN && from == 0) {
      return s;
    }
    int start = Math.min(from, s.length());
    int end = Math.min(s.length(), start + SHOWN);
    return (start > 0 ? "..." : "") + s.substring(start, end) + (end < s.length() ? "..." : "");
  }

  private record Located(String file, JsonNode root) {}

  /** "apiVersion Kind namespace/name" to the object and its file, for each object of the files. */
  private static Map<String, Located> objects(Map<String, String> files) {
    YamlLoader loader = new YamlLoader(YamlLimits.defaults());
    Map<String, Located> out = new LinkedHashMap<>();
    for (Map.Entry<String, String> f : files.entrySet()) {
      if (!f.getKey().endsWith(".yaml")) {
        continue;
      }
      for (Document doc : loader.load(new Source(f.getKey(), f.getValue())).documents()) {
        JsonNode root = doc.root();
        String kind = root.path("kind").asText("");
        String name = root.path("metadata").path("name").asText("");
        if (kind.isEmpty() || name.isEmpty()) {
          continue;
        }
        String ns = root.path("metadata").path("namespace").asText("");
        out.put(
            root.path("apiVersion").asText("")
                + " "
                + kind
                + " "
                + (ns.isEmpty() ? "" : ns + "/")
                + name,
            new Located(f.getKey(), root));
      }
    }
    return out;
  }
}
