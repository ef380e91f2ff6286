package dev.jobc.sidecar;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tfjob}: the native sidecar beside a TFJob's deciding replica (see {@link TfJobSidecar}).
 */
@Command(
    name = "tfjob",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description =
        "Decide a TFJob's outcome beside its deciding replica, record it, stop what is left.")
final class TfJobCommand extends SidecarCommand {
  static final List<String> POLICIES = List.of("Always", "OnFailure", "Never", "ExitCode");

  @Option(names = "--pod", paramLabel = "NAME", description = "This pod; default: $POD_NAME.")
  String pod;

  @Option(names = "--job", paramLabel = "NAME", required = true, description = "The TFJob's name.")
  String job;

  @Option(
      names = "--self",
      paramLabel = "REPLICA",
      required = true,
      description = "This replica, <job>-<type>-<index>.")
  String self;

  @Option(
      names = "--main-container",
      paramLabel = "NAME",
      description = "The container whose exit decides (default: tensorflow).")
  String mainContainer = "tensorflow";

  @Option(
      names = "--restart-policy",
      paramLabel = "TYPE=POLICY",
      required = true,
      description = "Each replica type's restart policy (lower-case type), e.g. ps=Never.")
  Map<String, String> restartPolicies = new LinkedHashMap<>();

  @Option(
      names = "--backoff-limit",
      paramLabel = "N",
      description = "runPolicy.backoffLimit (default: 6, Kubernetes' default for a Job).")
  int backoffLimit = 6;

  @Option(
      names = "--success-policy",
      paramLabel = "AllWorkers",
      description = "Default: the deciding replica's success is the job's.")
  String successPolicy = "";

  @Option(
      names = "--clean-pod-policy",
      paramLabel = "None|Running|All",
      description = "Default: None.")
  String cleanPodPolicy = "None";

  @Option(
      names = "--carrier",
      paramLabel = "job|pod",
      description = "What carries each replica's pod (default: job).")
  String carrier = "job";

  @Option(names = "--dynamic-workers", description = "A failed Worker does not fail the job.")
  boolean dynamicWorkers;

  @Option(
      names = "--replica",
      paramLabel = "TYPE:NAME",
      description = "Every other replica, e.g. ps:mnist-ps-0.")
  List<String> replicas = new ArrayList<>();

  TfJobCommand(Termination termination) {
    super(termination);
  }

  TfJobCommand(
      Termination termination, Supplier<KubernetesClient> clients, Map<String, String> env) {
    super(termination, clients, env);
  }

  @Override
  public Integer call() throws Exception {
    return withClient(client -> new TfJobSidecar(client, settings(), termination).run());
  }

  TfJobSidecar.Settings settings() {
    PodIdentity me = thisPod(pod);
    for (Map.Entry<String, String> e : restartPolicies.entrySet()) {
      if (!POLICIES.contains(e.getValue())) {
        throw usage("--restart-policy " + e.getKey() + " must be one of " + POLICIES);
      }
    }
    if (!List.of("None", "Running", "All").contains(cleanPodPolicy)) {
      throw usage("--clean-pod-policy must be None, Running or All");
    }
    if (!List.of("", "AllWorkers").contains(successPolicy)) {
      throw usage("--success-policy must be AllWorkers or empty");
    }
    if (!List.of("job", "pod").contains(carrier)) {
      throw usage("--carrier must be job or pod");
    }
    if (backoffLimit < 0) {
      throw usage("--backoff-limit must be at least 0");
    }
    Map<String, String> others = new LinkedHashMap<>();
    for (String r : replicas) {
      int colon = r.indexOf(':');
      if (colon <= 0 || colon == r.length() - 1) {
        throw usage("--replica must be TYPE:NAME, not '" + r + "'");
      }
      others.put(r.substring(colon + 1), r.substring(0, colon));
    }
    return new TfJobSidecar.Settings(
        me.namespace(),
        me.name(),
        job,
        self,
        mainContainer,
        Map.copyOf(restartPolicies),
        backoffLimit,
        "AllWorkers".equals(successPolicy),
        cleanPodPolicy,
        "pod".equals(carrier),
        dynamicWorkers,
        others);
  }
}
