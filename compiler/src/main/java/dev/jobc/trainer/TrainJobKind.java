package dev.jobc.trainer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.jobc.diag.Code;
import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Finding;
import dev.jobc.diag.Quoting;
import dev.jobc.jobset.JobSet;
import dev.jobc.jobset.JobSetRules;
import dev.jobc.k8s.OutputSize;
import dev.jobc.kind.JobKind;
import dev.jobc.load.Document;
import dev.jobc.model.Source;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.Dns;
import dev.jobc.options.JobAnnotations;
import dev.jobc.validate.JobNames;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Kubeflow Trainer v2's TrainJob ({@code trainer.kubeflow.org/v1alpha1}, kubeflow/trainer v2.3.0)
 * through the pipeline: its {@code runtimeRef} resolved among the input's runtimes and the default
 * ones, the webhooks' rules, and the JobSet the controller builds. Immutable and thread-safe.
 */
public final class TrainJobKind implements JobKind<TrainJob, TrainJobModel, TrainJobPlan> {
  static final String GROUP = "trainer.kubeflow.org";
  static final String API_VERSION = GROUP + "/v1alpha1";
  static final String TRAINING_RUNTIME = "TrainingRuntime";
  static final String CLUSTER_TRAINING_RUNTIME = "ClusterTrainingRuntime";
  static final List<String> RUNTIME_KINDS = List.of(TRAINING_RUNTIME, CLUSTER_TRAINING_RUNTIME);

  /** {@code spec.managedBy}'s value that has MultiKueue dispatch the TrainJob elsewhere. */
  static final String MULTIKUEUE = "kueue.x-k8s.io/multikueue";

  static final FieldPath RUNTIME_REF = FieldPath.of("spec", "runtimeRef");

  /**
   * jobc's annotation naming the Secret with the Flux plugin's CURVE certificate, which upstream
   * derives from the TrainJob's UID at run time (docs/trainjob.md#flux-framework).
   */
  static final String FLUX_CURVE_SECRET = JobAnnotations.PREFIX + "flux-curve-secret";

  private static final FieldPath SUSPEND = FieldPath.of("spec", "suspend");

  static final FieldPath FLUX_CURVE_SECRET_PATH =
      FieldPath.of("metadata", "annotations").key(FLUX_CURVE_SECRET);

  private final List<Source> defaults = DefaultRuntimes.sources();

  @Override
  public String kind() {
    return "TrainJob";
  }

  @Override
  public String group() {
    return GROUP;
  }

  @Override
  public List<String> apiVersions() {
    return List.of(API_VERSION);
  }

  @Override
  public List<String> referencedKinds() {
    return RUNTIME_KINDS;
  }

  @Override
  public TrainJob bind(JsonNode root) {
    return new TrainJob(root, List.of(), List.of());
  }

  @Override
  public List<Source> referencedDefaults() {
    return defaults;
  }

  @Override
  public TrainJob withReferences(TrainJob job, List<Document> referenced, List<Document> defaults) {
    return new TrainJob(job.root(), referenced, defaults);
  }

  /**
   * Resolves {@code runtimeRef}: kind {@code ClusterTrainingRuntime} and group {@code
   * trainer.kubeflow.org} unless it says (the CRD's defaults, {@code trainjob_types.go
   * RuntimeRef}); a TrainingRuntime must share the TrainJob's namespace ({@code trainingruntime.go
   * NewObjects}).
   */
  @Override
  public TrainJobModel defaults(TrainJob job, CompileOptions given) {
    JsonNode root = job.root();
    JsonNode meta = root.path("metadata");
    String name = meta.path("name").asText("");
    String namespace = meta.path("namespace").isTextual() ? meta.path("namespace").asText() : null;
    // The jobc.dev/* annotations set per-job options, as on every other kind (ssh-secret names the
    // MPI plugin's SSH keys); flux-curve-secret is a TrainJob's own, unknown to every other kind.
    ObjectMeta jobAnnotations = annotations(meta);
    String fluxCurveSecret = jobAnnotations.getAnnotations().get(FLUX_CURVE_SECRET);
    JobAnnotations.Applied applied =
        JobAnnotations.apply(jobAnnotations, given, Set.of(FLUX_CURVE_SECRET));
    CompileOptions options = applied.options();
    List<Finding> findings =
        new ArrayList<>(
            applied.findingsWithoutScaling(
                "a TrainJob cannot scale: the plugins' env and hostfile count its pods"));
    if (fluxCurveSecret != null && !Dns.dns1123Subdomain(fluxCurveSecret).isEmpty()) {
      findings.add(
          Finding.error(
              Code.INVALID,
              FLUX_CURVE_SECRET_PATH,
              "Invalid value: "
                  + Quoting.quote(fluxCurveSecret)
                  + ": "
                  + String.join("; ", Dns.dns1123Subdomain(fluxCurveSecret))));
    }
    JsonNode spec =
        root.path("spec").isObject() ? root.path("spec") : JsonNodeFactory.instance.objectNode();
    Map<String, String> labels = new LinkedHashMap<>();
    for (var e : meta.path("labels").properties()) {
      labels.put(e.getKey(), e.getValue().asText());
    }
    // What Kueue reads from the object it admits: the TrainJob at run time, the JobSet here.
    Map<String, String> kueueAnnotations =
        JobSet.annotations(Map.of(), annotations(meta).getAnnotations());
    JobNames.queueName(labels, findings);
    JobSetRules.queuedSuspend(labels, spec.path("suspend").asBoolean(false), SUSPEND, findings);
    JsonNode ref = spec.path("runtimeRef");
    String refName = ref.path("name").asText("");
    String kind = ref.path("kind").asText(CLUSTER_TRAINING_RUNTIME);
    String group = ref.path("apiGroup").asText(GROUP);
    if (!GROUP.equals(group) || !RUNTIME_KINDS.contains(kind)) {
      // trainjob_webhook.go ValidateCreate: the runtime registry knows these two kinds only.
      return new TrainJobModel(
          name,
          namespace,
          labels,
          kueueAnnotations,
          spec,
          null,
          new TrainJobModel.Ref(kind, group, refName, List.of()),
          options,
          fluxCurveSecret,
          findings);
    }
    List<Document> found = new ArrayList<>();
    for (Document d : job.runtimes()) {
      JsonNode m = d.root().path("metadata");
      if (d.root().path("kind").asText().equals(kind)
          && m.path("name").asText().equals(refName)
          && (kind.equals(CLUSTER_TRAINING_RUNTIME)
              || m.path("namespace").asText("").equals(namespace == null ? "" : namespace))) {
        found.add(d);
      }
    }
    if (found.isEmpty() && kind.equals(CLUSTER_TRAINING_RUNTIME)) {
      for (Document d : job.defaults()) {
        if (d.root().path("metadata").path("name").asText().equals(refName)) {
          found.add(d);
        }
      }
    }
    TrainJobModel.Ref resolved =
        new TrainJobModel.Ref(kind, group, refName, found.stream().map(TrainJobKind::at).toList());
    if (found.size() != 1) {
      return new TrainJobModel(
          name,
          namespace,
          labels,
          kueueAnnotations,
          spec,
          null,
          resolved,
          options,
          fluxCurveSecret,
          findings);
    }
    Document d = found.get(0);
    JsonNode runtimeSpec =
        d.root().path("spec").isObject()
            ? d.root().path("spec")
            : JsonNodeFactory.instance.objectNode();
    return new TrainJobModel(
        name,
        namespace,
        labels,
        kueueAnnotations,
        spec,
        new Runtime(kind, refName, at(d), runtimeSpec),
        resolved,
        options,
        fluxCurveSecret,
        findings);
  }

  private static ObjectMeta annotations(JsonNode meta) {
    ObjectMeta out = new ObjectMeta();
    Map<String, String> annotations = new LinkedHashMap<>();
    for (var e : meta.path("annotations").properties()) {
      annotations.put(e.getKey(), e.getValue().asText());
    }
    out.setAnnotations(annotations);
    return out;
  }

  private static String at(Document d) {
    return Quoting.fileName(d.source().name()) + ":" + d.positions().documentStart().line();
  }

  /** {@code pkg/controller/trainjob_controller.go}: a TrainJob managed elsewhere is skipped. */
  @Override
  public Finding renderedElsewhere(TrainJobModel model) {
    if (!MULTIKUEUE.equals(model.spec().path("managedBy").asText())) {
      return null;
    }
    return Finding.warning(
        FieldPath.of("spec", "managedBy"),
        "passed through unrendered: MultiKueue dispatches this TrainJob to a worker cluster running"
            + " the Trainer controller");
  }

  @Override
  public List<Finding> validate(TrainJobModel model) {
    return TrainJobValidator.validate(model);
  }

  @Override
  public OutputSize.Estimate outputSize(TrainJobModel model) {
    // One JobSet holding the runtime's template once, plus what the TrainJob adds to it, and with
    // a Flux runtime the ConfigMap of its scripts.
    long chars =
        OutputSize.plus(
            OutputSize.plus(
                model.runtime().spec().toString().length(), model.spec().toString().length()),
            OutputSize.OBJECT_OVERHEAD);
    if (model.mlPolicy().has("flux")) {
      chars =
          OutputSize.plus(
              chars, OutputSize.plus(FluxFramework.scriptsChars(), OutputSize.OBJECT_OVERHEAD));
    }
    return new OutputSize.Estimate(chars, RUNTIME_REF, "one JobSet");
  }

  @Override
  public TrainJobPlan plan(TrainJobModel model) {
    return TrainJobPlanner.plan(model);
  }

  @Override
  public List<HasMetadata> generate(TrainJobPlan plan) {
    List<HasMetadata> out = new ArrayList<>();
    HasMetadata podGroup = TrainJobSetGenerator.podGroup(plan);
    if (podGroup != null) {
      out.add(podGroup);
    }
    HasMetadata hostfile = TrainJobSetGenerator.hostfile(plan);
    if (hostfile != null) {
      out.add(hostfile);
    }
    HasMetadata fluxScripts = TrainJobSetGenerator.fluxScripts(plan);
    if (fluxScripts != null) {
      out.add(fluxScripts);
    }
    out.add(TrainJobSetGenerator.generate(plan));
    return List.copyOf(out);
  }
}
