package dev.jobc.sidecar.replicas;

import dev.jobc.conventions.ReplicaLabels;
import dev.jobc.sidecar.base.SidecarCommand;
import dev.jobc.sidecar.base.Termination;
import dev.jobc.sidecar.client.ClusterApi;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code replicas}: the native sidecar beside each deciding replica of a PyTorchJob, XGBoostJob,
 * JAXJob or PaddleJob. What is the kinds' own is here, turned into {@link OutcomeRules} for {@link
 * OutcomeSidecar}: the type whose replicas decide (this one's), whether all of them must succeed or
 * the first suffices (PyTorchJob's {@code elasticPolicy}), and the operator's messages. Its Role
 * grants no read of the replicas' Jobs: their pods say what the Jobs conclude.
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

  /**
   * Where training-operator starts a failed pod again ({@code ReconcilePods}) and the kind's {@code
   * UpdateJobStatus} then reports the job restarting, not failed.
   */
  static final Set<String> RESTARTING = Set.of("OnFailure", "Always", "ExitCode");

  /**
   * Kinds whose {@code UpdateJobStatus} restarts under fewer policies: XGBoostJob's fails the job
   * on a failed pod unless its policy is {@code ExitCode} (training-operator v1.9.0 {@code
   * pkg/controller.v1/xgboost/xgboostjob_controller.go}), though {@code ReconcilePods} has
   * restarted it under {@code OnFailure} and {@code Always}.
   */
  static final Map<String, Set<String>> RESTARTING_BY_KIND =
      Map.of("XGBoostJob", Set.of("ExitCode"));

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
      description =
          "runPolicy.backoffLimit (default: none; a replica's Job then has Kubernetes' 6).")
  Integer backoffLimit;

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

  @Override
  public Integer call() throws Exception {
    return new OutcomeSidecar(apis.get(), settings(), termination).run();
  }

  OutcomeSidecar.Settings settings() {
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
    if (backoffLimit != null && backoffLimit < 0) {
      throw usage("--backoff-limit must be at least 0");
    }
    if (!self.startsWith(job + "-" + decides + "-")) {
      throw usage("--self must be a replica of the deciding type " + decides);
    }
    // The other replicas follow from the counts, as the operator names them (GenGeneralName), so
    // that no sidecar's arguments grow with the job. Types go by the spec's spelling (Worker), as
    // in the operator's messages.
    Map<String, String> types = new LinkedHashMap<>();
    Set<String> deciders = new TreeSet<>();
    for (Map.Entry<String, Integer> e : replicas.entrySet()) {
      if (e.getValue() < 0) {
        throw usage("--replicas " + e.getKey() + " must be at least 0");
      }
      for (int i = 0; i < e.getValue(); i++) {
        String name = ReplicaLabels.replica(job, e.getKey(), i);
        types.put(name, display(e.getKey()));
        if (e.getKey().equals(decides)) {
          deciders.add(name);
        }
      }
    }
    if (!types.containsKey(self)) {
      throw usage("--self " + self + " is not one of the replicas --replicas counts");
    }
    // Its own failure first, then the others' in the order of --replicas: upstream visits the
    // types in Go's map order, which is any.
    List<String> failureOrder = new ArrayList<>();
    failureOrder.add(self);
    types.keySet().stream().filter(r -> !r.equals(self)).forEach(failureOrder::add);
    Map<String, String> policies = new LinkedHashMap<>();
    restartPolicies.forEach((type, policy) -> policies.put(display(type), policy));
    Set<String> ignored = new LinkedHashSet<>();
    tolerated.forEach(type -> ignored.add(display(type)));
    boolean pods = "pod".equals(carrier);
    String ns = me.namespace();
    OutcomeRules rules =
        new OutcomeRules(
            kind,
            job,
            types,
            policies,
            deciders,
            "any".equals(success),
            failureOrder,
            ignored,
            Set.of(),
            RESTARTING_BY_KIND.getOrDefault(kind, RESTARTING),
            cleanPodPolicy,
            backoffLimit,
            pods ? OutcomeRules.Carrier.POD : OutcomeRules.Carrier.JOB,
            false,
            mainContainer,
            // The master's controllers name the job alone, the workers' its namespace too.
            ReplicaLabels.MASTER.equals(decides)
                ? kind + " " + job + " is successfully completed."
                : kind + " " + ns + "/" + job + " successfully completed.",
            kind + " " + job + " is failed because %d %s replica(s) failed.");
    int index = selfIndex(self);
    // Replica 0 of the deciding type watches the whole job, every other deciding replica its own.
    Map<String, String> jobPods = ReplicaLabels.jobSelector(operator, job);
    Map<String, String> watched =
        self.equals(ReplicaLabels.replica(job, decides, 0))
            ? jobPods
            : ReplicaLabels.replicaSelector(operator, job, selfType(job, self), index);
    return new OutcomeSidecar.Settings(ns, me.name(), self, jobPods, watched, rules);
  }

  /** The type as the spec spells it: {@code Master}, {@code Worker}. */
  static String display(String type) {
    return type.isEmpty()
        ? type
        : type.substring(0, 1).toUpperCase(Locale.ROOT) + type.substring(1);
  }

  /** A replica's lower-case type: what lies between the job's name and the index. */
  static String selfType(String job, String replica) {
    String rest = replica.substring(Math.min(replica.length(), job.length() + 1));
    return rest.contains("-") ? rest.substring(0, rest.lastIndexOf('-')) : rest;
  }

  /** A replica's index: what follows the type, or -1. */
  static int selfIndex(String replica) {
    String index = replica.substring(replica.lastIndexOf('-') + 1);
    return index.matches("[0-9]{1,9}") ? Integer.parseInt(index) : -1;
  }
}
