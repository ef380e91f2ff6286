package dev.jobc.trainer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobc.conventions.MpiLabels;
import dev.jobc.k8s.Metadata;
import dev.jobc.k8s.Quantities;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Builds the JobSet the Trainer controller (kubeflow/trainer v2.3.0) creates for a TrainJob: the
 * runtime's template with the runtime patches merged ({@code pkg/runtime/core/trainingruntime.go
 * newRuntimeInfo}), the pod counts and the ML policy's env ({@code plugins/torch}, {@code jax},
 * {@code xgboost}, {@code plainml}), and the TrainJob's overrides ({@code
 * plugins/jobset/builder.go}, {@code jobset.go Build}).
 */
final class TrainJobPlanner {
  static final String ANCESTOR = "trainer.kubeflow.org/trainjob-ancestor-step";
  static final String TRAINER = "trainer";
  static final String NODE = "node";
  static final String DATASET_INITIALIZER = "dataset-initializer";
  static final String MODEL_INITIALIZER = "model-initializer";

  /** {@code constants.ContainerTrainerPort}. */
  static final int TRAINER_PORT = 29500;

  /** {@code constants.JobCompletionIndexFieldPath}. */
  static final String COMPLETION_INDEX =
      "metadata.annotations['batch.kubernetes.io/job-completion-index']";

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private TrainJobPlanner() {}

  static TrainJobPlan plan(TrainJobModel model) {
    JsonNode template = model.runtime().spec().path("template");
    Map<String, String> labels = strings(template.path("metadata").path("labels"));
    Map<String, String> annotations = strings(template.path("metadata").path("annotations"));
    for (JsonNode patch : model.spec().path("runtimePatches")) {
      JsonNode meta = patch.path("trainingRuntimeSpec").path("template").path("metadata");
      labels.putAll(strings(meta.path("labels")));
      annotations.putAll(strings(meta.path("annotations")));
    }
    // jobc's mark on what it renders (the Trainer's JobSet carries the runtime's labels only).
    labels.put(MpiLabels.MANAGED_BY, MpiLabels.JOBC);
    annotations.putAll(Metadata.objectAnnotations(model.options()));
    ObjectMeta meta = Metadata.of(model.name(), model.namespace(), labels, Map.of());
    Metadata.annotate(meta, annotations);
    return new TrainJobPlan(meta, spec(model));
  }

  /** The JobSet's spec; also what the validator reads the replicated Jobs from. */
  static ObjectNode spec(TrainJobModel model) {
    JsonNode template = model.runtime().spec().path("template");
    ObjectNode spec =
        template.path("spec").isObject()
            ? ((ObjectNode) template.path("spec")).deepCopy()
            : NODES.objectNode();
    mergeRuntimePatches(model, spec);
    JsonNode mlPolicy = model.mlPolicy();
    JsonNode trainer = model.trainer();
    List<ObjectNode> jobs = replicatedJobs(spec);
    int[] counts = new int[jobs.size()];
    for (int i = 0; i < jobs.size(); i++) {
      ObjectNode job = jobs.get(i);
      // newRuntimeInfo: the pod count is the Job's parallelism, the ML policy's numNodes for the
      // trainer.
      int count = job.path("template").path("spec").path("parallelism").asInt(1);
      boolean trainerJob = TRAINER.equals(ancestor(job));
      if (trainerJob && !mlPolicy.isMissingNode()) {
        count = mlPolicy.path("numNodes").asInt(1);
      }
      boolean launcherAsNode =
          mlPolicy.path("mpi").path("runLauncherAsNode").asBoolean(false)
              && NODE.equals(job.path("name").asText());
      if (trainer.has("resourcesPerNode")
          && (trainerJob && !mlPolicy.isMissingNode() || launcherAsNode)) {
        ObjectNode node = container(job, "containers", NODE);
        if (node != null) {
          ObjectNode resources =
              node.path("resources").isObject()
                  ? (ObjectNode) node.get("resources")
                  : node.putObject("resources");
          StrategicMerge.merge(resources, trainer.get("resourcesPerNode"));
        }
      }
      counts[i] = Math.max(count, 1);
    }
    int trainerIndex = -1;
    for (int i = 0; i < jobs.size(); i++) {
      if (TRAINER.equals(ancestor(jobs.get(i)))) {
        trainerIndex = i;
        break;
      }
    }
    boolean torch = mlPolicy.has("torch");
    boolean jax = mlPolicy.has("jax");
    boolean xgboost = mlPolicy.has("xgboost");
    boolean plainMl = !torch && !jax && !mlPolicy.has("mpi");
    // Every ML plugin (torch.go, jax.go, xgboost.go, plainml.go EnforceMLPolicy): the TrainJob's
    // numNodes is the trainer's pod count.
    if (trainerIndex >= 0 && trainer.has("numNodes") && (torch || jax || xgboost || plainMl)) {
      counts[trainerIndex] = trainer.get("numNodes").asInt();
    }
    ObjectNode trainerContainer =
        trainerIndex >= 0 && !trainer.isMissingNode()
            ? container(jobs.get(trainerIndex), "containers", NODE)
            : null;
    if (trainerContainer != null) {
      int numNodes = counts[trainerIndex];
      String master = model.name() + "-" + NODE + "-0-0." + model.name();
      if (plainMl) {
        // plainml.go runs for xgboost too (it leaves out torch, mpi and jax): the TrainJob's env.
        upsertEnv(trainerContainer, trainer.path("env"));
      }
      if (torch) {
        upsertEnv(trainerContainer, trainer.path("env"));
        List<ObjectNode> pet = torchEnv(model, numNodes);
        upsertEnv(trainerContainer, pet);
        upsertEnv(trainerContainer, masterEnv(master));
        upsertPort(trainerContainer);
      }
      if (jax) {
        upsertEnv(
            trainerContainer,
            List.of(
                env("JAX_NUM_PROCESSES", Integer.toString(numNodes)),
                indexEnv("JAX_PROCESS_ID"),
                env("JAX_COORDINATOR_ADDRESS", master + ":" + TRAINER_PORT)));
        upsertPort(trainerContainer);
      }
      if (xgboost) {
        int gpus = gpus(resourcesPerNode(model, spec));
        int workers = numNodes * (gpus > 0 ? gpus : 1);
        upsertEnv(
            trainerContainer,
            List.of(
                env("DMLC_TRACKER_URI", master),
                env("DMLC_TRACKER_PORT", Integer.toString(TRAINER_PORT)),
                indexEnv("DMLC_TASK_ID"),
                env("DMLC_NUM_WORKER", Integer.toString(workers))));
        upsertPort(trainerContainer);
      }
    }
    if (torch) {
      // torch.go: envInjection targets get the PET_* and master env as well.
      String master = model.name() + "-" + NODE + "-0-0." + model.name();
      int numNodes = trainerIndex >= 0 ? counts[trainerIndex] : 1;
      for (JsonNode target : mlPolicy.path("torch").path("envInjection").path("targets")) {
        ObjectNode job = byName(jobs, target.path("jobName").asText());
        for (JsonNode name : target.path("containerNames")) {
          ObjectNode c = job == null ? null : container(job, "containers", name.asText());
          if (c == null && job != null) {
            c = container(job, "initContainers", name.asText());
          }
          if (c != null) {
            upsertEnv(c, torchEnv(model, numNodes));
            upsertEnv(c, masterEnv(master));
          }
        }
      }
    }
    // jobset.go SyncParallelCount: every Job runs its pod count at once.
    for (int i = 0; i < jobs.size(); i++) {
      ObjectNode jobSpec = jobSpec(jobs.get(i));
      jobSpec.put("parallelism", counts[i]);
      jobSpec.put("completions", counts[i]);
    }
    initializer(model, jobs, DATASET_INITIALIZER, "dataset");
    initializer(model, jobs, MODEL_INITIALIZER, "model");
    trainerOverrides(model, jobs);
    for (ObjectNode job : jobs) {
      if (!job.has("replicas")) {
        job.put("replicas", 1); // the CRD's default (jobset_types.go ReplicatedJob.Replicas)
      }
    }
    long deadline = model.spec().path("activeDeadlineSeconds").asLong(0);
    if (deadline > 0) {
      // jobc's stand-in for trainjob_controller.go reconcileDeadline (docs/trainjob.md).
      for (ObjectNode job : jobs) {
        ObjectNode jobSpec = jobSpec(job);
        long own = jobSpec.path("activeDeadlineSeconds").asLong(Long.MAX_VALUE);
        jobSpec.put("activeDeadlineSeconds", Math.min(own, deadline));
      }
    }
    // builder.go Suspend: the TrainJob's suspend, false by the CRD's default.
    spec.put("suspend", model.spec().path("suspend").asBoolean(false));
    return spec;
  }

  /** trainingruntime.go mergeRuntimePatches: each patch in order, the Jobs' order kept. */
  private static void mergeRuntimePatches(TrainJobModel model, ObjectNode spec) {
    List<String> order = new ArrayList<>();
    for (JsonNode job : spec.path("replicatedJobs")) {
      order.add(job.path("name").asText());
    }
    for (JsonNode patch : model.spec().path("runtimePatches")) {
      JsonNode specPatch = patch.path("trainingRuntimeSpec").path("template").path("spec");
      if (specPatch.isObject()) {
        StrategicMerge.merge(spec, specPatch);
      }
    }
    if (spec.path("replicatedJobs").isArray()) {
      List<JsonNode> jobs = new ArrayList<>();
      spec.get("replicatedJobs").forEach(jobs::add);
      jobs.sort(
          (a, b) ->
              Integer.compare(
                  position(order, a.path("name").asText()),
                  position(order, b.path("name").asText())));
      ArrayNode sorted = spec.putArray("replicatedJobs");
      jobs.forEach(sorted::add);
    }
  }

  private static int position(List<String> order, String name) {
    int i = order.indexOf(name);
    return i < 0 ? order.size() : i;
  }

  /** builder.go Initializer: storageUri as STORAGE_URI, the env, the Secret as envFrom. */
  private static void initializer(
      TrainJobModel model, List<ObjectNode> jobs, String ancestor, String field) {
    JsonNode init = model.spec().path("initializer").path(field);
    for (ObjectNode job : jobs) {
      if (!ancestor.equals(ancestor(job))) {
        continue;
      }
      job.put("replicas", 1);
      ObjectNode c = container(job, "containers", ancestor);
      if (c == null || init.isMissingNode() || init.isNull()) {
        continue;
      }
      if (init.path("storageUri").isTextual()) {
        upsertEnv(c, List.of(env("STORAGE_URI", init.get("storageUri").asText())));
      }
      upsertEnv(c, init.path("env"));
      if (init.path("secretRef").isObject()) {
        ArrayNode envFrom =
            c.path("envFrom").isArray() ? (ArrayNode) c.get("envFrom") : c.putArray("envFrom");
        envFrom
            .addObject()
            .putObject("secretRef")
            .put("name", init.get("secretRef").path("name").asText());
      }
    }
  }

  /** builder.go Trainer: image, command and args of the trainer's node container; its env. */
  private static void trainerOverrides(TrainJobModel model, List<ObjectNode> jobs) {
    JsonNode trainer = model.trainer();
    for (ObjectNode job : jobs) {
      if (!TRAINER.equals(ancestor(job))) {
        continue;
      }
      job.put("replicas", 1);
      ObjectNode c = container(job, "containers", NODE);
      if (c == null || trainer.isMissingNode()) {
        continue;
      }
      for (String f : List.of("image", "command", "args")) {
        if (trainer.has(f) && !trainer.get(f).isNull()) {
          c.set(f, trainer.get(f).deepCopy());
        }
      }
      upsertEnv(c, trainer.path("env"));
    }
  }

  /** torch.go: PET_NNODES, PET_NPROC_PER_NODE, PET_NODE_RANK. */
  private static List<ObjectNode> torchEnv(TrainJobModel model, int numNodes) {
    JsonNode trainer = model.trainer();
    String procs;
    if (trainer.has("numProcPerNode")) {
      procs = Integer.toString(trainer.get("numProcPerNode").asInt());
    } else {
      // torch.go EnforceMLPolicy: "auto", or with no GPU the CPUs per node (at least 1).
      JsonNode resources = resourcesPerNode(model, spec0(model));
      procs = gpus(resources) == 0 ? Integer.toString(Math.max(1, cpus(resources))) : "auto";
    }
    return List.of(
        env("PET_NNODES", Integer.toString(numNodes)),
        env("PET_NPROC_PER_NODE", procs),
        indexEnv("PET_NODE_RANK"));
  }

  private static List<ObjectNode> masterEnv(String master) {
    return List.of(
        env("PET_MASTER_ADDR", master), env("PET_MASTER_PORT", Integer.toString(TRAINER_PORT)));
  }

  /** The runtime's template after the patches and the resource merge, for the resource rules. */
  private static ObjectNode spec0(TrainJobModel model) {
    JsonNode template = model.runtime().spec().path("template").path("spec");
    ObjectNode spec = template.isObject() ? ((ObjectNode) template).deepCopy() : NODES.objectNode();
    mergeRuntimePatches(model, spec);
    return spec;
  }

  /**
   * runtime.go ExtractResourcePerNodeFromRuntime (the first {@code node} Job's or trainer's node
   * container), replaced by the TrainJob's resourcesPerNode when it has them.
   */
  private static JsonNode resourcesPerNode(TrainJobModel model, ObjectNode spec) {
    if (model.trainer().path("resourcesPerNode").isObject()) {
      return model.trainer().get("resourcesPerNode");
    }
    for (ObjectNode job : replicatedJobs(spec)) {
      if (NODE.equals(job.path("name").asText()) || TRAINER.equals(ancestor(job))) {
        ObjectNode c = container(job, "containers", NODE);
        if (c != null && c.path("resources").isObject()) {
          return c.get("resources");
        }
      }
    }
    return NODES.missingNode();
  }

  /** runtime.go GetNumGPUPerNode: the first resource named like "gpu", requests before limits. */
  static int gpus(JsonNode resources) {
    int n = gpuCount(resources.path("requests"));
    return n > 0 ? n : gpuCount(resources.path("limits"));
  }

  private static int gpuCount(JsonNode list) {
    for (var e : list.properties()) {
      if (e.getKey().toLowerCase(Locale.ROOT).contains("gpu")) {
        return value(e.getValue());
      }
    }
    return 0;
  }

  /** torch.go getNumCPUPerNode: the CPU request, else the limit, rounded up. */
  private static int cpus(JsonNode resources) {
    JsonNode request = resources.path("requests").path("cpu");
    if (request.isMissingNode() || value(request) == 0) {
      return resources.path("limits").has("cpu") ? value(resources.path("limits").get("cpu")) : 0;
    }
    return value(request);
  }

  /** resource.Quantity.Value(): rounded up to an integer. */
  private static int value(JsonNode quantity) {
    BigDecimal v = Quantities.value(quantity.asText());
    return v == null ? 0 : v.setScale(0, RoundingMode.CEILING).intValue();
  }

  static List<ObjectNode> replicatedJobs(ObjectNode spec) {
    List<ObjectNode> jobs = new ArrayList<>();
    for (JsonNode job : spec.path("replicatedJobs")) {
      if (job.isObject()) {
        jobs.add((ObjectNode) job);
      }
    }
    return jobs;
  }

  static String ancestor(JsonNode job) {
    return job.path("template").path("metadata").path("labels").path(ANCESTOR).asText(null);
  }

  private static ObjectNode byName(List<ObjectNode> jobs, String name) {
    for (ObjectNode job : jobs) {
      if (job.path("name").asText().equals(name)) {
        return job;
      }
    }
    return null;
  }

  static ObjectNode container(JsonNode job, String list, String name) {
    for (JsonNode c : job.path("template").path("spec").path("template").path("spec").path(list)) {
      if (c.isObject() && c.path("name").asText().equals(name)) {
        return (ObjectNode) c;
      }
    }
    return null;
  }

  private static ObjectNode jobSpec(ObjectNode job) {
    ObjectNode template =
        job.path("template").isObject()
            ? (ObjectNode) job.get("template")
            : job.putObject("template");
    return template.path("spec").isObject()
        ? (ObjectNode) template.get("spec")
        : template.putObject("spec");
  }

  private static ObjectNode env(String name, String value) {
    ObjectNode e = NODES.objectNode();
    e.put("name", name);
    e.put("value", value);
    return e;
  }

  private static ObjectNode indexEnv(String name) {
    ObjectNode e = NODES.objectNode();
    e.put("name", name);
    e.putObject("valueFrom").putObject("fieldRef").put("fieldPath", COMPLETION_INDEX);
    return e;
  }

  private static void upsertEnv(ObjectNode container, JsonNode envs) {
    List<ObjectNode> list = new ArrayList<>();
    for (JsonNode e : envs) {
      list.add((ObjectNode) e.deepCopy());
    }
    upsertEnv(container, list);
  }

  /** apply.go UpsertEnvVars: replaced in place by name, else appended. */
  private static void upsertEnv(ObjectNode container, List<ObjectNode> envs) {
    if (envs.isEmpty()) {
      return;
    }
    ArrayNode list =
        container.path("env").isArray()
            ? (ArrayNode) container.get("env")
            : container.putArray("env");
    for (ObjectNode e : envs) {
      int at = -1;
      for (int i = 0; i < list.size(); i++) {
        if (list.get(i).path("name").equals(e.path("name"))) {
          at = i;
          break;
        }
      }
      if (at >= 0) {
        list.set(at, e);
      } else {
        list.add(e);
      }
    }
  }

  /** apply.go UpsertPort: port 29500, unless the container has it. */
  private static void upsertPort(ObjectNode container) {
    ArrayNode ports =
        container.path("ports").isArray()
            ? (ArrayNode) container.get("ports")
            : container.putArray("ports");
    for (JsonNode p : ports) {
      if (p.path("containerPort").asInt() == TRAINER_PORT) {
        return;
      }
    }
    ports.addObject().put("containerPort", TRAINER_PORT);
  }

  private static Map<String, String> strings(JsonNode map) {
    Map<String, String> out = new LinkedHashMap<>();
    for (var e : map.properties()) {
      out.put(e.getKey(), e.getValue().asText());
    }
    return out;
  }
}
