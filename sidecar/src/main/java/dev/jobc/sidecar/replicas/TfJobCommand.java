package dev.jobc.sidecar.replicas;

import dev.jobc.conventions.TfLabels;
import dev.jobc.sidecar.base.SidecarCommand;
import dev.jobc.sidecar.base.Termination;
import dev.jobc.sidecar.client.ClusterApi;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tfjob}: the native sidecar beside a TFJob's deciding replica. What is TFJob's own is here,
 * turned into {@link OutcomeRules} for {@link OutcomeSidecar}: training-operator v1.9.0's {@code
 * UpdateJobStatus} decides success by the Chief or Master, else by Worker 0, or with {@code
 * successPolicy: AllWorkers} by every Worker; it ignores failed Workers with {@code
 * enableDynamicWorker}; and an Evaluator, which ends by itself after its last evaluation, is left
 * running under {@code cleanPodPolicy: None}.
 */
@Command(
    name = "tfjob",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description =
        "Decide a TFJob's outcome beside its deciding replica, record it, stop what is left.")
public final class TfJobCommand extends SidecarCommand {
  static final List<String> POLICIES = List.of("Always", "OnFailure", "Never", "ExitCode");
  static final String KIND = "TFJob";
  static final String WORKER = "Worker";
  static final String EVALUATOR = "Evaluator";

  /**
   * Where training-operator starts a failed pod again ({@code ReconcilePods}), which a {@code
   * Restarting} condition then keeps from failing the TFJob in {@code UpdateJobStatus}.
   */
  static final Set<String> RESTARTING = Set.of("OnFailure", "Always", "ExitCode");

  @Option(names = "--pod", paramLabel = "NAME", description = "This pod; default: $POD_NAME.")
  String pod;

  @Option(names = "--job", paramLabel = "NAME", required = true, description = "The TFJob's name.")
  String job;

  @Option(
      names = "--self",
      paramLabel = "TYPE:NAME",
      required = true,
      description = "This replica, e.g. Chief:mnist-chief-0.")
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
      description = "Each replica type's restart policy, e.g. PS=Never.")
  Map<String, String> restartPolicies = new LinkedHashMap<>();

  @Option(
      names = "--backoff-limit",
      paramLabel = "N",
      description =
          "runPolicy.backoffLimit: with --carrier pod, over the restarts of all replicas"
              + " (default: none).")
  Integer backoffLimit;

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
      names = "--replicas",
      paramLabel = "TYPE=N",
      required = true,
      description =
          "Each replica type's count, e.g. Worker=4: the replicas are <job>-<type>-<index>,"
              + " type in lower case, index 0 to N-1.")
  Map<String, Integer> replicas = new LinkedHashMap<>();

  public TfJobCommand(Termination termination) {
    super(termination);
  }

  public TfJobCommand(Termination termination, Supplier<ClusterApi> apis, Map<String, String> env) {
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
    if (!List.of("", "AllWorkers").contains(successPolicy)) {
      throw usage("--success-policy must be AllWorkers or empty");
    }
    if (!List.of("job", "pod").contains(carrier)) {
      throw usage("--carrier must be job or pod");
    }
    if (backoffLimit != null && backoffLimit < 0) {
      throw usage("--backoff-limit must be at least 0");
    }
    String selfName = selfName();
    String selfType = self.substring(0, self.indexOf(':'));
    // The other replicas follow from the counts, as the operator names them (GenGeneralName), so
    // that no sidecar's arguments grow with the job.
    Map<String, String> types = new LinkedHashMap<>();
    int selfIndex = -1;
    for (Map.Entry<String, Integer> e : replicas.entrySet()) {
      if (e.getValue() < 0) {
        throw usage("--replicas " + e.getKey() + " must be at least 0");
      }
      for (int i = 0; i < e.getValue(); i++) {
        String name = TfLabels.replica(job, e.getKey().toLowerCase(Locale.ROOT), i);
        if (types.put(name, e.getKey()) != null) {
          throw usage("--replicas: " + name + " is named twice");
        }
        if (name.equals(selfName)) {
          if (!e.getKey().equals(selfType)) {
            throw usage("--self " + self + " is a replica of type " + e.getKey());
          }
          selfIndex = i;
        }
      }
    }
    if (selfIndex < 0) {
      throw usage("--self " + selfName + " is not one of the replicas --replicas counts");
    }
    // UpdateJobStatus: with AllWorkers (and no Chief or Master) the job succeeds once every Worker
    // has; otherwise this replica's success is the job's.
    Set<String> deciders = new TreeSet<>();
    boolean allWorkers = "AllWorkers".equals(successPolicy);
    if (allWorkers) {
      types.forEach(
          (name, type) -> {
            if (WORKER.equals(type)) {
              deciders.add(name);
            }
          });
    }
    deciders.add(selfName);
    // Worker 0 (or the one deciding replica) watches all the job's pods and Jobs; every other
    // deciding Worker its own replica's alone, so that the watch events per job grow linearly
    // with the Workers, not with their square. It decides its own failure as it goes, and at its
    // end reads the whole job once (OutcomeSidecar).
    boolean watchesAll = !allWorkers || !WORKER.equals(selfType) || selfIndex == 0;
    Map<String, String> watched =
        watchesAll
            ? TfLabels.jobSelector(job)
            : TfLabels.replicaSelector(job, selfType.toLowerCase(Locale.ROOT), selfIndex);
    boolean pods = "pod".equals(carrier);
    // UpdateJobStatus visits the types in the order Chief, Evaluator, Master, PS, Worker (their
    // lower-case names' order) and names the first with failed replicas.
    List<String> failureOrder = new ArrayList<>(types.keySet());
    failureOrder.sort(
        Comparator.comparing((String r) -> types.get(r).toLowerCase(Locale.ROOT))
            .thenComparing(Comparator.naturalOrder()));
    String ns = me.namespace();
    OutcomeRules rules =
        new OutcomeRules(
            KIND,
            job,
            types,
            restartPolicies,
            deciders,
            false,
            failureOrder,
            dynamicWorkers ? Set.of(WORKER) : Set.of(),
            Set.of(EVALUATOR),
            RESTARTING,
            cleanPodPolicy,
            backoffLimit,
            pods ? OutcomeRules.Carrier.POD : OutcomeRules.Carrier.JOB,
            true,
            mainContainer,
            KIND + " " + ns + "/" + job + " successfully completed.",
            KIND + " " + ns + "/" + job + " has failed because %d %s replica(s) failed.");
    return new OutcomeSidecar.Settings(
        ns, me.name(), selfName, TfLabels.jobSelector(job), watched, rules);
  }

  /** This replica's name, from {@code --self TYPE:NAME}. */
  private String selfName() {
    int colon = self.indexOf(':');
    if (colon <= 0 || colon == self.length() - 1) {
      throw usage("--self must be TYPE:NAME, not '" + self + "'");
    }
    return self.substring(colon + 1);
  }
}
