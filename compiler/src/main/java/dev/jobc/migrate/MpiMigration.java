package dev.jobc.migrate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobc.diag.Code;
import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Finding;
import dev.jobc.diag.Quoting;
import dev.jobc.mpi.MpiJobModel;
import dev.jobc.mpi.MpiJobPlanner;
import dev.jobc.mpi.MpiPaths;
import dev.jobc.options.JobAnnotations;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An MPIJob {@code v2beta1} (mpi-operator v0.8) becomes a TrainJob on a TrainingRuntime {@code
 * <job>-runtime} with the {@code mpi} policy ({@code plugins/mpi/mpi.go}): the Worker template is
 * the {@code node} Job's, the Launcher's the {@code launcher} Job's (the trainer), both first
 * containers named {@code node}; {@code slotsPerWorker}, {@code runLauncherAsWorker} and {@code
 * sshAuthMountPath} are the policy's, {@code launcherCreationPolicy: WaitForWorkersReady} the
 * launcher's {@code dependsOn}, and the launcher decides the job, as in Trainer's MPI runtimes.
 * Trainer's plugin sets the hostfile and the OpenMPI 4 variables; the ones mpi-operator also set
 * ({@code K_MPI_JOB_ROLE}, Open MPI 5's {@code PRTE_MCA_*}, the GPU-hiding {@code NVIDIA_*}) are
 * kept in the templates.
 */
final class MpiMigration {
  /** {@code constants.MPIHostfileDir} and {@code MPIHostfileName} (both projects agree). */
  private static final String HOSTFILE = "/etc/mpi/hostfile";

  /** mpi-operator v0.8 {@code ompiEnvVars}, and Trainer's {@code OpenMPIEnvKeyRSHArgs} value. */
  private static final String SSH_ARGS = "-o ConnectionAttempts=10";

  /** mpi-operator v2beta1 {@code LauncherCreationPolicyWaitForWorkersReady}. */
  private static final String WAIT = "WaitForWorkersReady";

  private MpiMigration() {}

  static Migration migrate(JsonNode root, MpiJobModel job) {
    List<Finding> findings = new ArrayList<>();
    if (!"OpenMPI".equals(job.implementation())) {
      findings.add(
          Finding.error(
              Code.NOT_SUPPORTED,
              job.paths().implementation(),
              "Unsupported value: "
                  + Quoting.quote(job.implementation())
                  + ": Trainer v2.3.0's MPI policy runs OpenMPI only (trainingruntime_types.go"
                  + " MPIImplementation)"));
    }
    if (job.maxReplicas() != null) {
      findings.add(
          Finding.error(
              Code.FORBIDDEN,
              FieldPath.of("metadata", "annotations").key(JobAnnotations.MAX_REPLICAS),
              "Forbidden: no Trainer v2.3.0 equivalent: a TrainJob's node count is fixed (the MPI"
                  + " plugin's hostfile lists every node); remove it"));
    }
    int workers = job.workerReplicas();
    Map<String, Integer> pods = new LinkedHashMap<>();
    if (workers > 0) {
      pods.put(TrainerObjects.NODE, workers);
    }
    pods.put(TrainerObjects.LAUNCHER, 1);
    findings.addAll(TrainerObjects.checkJobSet(job.name(), pods, root, job.options()));
    JobPolicy policy = JobPolicy.of(root, job.options(), workers + 1);
    findings.addAll(policy.findings());
    boolean wait = workers > 0 && WAIT.equals(job.launcherCreationPolicy());
    if (wait && policy.podGroupPolicy() != null) {
      // coscheduling.go, volcano.go Build: minMember counts the launcher, whose Job dependsOn
      // creates only once the workers run, and the workers wait for the whole gang.
      findings.add(
          Finding.error(
              Code.INVALID,
              MpiPaths.SPEC.child("launcherCreationPolicy"),
              "Invalid value: \"WaitForWorkersReady\": with gang scheduling the TrainJob never"
                  + " starts: its PodGroup counts the launcher, which the JobSet creates only once"
                  + " the workers are Ready, and they wait for the whole gang; remove it or the"
                  + " gang scheduler"));
    }
    // mpi-operator v2beta1's restart policies (Never, OnFailure) are a JobSet pod's: the v1
    // checks have refused any other.
    FieldPath launcherPath = job.paths().launcher();
    FieldPath workerPath = job.paths().worker();
    ObjectNode launcher = pod(root, launcherPath, job.launcher().restartPolicy(), policy, findings);
    ObjectNode worker =
        workers > 0 ? pod(root, workerPath, job.worker().restartPolicy(), policy, findings) : null;
    if (findings.stream().anyMatch(Finding::isError)) {
      return new Migration(List.of(), findings);
    }

    List<ObjectNode> launcherEnv = new ArrayList<>();
    launcherEnv.add(Trees.env("K_MPI_JOB_ROLE", "launcher"));
    // Open MPI 5's names for what Trainer sets in OMPI_MCA_* (mpi-operator sets both).
    launcherEnv.add(Trees.env("PRTE_MCA_prte_keep_fqdn_hostnames", "true"));
    launcherEnv.add(Trees.env("PRTE_MCA_prte_default_hostfile", HOSTFILE));
    launcherEnv.add(Trees.env("PRTE_MCA_plm_ssh_args", SSH_ARGS));
    if (!MpiJobPlanner.hasGpu(job.launcher()) && !job.runLauncherAsWorker()) {
      // mpi-operator: "so that users will not be mistakenly using GPU resources for launcher".
      for (String name : List.of("NVIDIA_VISIBLE_DEVICES", "NVIDIA_DRIVER_CAPABILITIES")) {
        launcherEnv.add(Trees.NODES.objectNode().put("name", name));
      }
    }
    Trees.upsertEnv(node(launcher), launcherEnv);
    if (worker != null) {
      ObjectNode main = node(worker);
      if (!main.has("command") && !main.has("args")) {
        // mpi-operator v0.8 newWorker: a worker without a command runs sshd.
        main.putArray("command").add("/usr/sbin/sshd");
        main.putArray("args").add("-De");
      }
      Trees.upsertEnv(main, List.of(Trees.env("K_MPI_JOB_ROLE", "worker")));
    }

    ObjectNode mlPolicy = Trees.NODES.objectNode();
    // The trainer (launcher) Job runs the policy's numNodes pods: one.
    mlPolicy.put("numNodes", 1);
    ObjectNode mpi = mlPolicy.putObject("mpi");
    mpi.put("numProcPerNode", job.slotsPerWorker());
    mpi.put("mpiImplementation", "OpenMPI");
    mpi.put("sshAuthMountPath", job.sshAuthMountPath());
    mpi.put("runLauncherAsNode", job.runLauncherAsWorker());
    ObjectNode jobSet = Trees.NODES.objectNode();
    // MPIJob: the launcher decides (as Trainer's deepspeed and mlx runtimes).
    ObjectNode success = jobSet.putObject("successPolicy");
    success.put("operator", "All");
    success.putArray("targetReplicatedJobs").add(TrainerObjects.LAUNCHER);
    ArrayNode jobs = Trees.NODES.arrayNode();
    if (worker != null) {
      // Never: a failed worker fails the job (mpirun has lost its rank), as the family's Never.
      String restart = job.worker().restartPolicy();
      jobs.add(
          TrainerObjects.replicatedJob(
              TrainerObjects.NODE,
              null,
              false,
              RestartPolicies.NEVER.equals(restart) ? Integer.valueOf(0) : null,
              restart,
              worker));
    }
    // WaitForWorkersReady: the launcher's Job is created once every worker is Ready, as Trainer's
    // MPI runtimes do it.
    jobs.add(
        TrainerObjects.replicatedJob(
            TrainerObjects.LAUNCHER,
            wait ? TrainerObjects.NODE : null,
            true,
            policy.backoffLimit(),
            job.launcher().restartPolicy(),
            launcher));
    ObjectNode runtime =
        TrainerObjects.runtime(root, job.namespace(), "mpi", mlPolicy, policy, jobSet, jobs);

    ObjectNode trainer = Trees.NODES.objectNode();
    int nodes = workers + (job.runLauncherAsWorker() ? 1 : 0);
    if (nodes > 0) {
      trainer.put("numNodes", nodes);
    }
    // Explicit, so that a node with GPUs keeps slotsPerWorker (mpi.go would take its GPU count).
    trainer.put("numProcPerNode", job.slotsPerWorker());
    ObjectNode trainJob =
        TrainerObjects.trainJob(
            root, job.namespace(), TrainerObjects.ownRuntimeRef(job.name()), trainer, policy);
    return new Migration(List.of(trainJob, runtime), findings);
  }

  /**
   * A replica's pod template as written, its first container renamed {@code node}, without its own
   * restart policy (the replica's replaces it), with the gang's scheduler.
   */
  private static ObjectNode pod(
      JsonNode root,
      FieldPath replica,
      String restartPolicy,
      JobPolicy policy,
      List<Finding> findings) {
    // no golden case: the v2beta1 schema refuses a template's apiVersion and kind.
    ObjectNode pod = TrainerObjects.podTemplate(root, replica.child("template"), findings);
    RestartPolicies.replaceTemplatePolicy(pod, restartPolicy, replica.child("template"), findings);
    ObjectNode spec = Trees.object(pod, "spec");
    JsonNode containers = spec.path("containers");
    for (int i = 1; i < containers.size(); i++) {
      if (TrainerObjects.NODE.equals(containers.get(i).path("name").asText())) {
        findings.add(
            FamilyMigration.nodeTaken(
                replica.child("template").child("spec").child("containers").index(i)));
      }
    }
    if (containers.size() > 0) {
      ((ObjectNode) containers.get(0)).put("name", TrainerObjects.NODE);
    }
    if (policy.schedulerName() != null) {
      spec.put("schedulerName", policy.schedulerName());
    }
    return pod;
  }

  private static ObjectNode node(ObjectNode pod) {
    return (ObjectNode) pod.path("spec").path("containers").get(0);
  }
}
