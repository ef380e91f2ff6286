package dev.jobc.sidecar.replicas;

import dev.jobc.conventions.ReplicaLabels;
import dev.jobc.sidecar.base.SidecarCommand;
import dev.jobc.sidecar.base.Termination;
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
public final class ReplicasCommand extends SidecarCommand {
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
      names = "--replicas",
      paramLabel = "TYPE=N",
      required = true,
      description =
          "Each replica type's count (lower-case type), e.g. worker=4: the replicas are"
              + " <job>-<type>-<index>, index 0 to N-1.")
  Map<String, Integer> replicas = new LinkedHashMap<>();

  public ReplicasCommand(Termination termination) {
    super(termination);
  }

  public ReplicasCommand(
      Termination termination, Supplier<ClusterApi> apis, Map<String, String> env) {
    super(termination, apis, env);
  }

  private int replicaCount() {
    int n = 0;
    for (int count : replicas.values()) {
      n += count;
    }
    return n;
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
    // The other replicas follow from the counts, as the operator names them (GenGeneralName), so
    // that no sidecar's arguments grow with the job.
    Map<String, String> others = new LinkedHashMap<>();
    for (Map.Entry<String, Integer> e : replicas.entrySet()) {
      if (e.getValue() < 0) {
        throw usage("--replicas " + e.getKey() + " must be at least 0");
      }
      for (int i = 0; i < e.getValue(); i++) {
        String name = ReplicaLabels.replica(job, e.getKey(), i);
        if (!name.equals(self)) {
          others.put(name, e.getKey());
        }
      }
    }
    if (others.size() == replicaCount()) {
      throw usage("--self " + self + " is not one of the replicas --replicas counts");
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
