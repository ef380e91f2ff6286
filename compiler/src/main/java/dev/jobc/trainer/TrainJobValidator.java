package dev.jobc.trainer;

import static dev.jobc.diag.Finding.error;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobc.diag.Code;
import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Finding;
import dev.jobc.diag.Quoting;
import dev.jobc.jobset.JobSetRules;
import dev.jobc.options.JobAnnotations;
import dev.jobc.options.OptionTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * What the Trainer's CRD and webhooks (kubeflow/trainer v2.3.0, {@code trainjob_types.go}'s
 * validation rules, {@code pkg/webhooks/trainjob_webhook.go} and the plugins' {@code Validate})
 * refuse about a TrainJob and its runtime, with their wording, and what jobc needs to render it.
 */
final class TrainJobValidator {
  private static final FieldPath NAME = FieldPath.of("metadata", "name");
  private static final FieldPath PATCHES = FieldPath.of("spec", "runtimePatches");
  private static final Pattern RFC_1035 = Pattern.compile("^[a-z]([-a-z0-9]*[a-z0-9])?$");
  private static final Set<String> MANAGED_BY =
      Set.of("trainer.kubeflow.org/trainjob-controller", TrainJobKind.MULTIKUEUE);

  /** constants.TorchRunReservedEnvNames. */
  private static final Set<String> TORCH_RESERVED =
      Set.of(
          "PET_NNODES",
          "PET_NPROC_PER_NODE",
          "PET_NODE_RANK",
          "PET_MASTER_ADDR",
          "PET_MASTER_PORT");

  /** constants.XGBoostReservedEnvNames. */
  private static final Set<String> XGBOOST_RESERVED =
      Set.of("DMLC_TRACKER_URI", "DMLC_TRACKER_PORT", "DMLC_TASK_ID", "DMLC_NUM_WORKER");

  private TrainJobValidator() {}

  /** constants.MPIReservedEnvNames. */
  private static final Set<String> MPI_RESERVED =
      Set.of(
          "OMPI_MCA_orte_default_hostfile",
          "OMPI_MCA_plm_rsh_args",
          "OMPI_MCA_orte_keep_fqdn_hostnames",
          "OMPI_MCA_orte_set_default_slots");

  /**
   * mpi.go Validate, and the SSH keys: upstream's plugin generates a Secret with a fresh private
   * key at run time; jobc puts no key in Git and mounts the keys of a Secret the user names.
   */
  private static void validateMpi(TrainJobModel model, List<Finding> out) {
    JsonNode trainer = model.trainer();
    JsonNode mpi = model.mlPolicy().path("mpi");
    if (trainer.path("numNodes").asInt(1) >= 2 && mpi.path("runLauncherAsNode").asBoolean(false)) {
      boolean launcher = false;
      boolean node = false;
      for (ObjectNode job : TrainJobPlanner.replicatedJobs(TrainJobPlanner.spec(model))) {
        launcher |= TrainJobPlanner.LAUNCHER.equals(job.path("name").asText());
        node |= TrainJobPlanner.NODE.equals(job.path("name").asText());
      }
      if (!launcher || !node) {
        out.add(
            error(
                Code.INVALID,
                FieldPath.of("spec", "trainer", "numNodes"),
                "Invalid value: "
                    + trainer.get("numNodes").asText()
                    + ": must have 1 when MPI trainingRuntime with enabled runLauncherAsNode does not have"
                    + " either launcher and node"));
      }
    }
    reservedEnv(trainer, MPI_RESERVED, out);
    if (model.options().get(OptionTable.SSH_SECRET) == null) {
      out.add(
          error(
              Code.REQUIRED,
              FieldPath.of("metadata", "annotations").key(JobAnnotations.SSH_SECRET),
              "Required value: the runtime's mlPolicy.mpi mounts SSH keys, which the Trainer"
                  + " generates into a Secret at run time and jobc never puts in Git: name an"
                  + " existing Secret (type kubernetes.io/ssh-auth, keys ssh-privatekey and"
                  + " ssh-publickey) with the annotation jobc.dev/ssh-secret or --ssh-secret NAME,"
                  + " created with Sealed Secrets or External Secrets (docs/trainjob.md#mpi)"));
    }
  }

  /**
   * torchtune.go validateTorchTune: a model torchtune supports, one node but for Llama 3.3 70B,
   * QLoRA only where it fits, no LoRA over several nodes, no immutable config in the args.
   */
  private static void validateTorchTune(TrainJobModel model, List<Finding> out) {
    JsonNode trainer = model.trainer();
    String runtimeName = model.spec().path("runtimeRef").path("name").asText("");
    FieldPath runtimeNamePath = TrainJobKind.RUNTIME_REF.child("name");
    FieldPath numNodesPath = FieldPath.of("spec", "trainer", "numNodes");
    String tuneModel = TorchTune.model(runtimeName);
    if (!TorchTune.SUPPORTED_MODELS.contains(tuneModel)) {
      out.add(
          invalid(
              runtimeNamePath,
              runtimeName,
              "must have a supported pretrained model, invalid model configured: " + tuneModel));
    }
    // The webhook reads the TrainJob alone: numNodes 1 unless it says, numProcPerNode auto.
    int numNodes = trainer.path("numNodes").asInt(1);
    if (numNodes > 1 && !tuneModel.equals(TorchTune.LLAMA3_3_70B)) {
      out.add(
          error(
              Code.INVALID,
              numNodesPath,
              "Invalid value: " + numNodes + ": must be 1 for " + tuneModel + " model"));
    }
    TorchTune.Procs procs =
        trainer.has("numProcPerNode")
            ? new TorchTune.Procs(false, trainer.get("numProcPerNode").asInt())
            : TorchTune.Procs.AUTO;
    int gpus =
        TrainJobPlanner.gpus(
            TrainJobPlanner.resourcesPerNode(model, TrainJobPlanner.template(model)));
    JsonNode args = trainer.path("args");
    String config = TorchTune.recipeAndConfig(numNodes, procs, gpus, runtimeName, args).config();
    if (config.contains(TorchTune.QLORA_SUFFIX)) {
      if (tuneModel.equals(TorchTune.QWEN2_5_1_5B)) {
        out.add(
            invalid(
                runtimeNamePath,
                runtimeName,
                "QLoRA is not supported for " + tuneModel + " model"));
      }
      if (!config.contains(TorchTune.QLORA_SINGLE_DEVICE_SUFFIX)
          && (tuneModel.equals(TorchTune.LLAMA3_2_1B) || tuneModel.equals(TorchTune.LLAMA3_2_3B))) {
        out.add(
            error(
                Code.INVALID,
                FieldPath.of("spec", "trainer", "numProcPerNode"),
                "Invalid value: "
                    + (procs.auto() ? Quoting.quote("auto") : procs.toString())
                    + ": must be auto or 1 for "
                    + tuneModel
                    + " model when using QLoRA"));
        out.add(
            error(
                Code.INVALID,
                FieldPath.of("spec", "trainer", "resourcesPerNode"),
                "Invalid value: must have gpu resource with value 1 for "
                    + tuneModel
                    + " model when using QLoRA"));
      }
    }
    if (numNodes > 1 && (TorchTune.lora(args) || TorchTune.qlora(args))) {
      out.add(
          error(
              Code.INVALID,
              numNodesPath,
              "Invalid value: "
                  + numNodes
                  + ": LoRA fine-tuning is not supported for multi-node training in TorchTune"));
    }
    int i = 0;
    for (JsonNode arg : args) {
      String key = TorchTune.key(arg.asText());
      if (TorchTune.IMMUTABLE_CONFIGS.contains(key)) {
        out.add(
            invalid(
                FieldPath.of("spec", "trainer", "args").index(i),
                arg.asText(),
                "must not set immutable config "
                    + Quoting.quote(key)
                    + " in trainer args; it is managed by the runtime"));
      }
      i++;
    }
  }

  /**
   * flux.go Validate (at least one process per node; the installer's init container name is the
   * plugin's), and what jobc needs to render it: the CURVE certificate's Secret, which upstream
   * derives from the TrainJob's UID; the numNodes the plugin dereferences; the namespace it writes
   * into the broker configuration; a volume name that fits.
   */
  private static void validateFlux(TrainJobModel model, List<Finding> out) {
    JsonNode trainer = model.trainer();
    JsonNode procs =
        trainer.has("numProcPerNode")
            ? trainer.get("numProcPerNode")
            : model.mlPolicy().path("flux").path("numProcPerNode");
    if (procs.isNumber() && procs.asInt() < 1) {
      out.add(
          error(
              Code.INVALID,
              FieldPath.of("spec", "trainer", "numProcPerNode"),
              "Invalid value: "
                  + procs.asInt()
                  + ": must be greater than or equal to 1 for Flux TrainJob"));
    }
    for (ObjectNode job : TrainJobPlanner.replicatedJobs(TrainJobPlanner.template(model))) {
      if (TrainJobPlanner.NODE.equals(job.path("name").asText())
          && TrainJobPlanner.container(job, "initContainers", FluxFramework.INSTALLER) != null) {
        out.add(
            invalid(
                FieldPath.of("spec", "trainer", "initContainers"),
                FluxFramework.INSTALLER,
                "InitContainer '" + FluxFramework.INSTALLER + "' is reserved"));
      }
    }
    if (!trainer.path("numNodes").isNumber()) {
      out.add(
          error(
              Code.REQUIRED,
              FieldPath.of("spec", "trainer", "numNodes"),
              "Required value: the Flux plugin sizes the broker's host list and flux run by it;"
                  + " without it the Trainer controller fails to build the JobSet"));
    }
    if (model.namespace() == null || model.namespace().isEmpty()) {
      out.add(
          error(
              Code.REQUIRED,
              FieldPath.of("metadata", "namespace"),
              "Required value: the Flux plugin writes the namespace into the broker configuration"
                  + " (<host>.<job>.<namespace>.svc.cluster.local); set metadata.namespace"));
    }
    String volume = model.name() + FluxFramework.ENTRYPOINT_SUFFIX;
    if (RFC_1035.matcher(model.name()).matches()
        && model.name().length() <= 63
        && volume.length() > 63) {
      out.add(
          invalid(
              NAME,
              model.name(),
              "the Flux plugin's volume "
                  + Quoting.quote(volume)
                  + " must be no more than 63 characters (a DNS-1123 label): at most "
                  + (63 - FluxFramework.ENTRYPOINT_SUFFIX.length())
                  + " characters for the name"));
    }
    if (model.fluxCurveSecret() == null) {
      out.add(
          error(
              Code.REQUIRED,
              TrainJobKind.FLUX_CURVE_SECRET_PATH,
              "Required value: the runtime's mlPolicy.flux (Flux Framework) mounts a CURVE"
                  + " certificate, which the Trainer derives into a Secret from the TrainJob's UID at"
                  + " run time and jobc never puts in Git: name an existing Secret with the key"
                  + " curve.cert (flux keygen) with the annotation jobc.dev/flux-curve-secret, created"
                  + " with Sealed Secrets or External Secrets (docs/trainjob.md#flux-framework)"));
    }
  }

  static List<Finding> validate(TrainJobModel model) {
    List<Finding> out = new ArrayList<>(model.findings());
    String name = model.name();
    // trainjob_types.go: the CRD's XValidation rules on metadata.name.
    if (!RFC_1035.matcher(name).matches()) {
      out.add(invalid(NAME, name, "metadata.name must match RFC 1035 DNS label format"));
    } else if (name.length() > 63) {
      out.add(invalid(NAME, name, "metadata.name must be no more than 63 characters"));
    }
    JsonNode spec = model.spec();
    if (spec.has("managedBy") && !MANAGED_BY.contains(spec.get("managedBy").asText())) {
      out.add(
          invalid(
              FieldPath.of("spec", "managedBy"),
              spec.get("managedBy").asText(),
              "ManagedBy must be trainer.kubeflow.org/trainjob-controller or"
                  + " kueue.x-k8s.io/multikueue if set"));
    }
    if (spec.has("activeDeadlineSeconds") && spec.get("activeDeadlineSeconds").asLong() < 1) {
      out.add(
          invalid(
              FieldPath.of("spec", "activeDeadlineSeconds"),
              spec.get("activeDeadlineSeconds").asText(),
              "spec.activeDeadlineSeconds in body should be greater than or equal to 1"));
    }
    if (model.runtime() == null) {
      unresolved(model.ref(), out);
      return out;
    }
    JsonNode mlPolicy = model.mlPolicy();
    int policies = 0;
    for (String p : List.of("torch", "mpi", "jax", "xgboost", "flux")) {
      policies += mlPolicy.has(p) ? 1 : 0;
    }
    if (policies > 1) {
      // trainingruntime_types.go MLPolicy's XValidation rule.
      out.add(runtimeError(model, "Only one of the policy can be configured"));
      return out;
    }
    if (mlPolicy.has("flux")) {
      validateFlux(model, out);
    } else if (model.fluxCurveSecret() != null) {
      out.add(
          error(
              Code.FORBIDDEN,
              TrainJobKind.FLUX_CURVE_SECRET_PATH,
              "Forbidden: only a TrainJob whose runtime has mlPolicy.flux mounts a CURVE"
                  + " certificate"));
    }
    if (mlPolicy.has("mpi")) {
      validateMpi(model, out);
    }
    JsonNode trainer = model.trainer();
    if (mlPolicy.has("torch")) {
      reservedEnv(trainer, TORCH_RESERVED, out); // torch.go Validate
      if (TorchTune.isEntrypoint(trainer.path("command"))) {
        validateTorchTune(model, out);
      }
    }
    if (mlPolicy.has("xgboost")) {
      int i = 0;
      for (JsonNode env : trainer.path("env")) {
        String n = env.path("name").asText();
        if (XGBOOST_RESERVED.contains(n)) {
          // xgboost.go Validate.
          out.add(
              invalid(
                  FieldPath.of("spec", "trainer", "env").index(i),
                  n,
                  n + " is reserved for the XGBoost runtime"));
        }
        i++;
      }
    }
    ObjectNode jobSetSpec = TrainJobPlanner.spec(model);
    initializers(model, jobSetSpec, out);
    patches(model, out);
    // The JobSet webhook's name rules (jobset v0.12.0 jobset_webhook.go) on what would be created.
    List<JobSetRules.Shape> shapes = new ArrayList<>();
    for (ObjectNode job : TrainJobPlanner.replicatedJobs(jobSetSpec)) {
      shapes.add(
          new JobSetRules.Shape(
              job.path("name").asText(),
              job.path("template").path("spec").path("completions").asInt(1),
              true));
    }
    if (out.stream().noneMatch(f -> f.path().equals(NAME))) {
      JobSetRules.check(name, shapes, shapes.size(), null, model.options(), out);
    }
    return out;
  }

  /** Why {@code runtimeRef} names no one runtime. */
  private static void unresolved(TrainJobModel.Ref ref, List<Finding> out) {
    String kind = ref.kind();
    String value = "Invalid value: " + Quoting.quote(ref.name()) + ": ";
    if (!TrainJobKind.GROUP.equals(ref.group()) || !TrainJobKind.RUNTIME_KINDS.contains(kind)) {
      // trainjob_webhook.go ValidateCreate: the runtime registry knows these two kinds only.
      out.add(
          error(
              Code.INVALID,
              TrainJobKind.RUNTIME_REF,
              value + "unsupported runtime: " + kind + "." + ref.group()));
    } else if (ref.matches().size() > 1) {
      // No upstream rule: the API server holds one object per name; jobc will not guess.
      out.add(
          error(
              Code.INVALID,
              TrainJobKind.RUNTIME_REF.child("name"),
              value
                  + "names "
                  + ref.matches().size()
                  + " "
                  + kind
                  + "s of the input: "
                  + String.join(", ", ref.matches())
                  + "; keep one"));
    } else {
      // clustertrainingruntime.go / trainingruntime.go ValidateObjects, with the API server's
      // NotFound error in front.
      boolean cluster = kind.equals(TrainJobKind.CLUSTER_TRAINING_RUNTIME);
      out.add(
          error(
              Code.INVALID,
              TrainJobKind.RUNTIME_REF.child("name"),
              value
                  + kind.toLowerCase(Locale.ROOT)
                  + "s."
                  + TrainJobKind.GROUP
                  + " "
                  + Quoting.quote(ref.name())
                  + " not found: specified "
                  + Character.toLowerCase(kind.charAt(0))
                  + kind.substring(1)
                  + " must be created before the TrainJob is created (the input holds no "
                  + kind
                  + " of that name"
                  + (cluster
                      ? ", nor is it one of the defaults of kubeflow/trainer "
                          + DefaultRuntimes.VERSION
                      : " in the TrainJob's namespace")
                  + ")"));
    }
  }

  /** jobset.go Validate: the initializers the TrainJob configures must exist in the runtime. */
  private static void initializers(TrainJobModel model, ObjectNode jobSetSpec, List<Finding> out) {
    for (String[] init :
        new String[][] {
          {"dataset", TrainJobPlanner.DATASET_INITIALIZER, "datasetConfig"},
          {"model", TrainJobPlanner.MODEL_INITIALIZER, "modelConfig"}
        }) {
      if (!model.spec().path("initializer").path(init[0]).isObject()) {
        continue;
      }
      JsonNode job = null;
      for (ObjectNode j : TrainJobPlanner.replicatedJobs(jobSetSpec)) {
        if (j.path("name").asText().equals(init[1])) {
          job = j;
        }
      }
      String detail;
      if (job == null) {
        detail = "must have " + init[1] + " job when trainJob is configured with input " + init[2];
      } else {
        JsonNode c = TrainJobPlanner.container(job, "containers", init[1]);
        if (c == null && TrainJobPlanner.container(job, "initContainers", init[1]) == null) {
          detail = "must have container with name - " + init[1] + " in the " + init[1] + " job";
        } else if (c == null || !mountsInitializer(c)) {
          detail =
              "must have volumeMount with name - initializer in container "
                  + init[1]
                  + " of the "
                  + init[1]
                  + " job";
        } else {
          continue;
        }
      }
      out.add(runtimeError(model, detail));
    }
  }

  private static boolean mountsInitializer(JsonNode container) {
    for (JsonNode m : container.path("volumeMounts")) {
      if (m.path("name").asText().equals("initializer")) {
        return true;
      }
    }
    return false;
  }

  /** jobset.go Validate: what runtime patches may name and change. */
  private static void patches(TrainJobModel model, List<Finding> out) {
    JsonNode template = model.runtime().spec().path("template").path("spec");
    int i = 0;
    for (JsonNode patch : model.spec().path("runtimePatches")) {
      FieldPath at = PATCHES.index(i++);
      String manager = patch.path("manager").asText();
      List<String> domain = domainPrefixedPath(manager);
      if (!domain.isEmpty()) {
        out.add(invalid(at.child("manager"), manager, String.join("; ", domain)));
      }
      int j = 0;
      for (JsonNode jobPatch :
          patch.path("trainingRuntimeSpec").path("template").path("spec").path("replicatedJobs")) {
        FieldPath jobAt =
            at.child("trainingRuntimeSpec")
                .child("template")
                .child("spec")
                .child("replicatedJobs")
                .index(j++);
        String jobName = jobPatch.path("name").asText();
        JsonNode job = null;
        for (JsonNode r : template.path("replicatedJobs")) {
          if (r.path("name").asText().equals(jobName)) {
            job = r;
          }
        }
        if (job == null) {
          out.add(
              error(
                  Code.INVALID,
                  jobAt.child("name"),
                  "Invalid value: "
                      + Quoting.quote(jobName)
                      + ": must not have replicated job that doesn't exist in the runtime job"
                      + " template"));
          continue;
        }
        JsonNode podSpec = jobPatch.path("template").path("spec").path("template").path("spec");
        for (String list : List.of("initContainers", "containers")) {
          int k = 0;
          for (JsonNode c : podSpec.path(list)) {
            FieldPath cAt =
                jobAt
                    .child("template")
                    .child("spec")
                    .child("template")
                    .child("spec")
                    .child(list)
                    .index(k++);
            String cName = c.path("name").asText();
            boolean exists =
                TrainJobPlanner.container(job, "containers", cName) != null
                    || TrainJobPlanner.container(job, "initContainers", cName) != null;
            if (!exists) {
              out.add(
                  error(
                      Code.INVALID,
                      cAt.child("name"),
                      "Invalid value: "
                          + Quoting.quote(cName)
                          + ": must not have "
                          + (list.equals("containers") ? "container" : "initContainer")
                          + " that doesn't exist in the runtime job "
                          + jobName));
            } else if (list.equals("containers")
                && c.path("env").size() > 0
                && Set.of(
                        TrainJobPlanner.DATASET_INITIALIZER,
                        TrainJobPlanner.MODEL_INITIALIZER,
                        TrainJobPlanner.NODE)
                    .contains(cName)) {
              out.add(
                  error(
                      Code.INVALID,
                      cAt.child("env"),
                      "Invalid value: must not have envs for the dataset-initializer,"
                          + " model-initializer, node containers"));
            }
          }
        }
      }
    }
  }

  /** k8s.io/apimachinery validation.IsDomainPrefixedPath. */
  static List<String> domainPrefixedPath(String path) {
    int slash = path.indexOf('/');
    if (slash < 0) {
      return List.of("must be a domain-prefixed path (such as \"acme.io/foo\")");
    }
    List<String> out = new ArrayList<>();
    String host = path.substring(0, slash);
    String segments = path.substring(slash + 1);
    if (host.isEmpty()
        || host.length() > 253
        || !host.matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*")) {
      out.add(
          "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-'"
              + " or '.', and must start and end with an alphanumeric character (e.g."
              + " 'example.com', regex used for validation is"
              + " '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
    }
    if (!segments.matches("[A-Za-z0-9/\\-._~%!$&'()*+,;=:]*")) {
      out.add("Invalid path: " + Quoting.quote(segments));
    }
    return out;
  }

  /** At {@code spec.runtimeRef}, naming the runtime and where it is written. */
  private static Finding runtimeError(TrainJobModel model, String detail) {
    return error(
        Code.INVALID,
        TrainJobKind.RUNTIME_REF,
        "Invalid value: "
            + model.runtime().kind()
            + " "
            + Quoting.quote(model.runtime().name())
            + " ("
            + model.runtime().at()
            + "): "
            + detail);
  }

  /** torch.go and mpi.go Validate: the plugin's own env names in spec.trainer.env, in one error. */
  private static void reservedEnv(JsonNode trainer, Set<String> names, List<Finding> out) {
    Set<String> reserved = new TreeSet<>();
    for (JsonNode env : trainer.path("env")) {
      if (names.contains(env.path("name").asText())) {
        reserved.add(env.path("name").asText());
      }
    }
    if (!reserved.isEmpty()) {
      out.add(
          error(
              Code.INVALID,
              FieldPath.of("spec", "trainer", "env"),
              "Invalid value: must not have reserved envs, invalid envs configured: ["
                  + String.join(" ", reserved)
                  + "]"));
    }
  }

  private static Finding invalid(FieldPath path, String value, String detail) {
    return error(Code.INVALID, path, "Invalid value: " + Quoting.quote(value) + ": " + detail);
  }
}
