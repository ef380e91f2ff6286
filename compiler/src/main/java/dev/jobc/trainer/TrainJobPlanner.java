package dev.jobc.trainer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobc.conventions.MpiLabels;
import dev.jobc.jobset.JobSetRules;
import dev.jobc.k8s.GangPlan;
import dev.jobc.k8s.Metadata;
import dev.jobc.k8s.Quantities;
import dev.jobc.options.OptionTable;
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
  static final String LAUNCHER = "launcher";

  /** {@code constants.MPIHostfileConfigMapSuffix}. */
  static final String HOSTFILE_SUFFIX = "-mpi-hostfile";

  static final String DATASET_INITIALIZER = "dataset-initializer";
  static final String MODEL_INITIALIZER = "model-initializer";

  /** {@code constants.ContainerTrainerPort}. */
  static final int TRAINER_PORT = 29500;

  /** {@code constants.JobCompletionIndexFieldPath}. */
  static final String COMPLETION_INDEX =
      "metadata.annotations['batch.kubernetes.io/job-completion-index']";

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /**
   * The labels Kueue reads from the object it admits: the LocalQueue (kueue v0.19.2 {@code
   * pkg/controller/constants}, {@code QueueLabel}) and the WorkloadPriorityClass ({@code
   * WorkloadPriorityClassLabel}).
   */
  private static final List<String> KUEUE_LABELS =
      List.of(MpiLabels.KUEUE_QUEUE_NAME, "kueue.x-k8s.io/priority-class");

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
    Map<String, String> propagated = new LinkedHashMap<>(annotations);
    // jobc's mark on what it renders (the Trainer's JobSet carries the runtime's labels only).
    labels.put(MpiLabels.MANAGED_BY, MpiLabels.JOBC);
    // At run time Kueue admits the TrainJob (kueue v0.19.2 pkg/controller/jobs/trainjob) and the
    // controller's JobSet carries none of its labels; here the JobSet is what Kueue admits (its
    // jobset integration), so it takes the labels and annotations Kueue reads from that object.
    for (String kueue : KUEUE_LABELS) {
      String value = model.labels().get(kueue);
      if (value != null) {
        labels.put(kueue, value);
      }
    }
    annotations.putAll(model.annotations());
    annotations.putAll(Metadata.objectAnnotations(model.options()));
    ObjectMeta meta = Metadata.of(model.name(), model.namespace(), labels, Map.of());
    Metadata.annotate(meta, annotations);
    ObjectNode spec = spec(model);
    String hostfile = hostfile(model, spec);
    ObjectMeta hostfileMeta = null;
    if (hostfile != null) {
      // mpi.go buildHostFileConfigMap, without the owner reference (no TrainJob object to own it).
      hostfileMeta =
          Metadata.of(
              model.name() + HOSTFILE_SUFFIX,
              model.namespace(),
              Map.of(MpiLabels.MANAGED_BY, MpiLabels.JOBC),
              Metadata.objectAnnotations(model.options()));
    }
    // The gang plugins read the propagated annotations, before jobc's own are added.
    GangPlan gang = TrainJobPodGroup.plan(model, spec, propagated);
    ObjectMeta groupMeta = null;
    if (gang != null) {
      // coscheduling.go and volcano.go Build, without the owner reference.
      groupMeta =
          Metadata.of(
              model.name(),
              model.namespace(),
              Map.of(MpiLabels.MANAGED_BY, MpiLabels.JOBC),
              Metadata.objectAnnotations(model.options()));
    }
    JsonNode topology =
        model.runtime().spec().path("podGroupPolicy").path("volcano").path("networkTopology");
    return new TrainJobPlan(
        meta,
        spec,
        hostfileMeta,
        hostfile,
        groupMeta,
        gang,
        topology.isObject() ? topology.deepCopy() : null,
        fluxScripts(model));
  }

  /**
   * flux.go Build's ConfigMap {@code <trainjob>-flux-entrypoint}, without the owner reference (no
   * TrainJob object to own it); null without a Flux policy.
   */
  private static TrainJobPlan.ConfigMapPlan fluxScripts(TrainJobModel model) {
    if (!model.mlPolicy().has("flux")) {
      return null;
    }
    JsonNode trainer = model.trainer();
    Map<String, String> settings = fluxSettings(model);
    // The validator requires numNodes (upstream's plugin dereferences it): the pod count here
    // keeps a refused job from failing.
    int nodes = trainer.path("numNodes").asInt(model.mlPolicy().path("numNodes").asInt(1));
    int tasks =
        trainer.has("numProcPerNode")
            ? trainer.get("numProcPerNode").asInt()
            : model.mlPolicy().path("flux").path("numProcPerNode").asInt(1);
    int gpus = gpus(resourcesPerNode(model, template(model)));
    Map<String, String> data = new LinkedHashMap<>();
    data.put(
        FluxFramework.ENTRYPOINT_KEY,
        FluxFramework.entrypointScript(model.name(), nodes, tasks, gpus));
    data.put(
        FluxFramework.INIT_KEY,
        FluxFramework.initScript(model.name(), model.namespace(), nodes, settings));
    return new TrainJobPlan.ConfigMapPlan(
        Metadata.of(
            model.name() + FluxFramework.ENTRYPOINT_SUFFIX,
            model.namespace(),
            Map.of(MpiLabels.MANAGED_BY, MpiLabels.JOBC),
            Metadata.objectAnnotations(model.options())),
        data);
  }

  /** The JobSet's spec; also what the validator reads the replicated Jobs from. */
  static ObjectNode spec(TrainJobModel model) {
    ObjectNode spec = template(model);
    // The runtime's Jobs as newRuntimeInfo reads them, before any plugin: what torchtune's
    // overrides and Flux's settings and original command come from.
    List<ObjectNode> runtimeJobs = replicatedJobs(template(model));
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
    boolean torchtune = torch && TorchTune.isEntrypoint(trainer.path("command"));
    // What replaces the trainer's command and args (builder.go Trainer): the TrainJob's, unless
    // a plugin rewrote them in the TrainJob first.
    JsonNode command = trainer.path("command");
    JsonNode args = trainer.path("args");
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
        if (torchtune) {
          // torchtune rendezvous through its command line instead of the master env.
          command =
              TorchTune.command(
                  model.name(),
                  numNodes,
                  torchProcs(model),
                  gpus(resourcesPerNode(model, template(model))),
                  model.spec().path("runtimeRef").path("name").asText(""),
                  trainer.path("args"),
                  runtimeJobs);
        } else {
          upsertEnv(trainerContainer, masterEnv(master));
        }
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
    if (mlPolicy.has("flux") && !trainer.isMissingNode()) {
      // flux.go EnforceMLPolicy: the original command wrapped by the entrypoint, the args
      // dropped (the runtime's stay), the installer and its volumes on the node Job.
      ObjectNode runtimeTrainer = trainerContainer(runtimeJobs);
      command =
          FluxFramework.command(
              FluxFramework.originalCommand(
                  runtimeTrainer == null ? NODES.missingNode() : runtimeTrainer.path("command"),
                  trainer));
      args = NODES.missingNode();
      FluxFramework.apply(
          jobs,
          model.name(),
          fluxSettings(model).get(FluxFramework.VIEW_IMAGE),
          model.fluxCurveSecret());
    }
    JsonNode mpi = mlPolicy.path("mpi");
    boolean launcherAsNode = mpi.path("runLauncherAsNode").asBoolean(false);
    int slots = 1;
    if (mlPolicy.has("mpi")) {
      // mpi.go EnforceMLPolicy: the TrainJob's numNodes counts the launcher too when it runs as a
      // node.
      ObjectNode node = byName(jobs, NODE);
      if (node != null && trainer.has("numNodes")) {
        int n = trainer.get("numNodes").asInt();
        counts[jobs.indexOf(node)] = launcherAsNode ? Math.max(n - 1, 1) : n;
      }
      slots = mpiSlots(model, spec);
      mpiVolumes(model, jobs, slots);
    }
    // jobset.go SyncParallelCount: every Job runs its pod count at once.
    for (int i = 0; i < jobs.size(); i++) {
      ObjectNode jobSpec = jobSpec(jobs.get(i));
      jobSpec.put("parallelism", counts[i]);
      jobSpec.put("completions", counts[i]);
    }
    initializer(model, jobs, DATASET_INITIALIZER, "dataset");
    initializer(model, jobs, MODEL_INITIALIZER, "model");
    trainerOverrides(model, jobs, command, args);
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
    // builder.go Suspend: the TrainJob's suspend, false by the CRD's default. A queued JobSet's
    // is Kueue's, none in Git (JobSetRules.queuedSuspend warns of a suspend: true).
    if (!JobSetRules.queued(model.labels())) {
      spec.put("suspend", model.spec().path("suspend").asBoolean(false));
    }
    return spec;
  }

  /** {@code constants.MPIHostfileDir}, {@code MPIHostfileName}. */
  static final String HOSTFILE_DIR = "/etc/mpi";

  static final String HOSTFILE = "hostfile";

  /**
   * mpi.go EnforceMLPolicy: the slots per node, the TrainJob's numProcPerNode, else the runtime's
   * (1 by the CRD's default), which a node with more than one GPU replaces by its GPU count.
   */
  static int mpiSlots(TrainJobModel model, ObjectNode spec) {
    JsonNode trainer = model.trainer();
    if (trainer.has("numProcPerNode")) {
      return trainer.get("numProcPerNode").asInt();
    }
    int slots = model.mlPolicy().path("mpi").path("numProcPerNode").asInt(1);
    if (slots == 1) {
      int gpus = gpus(resourcesPerNode(model, spec));
      if (gpus > 1) {
        return gpus;
      }
    }
    return slots;
  }

  /**
   * mpi.go EnforceMLPolicy: the SSH keys into the launcher and node pods at sshAuthMountPath, with
   * upstream's file names and modes, from the Secret the user names ({@code jobc.dev/ssh-secret}:
   * upstream generates {@code <trainjob>-mpi-ssh-auth} with a fresh private key instead); the
   * hostfile and the OpenMPI env into the launcher's node container.
   */
  private static void mpiVolumes(TrainJobModel model, List<ObjectNode> jobs, int slots) {
    JsonNode mpi = model.mlPolicy().path("mpi");
    String mountPath = mpi.path("sshAuthMountPath").asText("/root/.ssh");
    String secret = model.options().get(OptionTable.SSH_SECRET);
    for (ObjectNode job : jobs) {
      String name = job.path("name").asText();
      boolean launcher = LAUNCHER.equals(name);
      if (!launcher && !NODE.equals(name)) {
        continue;
      }
      ObjectNode podSpec = podSpec(job);
      ArrayNode volumes = array(podSpec, "volumes");
      ObjectNode ssh = NODES.objectNode().put("name", "mpi-ssh-auth");
      ObjectNode source = ssh.putObject("secret");
      source.put("secretName", secret);
      ArrayNode items = source.putArray("items");
      items.addObject().put("key", "ssh-privatekey").put("path", "id_rsa").put("mode", 0640);
      items.addObject().put("key", "ssh-publickey").put("path", "id_rsa.pub").put("mode", 0644);
      items
          .addObject()
          .put("key", "ssh-publickey")
          .put("path", "authorized_keys")
          .put("mode", 0644);
      source.put("defaultMode", 0400);
      upsert(volumes, ssh, "name");
      if (launcher) {
        ObjectNode hostfile = NODES.objectNode().put("name", "mpi-hostfile");
        ObjectNode cm = hostfile.putObject("configMap");
        cm.put("name", model.name() + HOSTFILE_SUFFIX);
        cm.putArray("items")
            .addObject()
            .put("key", HOSTFILE)
            .put("path", HOSTFILE)
            .put("mode", 0444);
        upsert(volumes, hostfile, "name");
      }
      ObjectNode c = container(job, "containers", NODE);
      if (c == null) {
        continue;
      }
      ArrayNode mounts = array(c, "volumeMounts");
      upsert(
          mounts,
          NODES.objectNode().put("name", "mpi-ssh-auth").put("mountPath", mountPath),
          "mountPath");
      if (launcher) {
        upsert(
            mounts,
            NODES.objectNode().put("name", "mpi-hostfile").put("mountPath", HOSTFILE_DIR),
            "mountPath");
        // constants.OpenMPIEnv*: the only implementation v2.3.0 has.
        upsertEnv(
            c,
            List.of(
                env("OMPI_MCA_orte_default_hostfile", HOSTFILE_DIR + "/" + HOSTFILE),
                env("OMPI_MCA_orte_keep_fqdn_hostnames", "true"),
                env("OMPI_MCA_orte_set_default_slots", Integer.toString(slots)),
                env("OMPI_MCA_plm_rsh_args", "-o ConnectionAttempts=10")));
      }
    }
  }

  /**
   * mpi.go buildHostFileConfigMap: one line per pod of the node Job (and of the launcher when it
   * runs as a node), named as jobset.go IdentifyPodNetwork names endpoints; null without MPI.
   */
  static String hostfile(TrainJobModel model, ObjectNode spec) {
    if (!model.mlPolicy().has("mpi")) {
      return null;
    }
    boolean launcherAsNode =
        model.mlPolicy().path("mpi").path("runLauncherAsNode").asBoolean(false);
    String subdomain = spec.path("network").path("subdomain").asText(model.name());
    int slots = mpiSlots(model, spec);
    StringBuilder out = new StringBuilder();
    for (ObjectNode job : replicatedJobs(spec)) {
      String name = job.path("name").asText();
      if (!NODE.equals(name) && !(launcherAsNode && LAUNCHER.equals(name))) {
        continue;
      }
      int pods = job.path("template").path("spec").path("parallelism").asInt(1);
      for (int r = 0; r < job.path("replicas").asInt(1); r++) {
        for (int p = 0; p < pods; p++) {
          out.append(model.name()).append('-').append(name).append('-').append(r).append('-');
          out.append(p).append('.').append(subdomain).append(" slots=").append(slots).append('\n');
        }
      }
    }
    return out.toString();
  }

  static ObjectNode podSpec(ObjectNode job) {
    ObjectNode template = object(jobSpec(job), "template");
    return object(template, "spec");
  }

  private static ObjectNode object(ObjectNode parent, String field) {
    return parent.path(field).isObject() ? (ObjectNode) parent.get(field) : parent.putObject(field);
  }

  static ArrayNode array(ObjectNode parent, String field) {
    return parent.path(field).isArray() ? (ArrayNode) parent.get(field) : parent.putArray(field);
  }

  /** apply.go upsert: replaced in place when {@code key} matches, else appended. */
  static void upsert(ArrayNode list, ObjectNode item, String key) {
    for (int i = 0; i < list.size(); i++) {
      if (list.get(i).path(key).equals(item.path(key))) {
        list.set(i, item);
        return;
      }
    }
    list.add(item);
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

  /**
   * builder.go Trainer: image, command and args of the trainer's node container (the command and
   * args as the plugins left them in the TrainJob); its env.
   */
  private static void trainerOverrides(
      TrainJobModel model, List<ObjectNode> jobs, JsonNode command, JsonNode args) {
    JsonNode trainer = model.trainer();
    boolean launcherAsNode =
        model.mlPolicy().path("mpi").path("runLauncherAsNode").asBoolean(false);
    for (ObjectNode job : jobs) {
      if (!TRAINER.equals(ancestor(job))) {
        // builder.go Trainer: the env goes to the node Job too when the launcher runs as a node.
        ObjectNode c = container(job, "containers", NODE);
        if (launcherAsNode && NODE.equals(job.path("name").asText()) && c != null) {
          upsertEnv(c, trainer.path("env"));
        }
        continue;
      }
      job.put("replicas", 1);
      ObjectNode c = container(job, "containers", NODE);
      if (c == null || trainer.isMissingNode()) {
        continue;
      }
      if (trainer.has("image") && !trainer.get("image").isNull()) {
        c.set("image", trainer.get("image").deepCopy());
      }
      if (!command.isMissingNode() && !command.isNull()) {
        c.set("command", command.deepCopy());
      }
      if (!args.isMissingNode() && !args.isNull()) {
        c.set("args", args.deepCopy());
      }
      upsertEnv(c, trainer.path("env"));
    }
  }

  /** torch.go: PET_NNODES, PET_NPROC_PER_NODE, PET_NODE_RANK. */
  private static List<ObjectNode> torchEnv(TrainJobModel model, int numNodes) {
    return List.of(
        env("PET_NNODES", Integer.toString(numNodes)),
        env("PET_NPROC_PER_NODE", torchProcs(model).toString()),
        indexEnv("PET_NODE_RANK"));
  }

  /**
   * torch.go EnforceMLPolicy's numProcPerNode: the TrainJob's, else "auto", which with no GPU
   * becomes the CPUs per node (at least 1).
   */
  static TorchTune.Procs torchProcs(TrainJobModel model) {
    JsonNode trainer = model.trainer();
    if (trainer.has("numProcPerNode")) {
      return new TorchTune.Procs(false, trainer.get("numProcPerNode").asInt());
    }
    JsonNode resources = resourcesPerNode(model, template(model));
    return gpus(resources) == 0
        ? new TorchTune.Procs(false, Math.max(1, cpus(resources)))
        : TorchTune.Procs.AUTO;
  }

  /** flux.go brokerSettingsFromEnvironment, from the runtime trainer's env and the TrainJob's. */
  static Map<String, String> fluxSettings(TrainJobModel model) {
    ObjectNode runtimeTrainer = trainerContainer(replicatedJobs(template(model)));
    return FluxFramework.settings(
        runtimeTrainer == null ? NODES.missingNode() : runtimeTrainer.path("env"),
        model.trainer().path("env"));
  }

  /** runtime.go FindContainerByPodSetAncestorContainerName: the trainer Job's node container. */
  private static ObjectNode trainerContainer(List<ObjectNode> jobs) {
    for (ObjectNode job : jobs) {
      if (TRAINER.equals(ancestor(job))) {
        return container(job, "containers", NODE);
      }
    }
    return null;
  }

  private static List<ObjectNode> masterEnv(String master) {
    return List.of(
        env("PET_MASTER_ADDR", master), env("PET_MASTER_PORT", Integer.toString(TRAINER_PORT)));
  }

  /**
   * The runtime's template spec with the runtime patches merged, as newRuntimeInfo gives it to the
   * plugins; a fresh copy.
   */
  static ObjectNode template(TrainJobModel model) {
    JsonNode template = model.runtime().spec().path("template").path("spec");
    ObjectNode spec = template.isObject() ? ((ObjectNode) template).deepCopy() : NODES.objectNode();
    mergeRuntimePatches(model, spec);
    return spec;
  }

  /**
   * runtime.go ExtractResourcePerNodeFromRuntime (the first {@code node} Job's or trainer's node
   * container), replaced by the TrainJob's resourcesPerNode when it has them.
   */
  static JsonNode resourcesPerNode(TrainJobModel model, ObjectNode spec) {
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
    // Only a list of objects is an env: the schema check has reported any other shape (the
    // validator plans the job too, to check what the plan makes), and iterating a mapping would
    // give its values.
    List<ObjectNode> list = new ArrayList<>();
    for (JsonNode e : envs.isArray() ? envs : NODES.arrayNode()) {
      if (e.isObject()) {
        list.add((ObjectNode) e.deepCopy());
      }
    }
    upsertEnv(container, list);
  }

  /** apply.go UpsertEnvVars: replaced in place by name, else appended. */
  private static void upsertEnv(ObjectNode container, List<ObjectNode> envs) {
    if (envs.isEmpty()) {
      return;
    }
    ArrayNode list = array(container, "env");
    for (ObjectNode e : envs) {
      upsert(list, e, "name");
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
