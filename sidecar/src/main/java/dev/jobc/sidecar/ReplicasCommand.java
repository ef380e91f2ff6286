package dev.jobc.sidecar;

import dev.jobc.sidecar.client.ClusterApi;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code replicas}: the native sidecar beside each deciding replica of a PyTorchJob, XGBoostJob,
 * JAXJob or PaddleJob (see {@link ReplicasSidecar}).
 */
@Command(
    name = "replicas",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description =
        "Decide the outcome of a training-operator job (PyTorchJob, XGBoostJob, JAXJob,"
            + " PaddleJob) beside a deciding replica, record it, end what is left.")
final class ReplicasCommand extends SidecarCommand {
  static final List<String> POLICIES = List.of("Always", "OnFailure", "Never", "ExitCode");

  @Option(names = "--pod", paramLabel = "NAME", description = "This pod; default: $POD_NAME.")
  String pod;

  @Option(
      names = "--kind",
      paramLabel = "KIND",
      required = true,
      description = "The job's kind, e.g. PyTorchJob: the Events' reasons and messages.")
  String kind;

  @Option(
      names = "--operator",
      paramLabel = "NAME",
      required = true,
      description = "The pods' training.kubeflow.org/operator-name, e.g. pytorchjob-controller.")
  String operator;

  @Option(names = "--job", paramLabel = "NAME", required = true, description = "The job's name.")
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
      required = true,
      description = "The container whose exit decides, e.g. pytorch.")
  String mainContainer;

  @Option(
      names = "--restart-policy",
      paramLabel = "TYPE=POLICY",
      required = true,
      description = "Each replica type's restart policy (lower-case type), e.g. worker=OnFailure.")
  Map<String, String> restartPolicies = new LinkedHashMap<>();

  @Option(
      names = "--backoff-limit",
      paramLabel = "N",
      description = "runPolicy.backoffLimit (default: 6, Kubernetes' default for a Job).")
  int backoffLimit = 6;

  @Option(
      names = "--decides",
      paramLabel = "TYPE",
      required = true,
      description = "The lower-case type whose replicas decide success (this replica's).")
  String decides;

  @Option(
      names = "--success",
      paramLabel = "all|any",
      description = "All deciding replicas must succeed (default), or the first suffices.")
  String success = "all";

  @Option(
      names = "--tolerate",
      paramLabel = "TYPE",
      description = "A lower-case type whose failures do not fail the job.")
  List<String> tolerated = new ArrayList<>();

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

  @Option(
      names = "--replica",
      paramLabel = "TYPE:NAME",
      description = "Every other replica, e.g. worker:mnist-worker-0.")
  List<String> replicas = new ArrayList<>();

  ReplicasCommand(Termination termination) {
    super(termination);
  }

  ReplicasCommand(Termination termination, Supplier<ClusterApi> apis, Map<String, String> env) {
    super(termination, apis, env);
  }

  @Override
  public Integer call() throws Exception {
    return new ReplicasSidecar(apis.get(), settings(), termination).run();
  }

  ReplicasSidecar.Settings settings() {
    PodIdentity me = thisPod(pod);
    for (Map.Entry<String, String> e : restartPolicies.entrySet()) {
      if (!POLICIES.contains(e.getValue())) {
        throw usage("--restart-policy " + e.getKey() + " must be one of " + POLICIES);
      }
    }
    if (!List.of("None", "Running", "All").contains(cleanPodPolicy)) {
      throw usage("--clean-pod-policy must be None, Running or All");
    }
    if (!List.of("all", "any").contains(success)) {
      throw usage("--success must be all or any");
    }
    if (!List.of("job", "pod").contains(carrier)) {
      throw usage("--carrier must be job or pod");
    }
    if (backoffLimit < 0) {
      throw usage("--backoff-limit must be at least 0");
    }
    if (!self.startsWith(job + "-" + decides + "-")) {
      throw usage("--self must be a replica of the deciding type " + decides);
    }
    Map<String, String> others = new LinkedHashMap<>();
    for (String r : replicas) {
      int colon = r.indexOf(':');
      if (colon <= 0 || colon == r.length() - 1) {
        throw usage("--replica must be TYPE:NAME, not '" + r + "'");
      }
      others.put(r.substring(colon + 1), r.substring(0, colon));
    }
    Set<String> tolerate = new LinkedHashSet<>(tolerated);
    return new ReplicasSidecar.Settings(
        me.namespace(),
        me.name(),
        kind,
        operator,
        cleanPodPolicy,
        new ReplicaOutcome.Rules(
            job,
            self,
            mainContainer,
            Map.copyOf(restartPolicies),
            backoffLimit,
            decides,
            "any".equals(success),
            "pod".equals(carrier),
            others,
            Set.copyOf(tolerate)));
  }
}
