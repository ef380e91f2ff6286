package dev.jobc.sidecar;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A cluster's objects as the API server keeps them, in memory, for the GitOps and Kueue scenarios:
 * each object's JSON and its {@code managedFields} (which manager owns which field, as JSON
 * pointers of leaves). Lists are merged item by item by position: the lists the scenarios write to
 * are keyed by name in the API ({@code listType=map}), and their items keep their positions. Writes
 * follow the API server's rules as far as the scenarios need them:
 *
 * <ul>
 *   <li>a write moves the fields it sets to its manager (kubernetes/kubernetes {@code
 *       staging/src/k8s.io/apiserver/pkg/endpoints/handlers/fieldmanager}); a server-side apply
 *       also removes the fields its manager owned alone and no longer applies ({@code
 *       structured-merge-diff} {@code merge/update.go}, "Apply");
 *   <li>a Job's {@code spec.template} is immutable (kubernetes/kubernetes {@code
 *       pkg/apis/batch/validation/validation.go}, {@code ValidateJobSpecUpdate}); the relaxation
 *       for a suspended Job's scheduling directives is not modelled;
 *   <li>a JobSet's {@code spec.replicatedJobs} is immutable, except the pod templates' labels,
 *       annotations, node selector, tolerations and scheduling gates while the JobSet is or becomes
 *       suspended (kubernetes-sigs/jobset v0.12.0 {@code pkg/webhooks/jobset_webhook.go}, {@code
 *       ValidateUpdate}: what Kueue changes at admission);
 *   <li>a Pod's {@code activeDeadlineSeconds} may be set or lowered, never raised
 *       (kubernetes/kubernetes {@code pkg/apis/core/validation/validation.go}, {@code
 *       ValidatePodUpdate}).
 * </ul>
 *
 * A refused write throws {@link Refused} and changes nothing. Mutating webhooks run through {@link
 * #onCreate}: what they set belongs to the creating request's manager, as in a cluster.
 */
final class LiveObjects implements GitOpsStandIn.Cluster {
  /** The API server refused a write. */
  static final class Refused extends RuntimeException {
    Refused(String message) {
      super(message);
    }
  }

  /** A mutating admission webhook: changes the object being created. */
  interface Webhook {
    void mutate(ObjectNode created);
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Map<String, ObjectNode> objects = new TreeMap<>();
  private final Map<String, Map<String, Set<String>>> owners = new TreeMap<>();
  private final java.util.List<Webhook> webhooks = new java.util.ArrayList<>();

  /** Adds a mutating webhook that sees every create. */
  void onCreate(Webhook webhook) {
    webhooks.add(webhook);
  }

  static String key(JsonNode o) {
    String v = o.path("apiVersion").asText();
    String group = v.contains("/") ? v.substring(0, v.indexOf('/')) : "";
    return group
        + "/"
        + o.path("kind").asText()
        + "/"
        + o.path("metadata").path("namespace").asText()
        + "/"
        + o.path("metadata").path("name").asText();
  }

  @Override
  public ObjectNode get(JsonNode like) {
    ObjectNode o = objects.get(key(like));
    return o == null ? null : o.deepCopy();
  }

  @Override
  public Map<String, Set<String>> managedFields(JsonNode like) {
    Map<String, Set<String>> out = new TreeMap<>();
    owners.getOrDefault(key(like), Map.of()).forEach((m, f) -> out.put(m, new TreeSet<>(f)));
    return out;
  }

  @Override
  public void create(JsonNode o, String manager) {
    String key = key(o);
    if (objects.containsKey(key)) {
      throw new Refused(key + " already exists");
    }
    ObjectNode created = o.deepCopy();
    for (Webhook w : webhooks) {
      w.mutate(created);
    }
    objects.put(key, created);
    Map<String, Set<String>> fields = new TreeMap<>();
    fields.put(manager, leaves(created));
    owners.put(key, fields);
  }

  @Override
  public void apply(JsonNode config, String manager) {
    String key = key(config);
    ObjectNode live = objects.get(key);
    if (live == null) {
      create(config, manager);
      return;
    }
    ObjectNode next = live.deepCopy();
    Set<String> applied = leaves(config);
    Map<String, Set<String>> fields = copy(owners.get(key));
    Set<String> before = fields.getOrDefault(manager, Set.of());
    for (String dropped : before) {
      if (!applied.contains(dropped) && ownedByOthers(fields, manager, dropped).isEmpty()) {
        remove(next, dropped);
      }
    }
    for (String leaf : applied) {
      set(next, leaf, at(config, leaf));
    }
    check(live, next);
    take(fields, manager, applied);
    fields.put(manager, new TreeSet<>(applied));
    objects.put(key, next);
    owners.put(key, fields);
  }

  @Override
  public void patch(JsonNode like, JsonNode mergePatch, String manager) {
    String key = key(like);
    ObjectNode live = objects.get(key);
    if (live == null) {
      throw new Refused(key + " not found");
    }
    ObjectNode next = live.deepCopy();
    Set<String> written = leaves(mergePatch);
    for (String leaf : written) {
      JsonNode value = at(mergePatch, leaf);
      if (value.isNull()) {
        remove(next, leaf);
      } else {
        set(next, leaf, value);
      }
    }
    check(live, next);
    Map<String, Set<String>> fields = copy(owners.get(key));
    take(fields, manager, written);
    objects.put(key, next);
    owners.put(key, fields);
  }

  /** The API server's and webhooks' refusals of an update from {@code live} to {@code next}. */
  private static void check(ObjectNode live, ObjectNode next) {
    String kind = live.path("kind").asText();
    String name = live.path("metadata").path("name").asText();
    if (kind.equals("Job")
        && !live.path("spec").path("template").equals(next.path("spec").path("template"))) {
      throw new Refused("Job.batch \"" + name + "\" is invalid: spec.template: field is immutable");
    }
    if (kind.equals("JobSet")) {
      boolean suspended =
          live.path("spec").path("suspend").asBoolean(false)
              || next.path("spec").path("suspend").asBoolean(false);
      if (!schedulingFree(live, suspended).equals(schedulingFree(next, suspended))) {
        throw new Refused(
            "JobSet \"" + name + "\" is invalid: spec.replicatedJobs: field is immutable");
      }
    }
    if (kind.equals("Pod")) {
      JsonNode was = live.path("spec").path("activeDeadlineSeconds");
      JsonNode now = next.path("spec").path("activeDeadlineSeconds");
      if (was.isNumber() && (!now.isNumber() || now.asLong() > was.asLong())) {
        throw new Refused(
            "Pod \""
                + name
                + "\" is invalid: spec.activeDeadlineSeconds: may not be raised or removed");
      }
    }
  }

  /** A JobSet's replicated Jobs, without what Kueue may change in a suspended one. */
  private static JsonNode schedulingFree(ObjectNode jobSet, boolean suspended) {
    JsonNode jobs = jobSet.path("spec").path("replicatedJobs").deepCopy();
    if (suspended && jobs.isArray()) {
      for (JsonNode j : jobs) {
        JsonNode template = j.path("template").path("spec").path("template");
        if (template instanceof ObjectNode t) {
          if (t.path("metadata") instanceof ObjectNode m) {
            m.remove("labels");
            m.remove("annotations");
          }
          if (t.path("spec") instanceof ObjectNode s) {
            s.remove(java.util.List.of("nodeSelector", "tolerations", "schedulingGates"));
          }
        }
      }
    }
    return jobs;
  }

  private static Map<String, Set<String>> copy(Map<String, Set<String>> fields) {
    Map<String, Set<String>> out = new TreeMap<>();
    if (fields != null) {
      fields.forEach((m, f) -> out.put(m, new TreeSet<>(f)));
    }
    return out;
  }

  /**
   * Gives {@code manager} the {@code written} fields, and takes them (and what is under them) from
   * others.
   */
  private static void take(Map<String, Set<String>> fields, String manager, Set<String> written) {
    for (Map.Entry<String, Set<String>> e : fields.entrySet()) {
      if (!e.getKey().equals(manager)) {
        e.getValue().removeIf(f -> written.stream().anyMatch(w -> covers(w, f) || covers(f, w)));
      }
    }
    fields.computeIfAbsent(manager, m -> new TreeSet<>()).addAll(written);
    fields.values().removeIf(Set::isEmpty);
  }

  private static Set<String> ownedByOthers(
      Map<String, Set<String>> fields, String manager, String field) {
    Set<String> out = new TreeSet<>();
    fields.forEach(
        (m, f) -> {
          if (!m.equals(manager)
              && f.stream().anyMatch(x -> covers(x, field) || covers(field, x))) {
            out.add(m);
          }
        });
    return out;
  }

  /** Whether pointer {@code outer} is {@code inner} or above it. */
  static boolean covers(String outer, String inner) {
    return inner.equals(outer) || inner.startsWith(outer + "/");
  }

  /** The JSON pointers of {@code node}'s leaves: values that are not objects, or empty objects. */
  static Set<String> leaves(JsonNode node) {
    Set<String> out = new TreeSet<>();
    leaves(node, "", out);
    return out;
  }

  private static void leaves(JsonNode node, String at, Set<String> out) {
    if (node.isObject() && node.size() > 0) {
      for (var e : node.properties()) {
        leaves(e.getValue(), at + "/" + e.getKey().replace("~", "~0").replace("/", "~1"), out);
      }
    } else if (node.isArray() && node.size() > 0) {
      for (int i = 0; i < node.size(); i++) {
        leaves(node.get(i), at + "/" + i, out);
      }
    } else if (!at.isEmpty()) {
      out.add(at);
    }
  }

  /** The value at {@code pointer}, or a missing node. */
  static JsonNode at(JsonNode node, String pointer) {
    return node.at(pointer);
  }

  /**
   * Sets {@code value} at {@code pointer}, making the objects and lists on the way (a numeric key
   * under a list is a position).
   */
  static void set(ObjectNode root, String pointer, JsonNode value) {
    String[] keys = pointer.substring(1).split("/", -1);
    JsonNode node = root;
    for (int i = 0; i < keys.length; i++) {
      String k = unescape(keys[i]);
      boolean last = i == keys.length - 1;
      JsonNode child =
          last
              ? value.deepCopy()
              : keys[i + 1].matches("[0-9]+") ? JSON.createArrayNode() : JSON.createObjectNode();
      if (node instanceof ArrayNode a) {
        int at = Integer.parseInt(k);
        while (a.size() <= at) {
          a.addNull();
        }
        if (last || !(a.get(at).isContainerNode())) {
          a.set(at, child);
        }
        node = a.get(at);
      } else {
        ObjectNode o = (ObjectNode) node;
        if (last || !(o.get(k) != null && o.get(k).isContainerNode())) {
          o.set(k, child);
        }
        node = o.get(k);
      }
    }
  }

  /** Removes the field at {@code pointer}, if there is one (a list's item is left: positions). */
  static void remove(ObjectNode root, String pointer) {
    String[] keys = pointer.substring(1).split("/", -1);
    JsonNode node = root;
    for (int i = 0; i < keys.length - 1; i++) {
      node = node.isArray() ? node.path(Integer.parseInt(keys[i])) : node.path(unescape(keys[i]));
    }
    if (node instanceof ObjectNode o) {
      o.remove(unescape(keys[keys.length - 1]));
    }
  }

  private static String unescape(String key) {
    return key.replace("~1", "/").replace("~0", "~");
  }

  /** Every object, by key, for assertions. */
  Map<String, ObjectNode> all() {
    Map<String, ObjectNode> out = new LinkedHashMap<>();
    objects.forEach((k, v) -> out.put(k, v.deepCopy()));
    return out;
  }
}
