package dev.jobc.sidecar;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a GitOps tool does to objects of Git that are already in the cluster, against the stand-in
 * API:
 *
 * <ul>
 *   <li>{@link #fluxApply}: Flux's kustomize-controller applies every object server-side with
 *       ownership forced, except that one with {@code kustomize.toolkit.fluxcd.io/ssa:
 *       IfNotPresent} is only created when missing;
 *   <li>{@link #argoSelfHeal}: Argo CD creates what is missing and, where a live object's fields
 *       differ from Git's, applies Git's values, except for the fields the documented {@code
 *       ignoreDifferences} entries leave to their managers ({@code managedFieldsManagers}, as the
 *       stand-in recorded who set what), which {@code RespectIgnoreDifferences=true} keeps.
 * </ul>
 *
 * The stand-in API checks no field; the one rule that matters here is modelled: the API server
 * refuses to raise a pod's {@code activeDeadlineSeconds} (it may only be set or lowered), which
 * fails that sync. {@link #errors} lists what failed.
 */
final class GitOpsStandIn {
  static final String FLUX = "kustomize-controller";
  static final String ARGO = "argocd-controller";

  private final ApiStandIn api;
  private final ObjectMapper json = new ObjectMapper();

  /** Syncs that failed: the tool would report them and retry for ever. */
  final List<String> errors = new ArrayList<>();

  GitOpsStandIn(ApiStandIn api) {
    this.api = api;
  }

  void fluxApply(List<HasMetadata> rendered) {
    for (HasMetadata o : rendered) {
      HasMetadata live = api.admin.resource(o).get();
      if (live == null) {
        create(o, FLUX);
      } else if (!"IfNotPresent".equals(annotation(o, GitOpsRules.FLUX_SSA))) {
        apply(o, live, FLUX, Set.of());
      }
    }
  }

  void argoSelfHeal(List<HasMetadata> rendered) {
    for (HasMetadata o : rendered) {
      HasMetadata live = api.admin.resource(o).get();
      if (live == null) {
        create(o, ARGO);
        continue;
      }
      Set<String> ignored = new TreeSet<>();
      for (GitOpsRules.Entry e : GitOpsRules.documented()) {
        if (e.group().equals(GitOpsRules.group(o)) && e.kind().equals(o.getKind())) {
          String key =
              GitOpsRules.group(o)
                  + "/"
                  + o.getKind().toLowerCase(Locale.ROOT)
                  + "s/"
                  + o.getMetadata().getName();
          for (String manager : e.managers()) {
            ignored.addAll(
                api.managedFields.getOrDefault(key, Map.of()).getOrDefault(manager, Set.of()));
          }
        }
      }
      apply(o, live, ARGO, ignored);
    }
  }

  private void create(HasMetadata o, String manager) {
    api.admin.resource(o).create(); // created by the test admin: who created it matters to no rule
  }

  /** Applies {@code desired}'s values where {@code live} differs, outside {@code ignored}. */
  private void apply(HasMetadata desired, HasMetadata live, String manager, Set<String> ignored) {
    JsonNode want = json.valueToTree(desired);
    JsonNode have = json.valueToTree(live);
    Map<String, JsonNode> changes = new LinkedHashMap<>();
    differences(want, have, "", ignored, changes);
    changes.remove("/status");
    if (changes.isEmpty()) {
      return;
    }
    String what = manager + " on " + desired.getKind() + " " + desired.getMetadata().getName();
    if (desired instanceof Pod && changes.containsKey("/spec/activeDeadlineSeconds")) {
      Long now = ((Pod) live).getSpec().getActiveDeadlineSeconds();
      long asked = changes.get("/spec/activeDeadlineSeconds").asLong();
      if (now != null && asked > now) {
        errors.add(
            what
                + ": the API server refuses spec.activeDeadlineSeconds "
                + asked
                + " (it may only be lowered, from "
                + now
                + ")");
        return;
      }
    }
    ObjectNode patch = json.createObjectNode();
    changes.forEach((path, value) -> put(patch, path, value));
    try {
      api.admin
          .resource(desired)
          .patch(
              new PatchContext.Builder()
                  .withPatchType(PatchType.JSON_MERGE)
                  .withFieldManager(manager)
                  .build(),
              patch.toString());
    } catch (KubernetesClientException e) {
      errors.add(what + ": " + e.getMessage());
    }
  }

  private static void differences(
      JsonNode want, JsonNode have, String at, Set<String> ignored, Map<String, JsonNode> out) {
    for (String i : ignored) {
      if (at.equals(i) || at.startsWith(i + "/")) {
        return;
      }
    }
    if (want.isObject() && have != null && have.isObject()) {
      for (var e : want.properties()) {
        String key = e.getKey().replace("~", "~0").replace("/", "~1");
        differences(e.getValue(), have.get(e.getKey()), at + "/" + key, ignored, out);
      }
    } else if (!want.equals(have)) {
      out.put(at, want);
    }
  }

  private static void put(ObjectNode patch, String path, JsonNode value) {
    String[] keys = path.substring(1).split("/");
    ObjectNode node = patch;
    for (int i = 0; i < keys.length - 1; i++) {
      node =
          node.has(unescape(keys[i]))
              ? (ObjectNode) node.get(unescape(keys[i]))
              : node.putObject(unescape(keys[i]));
    }
    node.set(unescape(keys[keys.length - 1]), value);
  }

  private static String unescape(String key) {
    return key.replace("~1", "/").replace("~0", "~");
  }

  private static String annotation(HasMetadata o, String name) {
    Map<String, String> a = o.getMetadata().getAnnotations();
    return a == null ? null : a.get(name);
  }
}
