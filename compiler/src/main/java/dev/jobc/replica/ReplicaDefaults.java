package dev.jobc.replica;

import dev.jobc.diag.Code;
import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Finding;
import dev.jobc.diag.Quoting;
import dev.jobc.k8s.PodTemplates;
import dev.jobc.model.ReplicaSpec;
import dev.jobc.model.RunPolicy;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.JobAnnotations;
import dev.jobc.validate.FieldRules;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What every {@code SetDefaults_<Kind>} of training-operator v1.9.0 does ({@code
 * pkg/apis/kubeflow.org/v1/<kind>_defaults.go}, {@code defaulting_utils.go}): {@code
 * cleanPodPolicy} None, replica keys normalised case-insensitively ({@code setTypeNameToCamelCase}:
 * {@code worker} → {@code Worker}), and per replica {@code replicas} 1, the kind's restart policy
 * and its named port appended to the kind's container (or container 0) unless that container has a
 * port of that name.
 *
 * <p>Unlike upstream, two keys that normalise to one type are an error (upstream keeps one and
 * drops the other, at Go's map order's whim), and a key that names no type is reported with the
 * webhook's wording ({@code validate<Kind>ReplicaSpecs}) and left out. A replica template's {@code
 * apiVersion} and {@code kind}, which the API server prunes (as in training-operator's own XGBoost
 * example), are dropped with a warning.
 */
public final class ReplicaDefaults {
  public static final String CLEAN_POD_POLICY = "None";

  private ReplicaDefaults() {}

  /**
   * The shared part of a defaulted job.
   *
   * @param given the replica specs as written, keys as the user wrote them; {@code null} when
   *     absent
   */
  public static ReplicaJob apply(
      Framework fw,
      ObjectMeta metadata,
      RunPolicy runPolicy,
      Map<String, ReplicaSpec> given,
      CompileOptions options) {
    ObjectMeta meta = metadata != null ? metadata : new ObjectMeta();
    String namespace = options.namespace(meta.getNamespace());
    JobAnnotations.Applied annotations = JobAnnotations.apply(meta, options);
    List<Finding> findings =
        annotations.findingsWithoutScaling(
            "a " + fw.kind() + " cannot scale: every replica's environment counts the whole job");
    RunPolicy run = runPolicy != null ? runPolicy : RunPolicy.empty();
    if (run.cleanPodPolicy() == null) {
      run = run.withCleanPodPolicy(CLEAN_POD_POLICY);
    }

    Map<String, ReplicaJob.Replica> replicas = null;
    if (given != null) {
      Map<String, ReplicaJob.Replica> found = new LinkedHashMap<>();
      for (Map.Entry<String, ReplicaSpec> e : given.entrySet()) {
        String key = e.getKey();
        FieldPath at = fw.replicaSpecsPath().key(key);
        String type = fw.type(key);
        if (type == null) {
          findings.add(FieldRules.notSupported(at, key, fw.types()));
          continue;
        }
        ReplicaJob.Replica first = found.get(type);
        if (first != null) {
          findings.add(duplicateKey(at, key, first.key(), type));
          continue;
        }
        found.put(type, new ReplicaJob.Replica(type, key, replica(fw, e.getValue(), at, findings)));
      }
      replicas = new LinkedHashMap<>();
      for (String type : fw.types()) {
        if (found.containsKey(type)) {
          replicas.put(type, found.get(type));
        }
      }
    }
    return new ReplicaJob(fw, meta, namespace, run, replicas, annotations.options(), findings);
  }

  /**
   * Two keys of the replica specs that name one replica {@code type} (keys are matched
   * case-insensitively: {@code setTypeNameToCamelCase}). TFJob's defaulting reports it here too.
   */
  public static Finding duplicateKey(FieldPath at, String key, String firstKey, String type) {
    return Finding.error(
        Code.DUPLICATE,
        at,
        "Duplicate value: "
            + Quoting.quote(key)
            + " and "
            + Quoting.quote(firstKey)
            + " are both the "
            + type
            + " replica type (keys are matched case-insensitively); training-operator"
            + " would keep one and drop the other");
  }

  private static ReplicaSpec replica(
      Framework fw, ReplicaSpec given, FieldPath at, List<Finding> findings) {
    ReplicaSpec r = given != null ? given : new ReplicaSpec(null, null, null);
    if (r.replicas() == null) {
      r = r.withReplicas(1);
    }
    if (r.restartPolicy() == null || r.restartPolicy().isEmpty()) {
      r = r.withRestartPolicy(fw.restartPolicy());
    }
    PodTemplateSpec template = withoutTypeFields(r.template(), at.child("template"), findings);
    return new ReplicaSpec(
        r.replicas(),
        withDefaultPort(fw.container(), fw.portName(), fw.port(), template),
        r.restartPolicy());
  }

  /**
   * The template without {@code apiVersion} and {@code kind}: a PodTemplateSpec has neither, and
   * the API server prunes them from a custom resource; jobc says so.
   */
  private static PodTemplateSpec withoutTypeFields(
      PodTemplateSpec template, FieldPath at, List<Finding> findings) {
    if (template == null || template.getAdditionalProperties().isEmpty()) {
      return template;
    }
    PodTemplateSpec copy = PodTemplates.copy(template);
    for (String field : List.copyOf(copy.getAdditionalProperties().keySet())) {
      copy.getAdditionalProperties().remove(field);
      findings.add(
          Finding.warning(
              at.child(field),
              "ignored: a pod template has no "
                  + field
                  + "; the API server prunes it, and so does jobc"));
    }
    return copy;
  }

  /**
   * {@code set<Kind>DefaultPort} (TFJob's {@code setTensorflowDefaultPort} too): the kind's {@code
   * container}, else container 0, gets the kind's port {@code portName: port} after its own ports
   * unless it has a port of that name. A copy: the user's template is never changed.
   */
  public static PodTemplateSpec withDefaultPort(
      String container, String portName, int port, PodTemplateSpec template) {
    if (template == null
        || template.getSpec() == null
        || template.getSpec().getContainers() == null
        || template.getSpec().getContainers().isEmpty()) {
      return template;
    }
    PodTemplateSpec copy = PodTemplates.copy(template);
    List<Container> containers = copy.getSpec().getContainers();
    Container target = containers.get(0);
    for (Container c : containers) {
      if (c != null && container.equals(c.getName())) {
        target = c;
        break;
      }
    }
    if (target == null) {
      return copy;
    }
    List<ContainerPort> ports =
        target.getPorts() == null ? List.of() : new ArrayList<>(target.getPorts());
    for (ContainerPort p : ports) {
      if (p != null && portName.equals(p.getName())) {
        return copy;
      }
    }
    ContainerPort added = new ContainerPort();
    added.setName(portName);
    added.setContainerPort(port);
    target.setPorts(PodTemplates.append(ports, added));
    return copy;
  }
}
