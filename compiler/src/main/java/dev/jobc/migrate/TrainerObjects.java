package dev.jobc.migrate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Finding;
import dev.jobc.jobset.JobSetRules;
import dev.jobc.k8s.GangScheduling;
import dev.jobc.options.CompileOptions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Trainer v2.3.0 objects a migration writes ({@code pkg/apis/trainer/v1alpha1}): the TrainJob
 * and, when the job needs one, the TrainingRuntime {@code <job>-runtime} in its namespace.
 */
final class TrainerObjects {
  static final String API_VERSION = "trainer.kubeflow.org/v1alpha1";

  /** {@code constants.LabelTrainJobAncestor}, {@code AncestorTrainer}. */
  static final String ANCESTOR = "trainer.kubeflow.org/trainjob-ancestor-step";

  static final String TRAINER = "trainer";

  /** {@code constants.Node}: the trainer's container and the MPI nodes' Job. */
  static final String NODE = "node";

  static final String LAUNCHER = "launcher";

  /** The label Trainer's own runtimes carry ({@code manifests/base/runtimes/*.yaml}). */
  static final String FRAMEWORK_LABEL = "trainer.kubeflow.org/framework";

  private TrainerObjects() {}

  /** The TrainingRuntime a job of this name gets of its own. */
  static String runtimeName(String job) {
    return job + "-runtime";
  }

  /**
   * A pod's host name in the JobSet of TrainJob {@code job}: pod {@code index} of the single
   * replica of replicated Job {@code rjob}, in the subdomain named as the job ({@code jobset.go
   * IdentifyPodNetwork}).
   */
  static String host(String job, String rjob, int index) {
    return job + "-" + rjob + "-0-" + index + "." + job;
  }

  /**
   * The JobSet webhook's name rules on the JobSet of TrainJob {@code name}, whose replicated Jobs
   * (Indexed, one child Job each) run {@code pods} pods by name ({@code JobSetRules}), with the
   * job's labels and options.
   */
  static List<Finding> checkJobSet(
      String name, Map<String, Integer> pods, JsonNode root, CompileOptions options) {
    List<JobSetRules.Shape> shapes = new ArrayList<>();
    pods.forEach((job, count) -> shapes.add(new JobSetRules.Shape(job, Math.max(count, 1), true)));
    Map<String, String> labels = new LinkedHashMap<>();
    for (var e : root.path("metadata").path("labels").properties()) {
      labels.put(e.getKey(), e.getValue().asText());
    }
    List<Finding> out = new ArrayList<>();
    JobSetRules.check(name, shapes, shapes.size(), labels, options, out);
    return out;
  }

  /**
   * A pod template as written without {@code apiVersion} and {@code kind}, which the API server
   * prunes from a template (and the runtime's schema refuses), with a warning at each, as jobc
   * render warns of them.
   */
  static ObjectNode podTemplate(JsonNode root, FieldPath template, List<Finding> findings) {
    ObjectNode pod = (ObjectNode) Trees.withoutNulls(Trees.at(root, template));
    for (String field : List.of("apiVersion", "kind")) {
      if (pod.remove(field) != null) {
        findings.add(
            Finding.warning(
                template.child(field),
                "left out: a pod template has no " + field + "; the API server prunes it"));
      }
    }
    return pod;
  }

  /**
   * The TrainJob: the v1 job's name, namespace, labels and annotations; {@code runtimeRef}; the
   * trainer; and what {@code policy} keeps of the run policy.
   */
  static ObjectNode trainJob(
      JsonNode root,
      String namespace,
      ObjectNode runtimeRef,
      ObjectNode trainer,
      JobPolicy policy) {
    ObjectNode out = Trees.NODES.objectNode();
    out.put("apiVersion", API_VERSION);
    out.put("kind", "TrainJob");
    out.set("metadata", metadata(root, root.path("metadata").path("name").asText(), namespace));
    ObjectNode spec = out.putObject("spec");
    spec.set("runtimeRef", runtimeRef);
    if (!trainer.isEmpty()) {
      spec.set("trainer", trainer);
    }
    if (policy.suspend() != null) {
      spec.put("suspend", policy.suspend());
    }
    if (policy.activeDeadlineSeconds() != null) {
      spec.put("activeDeadlineSeconds", policy.activeDeadlineSeconds());
    }
    if (policy.managedBy() != null) {
      spec.put("managedBy", policy.managedBy());
    }
    return out;
  }

  /** {@code runtimeRef} to the TrainingRuntime in the TrainJob's namespace. */
  static ObjectNode ownRuntimeRef(String job) {
    ObjectNode ref = Trees.NODES.objectNode();
    ref.put("name", runtimeName(job));
    ref.put("kind", "TrainingRuntime");
    return ref;
  }

  /** {@code runtimeRef} to a ClusterTrainingRuntime, the CRD's default kind. */
  static ObjectNode clusterRuntimeRef(String name) {
    ObjectNode ref = Trees.NODES.objectNode();
    ref.put("name", name);
    return ref;
  }

  /**
   * The TrainingRuntime {@code <job>-runtime}: {@code mlPolicy}, the gang policy, and the JobSet
   * template of {@code replicatedJobs} (with {@code jobSetSpec}'s other fields).
   */
  static ObjectNode runtime(
      JsonNode root,
      String namespace,
      String framework,
      ObjectNode mlPolicy,
      JobPolicy policy,
      ObjectNode jobSetSpec,
      ArrayNode replicatedJobs) {
    ObjectNode out = Trees.NODES.objectNode();
    out.put("apiVersion", API_VERSION);
    out.put("kind", "TrainingRuntime");
    ObjectNode meta = out.putObject("metadata");
    meta.put("name", runtimeName(root.path("metadata").path("name").asText()));
    if (namespace != null) {
      meta.put("namespace", namespace);
    }
    meta.putObject("labels").put(FRAMEWORK_LABEL, framework);
    ObjectNode spec = out.putObject("spec");
    spec.set("mlPolicy", mlPolicy);
    if (policy.podGroupPolicy() != null) {
      spec.set("podGroupPolicy", policy.podGroupPolicy());
    }
    ObjectNode template = spec.putObject("template");
    if (policy.volcanoQueue() != null) {
      // volcano.go Build: the queue is the runtime template's annotation.
      template
          .putObject("metadata")
          .putObject("annotations")
          .put(GangScheduling.QUEUE_ANNOTATION, policy.volcanoQueue());
    }
    ObjectNode js = jobSetSpec.deepCopy();
    js.set("replicatedJobs", replicatedJobs);
    template.set("spec", js);
    return out;
  }

  /**
   * A replicated Job of a runtime: {@code name}, the Job it waits for to be Ready ({@code
   * readyFirst}, or {@code null}), the ancestor label when it is the trainer, the backoff limit
   * ({@code null} for Kubernetes' default), and the pod template, whose pods restart as {@code
   * restartPolicy} says ({@link RestartPolicies}).
   */
  static ObjectNode replicatedJob(
      String name,
      String readyFirst,
      boolean trainer,
      Integer backoffLimit,
      String restartPolicy,
      ObjectNode podTemplate) {
    ObjectNode job = Trees.NODES.objectNode();
    job.put("name", name);
    if (readyFirst != null) {
      job.putArray("dependsOn").addObject().put("name", readyFirst).put("status", "Ready");
    }
    ObjectNode template = job.putObject("template");
    if (trainer) {
      template.putObject("metadata").putObject("labels").put(ANCESTOR, TRAINER);
    }
    ObjectNode spec = template.putObject("spec");
    if (backoffLimit != null) {
      spec.put("backoffLimit", backoffLimit);
    }
    RestartPolicies.exitCodes(spec, restartPolicy, NODE);
    Trees.object(podTemplate, "spec")
        .put("restartPolicy", RestartPolicies.podPolicy(restartPolicy));
    spec.set("template", podTemplate);
    return job;
  }

  private static ObjectNode metadata(JsonNode root, String name, String namespace) {
    ObjectNode meta = Trees.NODES.objectNode();
    meta.put("name", name);
    if (namespace != null) {
      meta.put("namespace", namespace);
    }
    JsonNode from = Trees.withoutNulls(root.path("metadata"));
    for (String field : List.of("labels", "annotations")) {
      if (from.path(field).isObject() && !from.get(field).isEmpty()) {
        meta.set(field, from.get(field));
      }
    }
    return meta;
  }
}
