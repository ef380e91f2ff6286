package dev.jobc.sidecar;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * What a GitOps tool does with the objects Git holds, by the tools' own rules:
 *
 * <ul>
 *   <li>{@link #fluxApply}, Flux's kustomize-controller (fluxcd/kustomize-controller {@code
 *       docs/spec/v1/kustomizations.md}, "Controlling the apply behavior of resources", and
 *       fluxcd/pkg {@code ssa/manager_apply.go}): a server-side dry-run of the whole set first, and
 *       nothing applied when the API server refuses one object (an immutable field); then each
 *       object server-side applied with ownership forced under field manager {@code
 *       kustomize-controller}, except that one annotated {@code kustomize.toolkit.fluxcd.io/ssa:
 *       IfNotPresent} is only created when missing (Flux 2.1 and later) and one annotated {@code
 *       ssa: Ignore} is skipped;
 *   <li>{@link #argoSync}, Argo CD's sync, which self-heal runs whenever the live state differs
 *       from Git's (argoproj/argo-cd {@code controller/appcontroller.go}, {@code
 *       docs/user-guide/auto_sync.md}): a missing object is created; before comparing, every {@code
 *       ignoreDifferences} entry that matches the object by group, kind and, when given, name and
 *       namespace deletes its {@code jsonPointers} and {@code jqPathExpressions} from both the live
 *       and the desired object, whoever wrote the field ({@code
 *       util/argo/normalizers/diff_normalizer.go}; the expressions run in the real {@code jq} as
 *       {@code del(EXPR)}, as Argo CD runs them in gojq), and its {@code managedFieldsManagers}
 *       delete the fields those managers own in the live object's {@code managedFields} ({@code
 *       util/argo/managedfields/managed_fields.go}); a difference in what is left syncs the object.
 *       With {@code RespectIgnoreDifferences=true} the sync first gives the desired object the live
 *       values of the ignored fields ({@code docs/user-guide/sync-options.md}, "Respect Ignore
 *       Difference Configs"; {@code controller/sync.go}); without it, Git's whole object is
 *       applied.
 * </ul>
 *
 * Argo CD's comparison looks at the fields Git sets (a field only the cluster added is no
 * difference, as in its three-way diff); its removal of fields Git dropped is not modelled. {@link
 * #errors} lists the syncs the API server refused: the tool would report them and retry.
 */
public final class GitOpsStandIn {
  public static final String FLUX = "kustomize-controller";
  public static final String ARGO = "argocd-controller";
  public static final String JQ = "jq";

  /** The cluster the tools write to. */
  interface Cluster {
    /** The live object named like {@code like}, or {@code null}. */
    ObjectNode get(JsonNode like);

    /** The fields each manager owns in the live object, as JSON pointers. */
    Map<String, Set<String>> managedFields(JsonNode like);

    void create(JsonNode o, String manager);

    /** A server-side apply with ownership forced. */
    void apply(JsonNode config, String manager);

    /** A JSON merge patch. */
    void patch(JsonNode like, JsonNode mergePatch, String manager);
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Cluster cluster;

  /** Syncs that failed: the tool would report them and retry for ever. */
  public final List<String> errors = new ArrayList<>();

  /** How many objects each tool wrote to after their creation, by tool. */
  public final Map<String, Integer> writes = new java.util.TreeMap<>();

  public GitOpsStandIn(Cluster cluster) {
    this.cluster = cluster;
  }

  /** The tools against {@link ApiStandIn}'s objects. */
  public GitOpsStandIn(ApiStandIn api) {
    this(new OnApiStandIn(api));
  }

  public static List<JsonNode> trees(List<HasMetadata> rendered) {
    List<JsonNode> out = new ArrayList<>();
    for (HasMetadata o : rendered) {
      try {
        out.add(JSON.readTree(RenderedJob.YAML.asJson(o)));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return out;
  }

  public void fluxApply(List<HasMetadata> rendered) {
    flux(trees(rendered));
  }

  public void argoSelfHeal(List<HasMetadata> rendered) {
    argoSync(trees(rendered), GitOpsRules.recipe(GitOpsRules.snippet(GitOpsRules.root())));
  }

  /** One reconciliation of kustomize-controller over {@code rendered}. */
  public void flux(List<JsonNode> rendered) {
    List<JsonNode> toApply = new ArrayList<>();
    for (JsonNode o : rendered) {
      String ssa = o.path("metadata").path("annotations").path(GitOpsRules.FLUX_SSA).asText("");
      if (ssa.equalsIgnoreCase("Ignore")) {
        continue;
      }
      if (cluster.get(o) == null || !ssa.equalsIgnoreCase("IfNotPresent")) {
        toApply.add(o);
      }
    }
    // The dry-run of the whole set: one refusal stops every apply.
    List<String> refused = new ArrayList<>();
    for (JsonNode o : toApply) {
      ObjectNode live = cluster.get(o);
      if (live != null) {
        try {
          LiveObjects scratch = new LiveObjects();
          scratch.create(live, "live");
          scratch.apply(o, FLUX);
        } catch (LiveObjects.Refused e) {
          refused.add(FLUX + " dry-run on " + what(o) + ": " + e.getMessage());
        }
      }
    }
    if (!refused.isEmpty()) {
      errors.addAll(refused);
      return;
    }
    for (JsonNode o : toApply) {
      boolean existed = cluster.get(o) != null;
      ObjectNode before = existed ? cluster.get(o) : null;
      cluster.apply(o, FLUX);
      if (existed && !before.equals(cluster.get(o))) {
        writes.merge(FLUX, 1, Integer::sum);
      }
    }
  }

  /** One Argo CD sync (as self-heal runs it) of {@code rendered} under {@code recipe}. */
  public void argoSync(List<JsonNode> rendered, GitOpsRules.Recipe recipe) {
    for (JsonNode desired : rendered) {
      ObjectNode live = cluster.get(desired);
      if (live == null) {
        cluster.create(desired, ARGO);
        continue;
      }
      List<GitOpsRules.Entry> entries = matching(recipe.entries(), desired);
      Set<String> managers = new TreeSet<>();
      entries.forEach(e -> managers.addAll(e.managers()));
      Set<String> managed = new TreeSet<>();
      cluster
          .managedFields(desired)
          .forEach(
              (manager, fields) -> {
                if (managers.contains(manager)) {
                  managed.addAll(fields);
                }
              });
      ObjectNode wantNormal = normalize(desired, entries, managed);
      ObjectNode haveNormal = normalize(live, entries, managed);
      if (!differs(wantNormal, haveNormal)) {
        continue;
      }
      JsonNode toApply = desired;
      if (recipe.respectIgnoreDifferences()) {
        // The live values of what the normalization removed from the live object.
        ObjectNode patched = wantNormal.deepCopy();
        Set<String> kept = LiveObjects.leaves(haveNormal);
        for (String leaf : LiveObjects.leaves(live)) {
          if (!kept.contains(leaf) && !leaf.startsWith("/status")) {
            LiveObjects.set(patched, leaf, live.at(leaf));
          }
        }
        toApply = patched;
      }
      ObjectNode change = JSON.createObjectNode();
      for (String leaf : LiveObjects.leaves(toApply)) {
        if (!leaf.startsWith("/status") && !toApply.at(leaf).equals(live.at(leaf))) {
          LiveObjects.set(change, leaf, toApply.at(leaf));
        }
      }
      if (change.isEmpty()) {
        continue;
      }
      try {
        cluster.patch(desired, change, ARGO);
        writes.merge(ARGO, 1, Integer::sum);
      } catch (LiveObjects.Refused | KubernetesClientException e) {
        errors.add(ARGO + " on " + what(desired) + ": " + e.getMessage());
      }
    }
  }

  /** The entries that apply to {@code o}: group, kind, and name and namespace when given. */
  public static List<GitOpsRules.Entry> matching(List<GitOpsRules.Entry> entries, JsonNode o) {
    String v = o.path("apiVersion").asText();
    String group = v.contains("/") ? v.substring(0, v.indexOf('/')) : "";
    List<GitOpsRules.Entry> out = new ArrayList<>();
    for (GitOpsRules.Entry e : entries) {
      if (e.group().equals(group)
          && e.kind().equals(o.path("kind").asText())
          && (e.name() == null || e.name().equals(o.path("metadata").path("name").asText()))
          && (e.namespace() == null
              || e.namespace().equals(o.path("metadata").path("namespace").asText()))) {
        out.add(e);
      }
    }
    return out;
  }

  /** {@code o} without what {@code entries} ignore and without the {@code managed} fields. */
  public static ObjectNode normalize(
      JsonNode o, List<GitOpsRules.Entry> entries, Set<String> managed) {
    ObjectNode out = o.deepCopy();
    out.remove("status");
    for (GitOpsRules.Entry e : entries) {
      for (String pointer : e.jsonPointers()) {
        LiveObjects.remove(out, pointer);
      }
    }
    for (String field : managed) {
      LiveObjects.remove(out, field);
    }
    List<String> jq = new ArrayList<>();
    entries.forEach(e -> e.jqPathExpressions().forEach(x -> jq.add("del(" + x + ")")));
    return jq.isEmpty() ? out : (ObjectNode) jq(String.join(" | ", jq), out);
  }

  /** Runs {@code program} in the real jq over {@code input}. */
  public static JsonNode jq(String program, JsonNode input) {
    try {
      Process p = new ProcessBuilder(JQ, "-c", program).redirectErrorStream(false).start();
      try (var in = p.getOutputStream()) {
        in.write(JSON.writeValueAsBytes(input));
      }
      byte[] out = p.getInputStream().readAllBytes();
      String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw new AssertionError("jq " + program + " failed: " + err);
      }
      return JSON.readTree(out);
    } catch (IOException e) {
      throw new AssertionError(
          "cannot run jq (Debian package jq; .ci/run installs it): " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** Whether a field {@code want} sets has another value in {@code have}. */
  private static boolean differs(JsonNode want, JsonNode have) {
    for (String leaf : LiveObjects.leaves(want)) {
      if (!want.at(leaf).equals(have.at(leaf))) {
        return true;
      }
    }
    return false;
  }

  private static String what(JsonNode o) {
    return o.path("kind").asText() + " " + o.path("metadata").path("name").asText();
  }

  /** {@link Cluster} over {@link ApiStandIn}: its CRUD objects and its record of managers. */
  private record OnApiStandIn(ApiStandIn api) implements Cluster {
    private HasMetadata object(JsonNode o) {
      return RenderedJob.YAML.unmarshal(o.toString());
    }

    @Override
    public ObjectNode get(JsonNode like) {
      HasMetadata live = api.admin.resource(object(like)).get();
      return live == null ? null : (ObjectNode) trees(List.of(live)).get(0);
    }

    @Override
    public Map<String, Set<String>> managedFields(JsonNode like) {
      HasMetadata o = object(like);
      String key =
          GitOpsRules.group(o)
              + "/"
              + o.getKind().toLowerCase(Locale.ROOT)
              + "s/"
              + o.getMetadata().getName();
      return api.managedFields.getOrDefault(key, Map.of());
    }

    @Override
    public void create(JsonNode o, String manager) {
      api.admin.resource(object(o)).create(); // who created it matters to no rule here
    }

    @Override
    public void apply(JsonNode config, String manager) {
      ObjectNode live = get(config);
      if (live == null) {
        create(config, manager);
        return;
      }
      ObjectNode change = JSON.createObjectNode();
      for (String leaf : LiveObjects.leaves(config)) {
        if (!leaf.startsWith("/status") && !config.at(leaf).equals(live.at(leaf))) {
          LiveObjects.set(change, leaf, config.at(leaf));
        }
      }
      if (!change.isEmpty()) {
        patch(config, change, manager);
      }
    }

    @Override
    public void patch(JsonNode like, JsonNode mergePatch, String manager) {
      LiveObjects check = new LiveObjects();
      check.create(get(like), "live");
      check.patch(like, mergePatch, manager); // the API server's refusals
      api.admin
          .resource(object(like))
          .patch(
              new PatchContext.Builder()
                  .withPatchType(PatchType.JSON_MERGE)
                  .withFieldManager(manager)
                  .build(),
              mergePatch.toString());
    }
  }
}
