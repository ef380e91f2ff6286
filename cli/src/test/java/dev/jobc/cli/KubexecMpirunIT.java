package dev.jobc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobc.conventions.Naming;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Debian's real {@code mpirun} (Open MPI 4.1, MPICH 4.0) launches a rendered MPIJob of 70 workers
 * through the rendered {@code kubexec.sh} and launcher environment, in both targets: in the JobSet
 * target the hostfile names the JobSet's host names ({@code big-worker-0-<i>}) and the pods' names
 * carry a random suffix, so {@code kubexec.sh} must find each worker's pod by its labels. Past Open
 * MPI's routing radix (64 daemons) Open MPI starts daemons from other daemons (tree spawn), i.e.
 * from inside worker pods, which have no kubectl and no right to exec; the stand-in kubectl fails
 * there as they do.
 *
 * <p>The stand-in emulates {@code kubectl exec POD [--container C] -- CMD...}: it runs CMD on this
 * machine in a fresh environment (a pod does not inherit the launcher's) with its own {@code
 * TMPDIR} and {@code JOBC_TEST_POD=POD}, the marker that says "inside pod POD". Called with that
 * marker set, i.e. from a process it started, it fails. Every worker's rank prints the marker, so
 * the test sees that each pod ran exactly its rank (and, with {@code runLauncherAsWorker}, that the
 * launcher's own rank ran outside every pod).
 */
class KubexecMpirunIT {
  private static final int WORKERS = 70;
  private static final String MARKER = "JOBC_TEST_POD";

  @TempDir Path tmp;

  @ParameterizedTest(name = "{0} {1} with {2}, launcher as worker: {3}, target {4}")
  @CsvSource({
    "kubeflow.org/v2beta1, OpenMPI, mpirun.openmpi, false, plain",
    "kubeflow.org/v2beta1, OpenMPI, mpirun.openmpi, true, plain",
    "kubeflow.org/v1, OpenMPI, mpirun.openmpi, false, plain",
    "kubeflow.org/v2beta1, MPICH, mpirun.mpich, false, plain",
    "kubeflow.org/v2beta1, OpenMPI, mpirun.openmpi, false, jobset",
    "kubeflow.org/v2beta1, OpenMPI, mpirun.openmpi, true, jobset",
    "kubeflow.org/v1, OpenMPI, mpirun.openmpi, false, jobset",
    "kubeflow.org/v2beta1, MPICH, mpirun.mpich, false, jobset"
  })
  void everyWorkerRunsItsRankWithoutExecFromAWorker(
      String apiVersion,
      String implementation,
      String mpirun,
      boolean launcherAsWorker,
      String target)
      throws IOException {
    ExternalCommand.require(mpirun);
    Files.writeString(tmp.resolve("job.yaml"), job(apiVersion, implementation, launcherAsWorker));
    ExternalCommand render =
        ExternalCommand.run(
            tmp,
            Map.of("PATH", ExternalCommand.pathWithBin()),
            "",
            List.of("jobc", "render", "--target", target, "job.yaml"));
    assertThat(render.exitCode()).as(render.toString()).isZero();
    List<JsonNode> objects = YamlStream.parse(render.out());
    JsonNode config = one(objects, "ConfigMap", "big-config").path("data");
    boolean jobSet = target.equals("jobset");
    JsonNode launcherJob =
        jobSet
            ? replicatedJob(one(objects, "JobSet", "big"), "launcher")
            : one(objects, "Job", "big-launcher");
    JsonNode launcher =
        launcherJob.path("spec").path("template").path("spec").path("containers").path(0);

    // The launcher's file system: /etc/mpi holds what the sidecar copies from the ConfigMap,
    // /opt/kube the kubectl that kubexec.sh runs (here the stand-in).
    Path etcMpi = Files.createDirectories(tmp.resolve("launcher/etc-mpi"));
    Path optKube = Files.createDirectories(tmp.resolve("launcher/opt-kube"));
    Path launcherTmp = Files.createDirectories(tmp.resolve("launcher/tmp"));
    Path pods = Files.createDirectories(tmp.resolve("pods"));
    // The pods the API server would list, each a file of its labels, one a line. A JobSet's pod
    // names end with a random suffix (here one made up per index), which no host name carries.
    Path existing = Files.createDirectories(tmp.resolve("existing-pods"));
    List<String> workerPods = new ArrayList<>();
    for (int i = 0; i < WORKERS; i++) {
      String pod = jobSet ? "big-worker-0-" + i + "-" + suffix(i) : "big-worker-" + i;
      workerPods.add(pod);
      Files.writeString(
          existing.resolve(pod),
          jobSet
              ? "jobset.sigs.k8s.io/jobset-name=big\n"
                  + "jobset.sigs.k8s.io/replicatedjob-name=worker\n"
                  + "batch.kubernetes.io/job-completion-index="
                  + i
                  + "\n"
              : "");
    }
    Path standIn = optKube.resolve("kubectl");
    executable(standIn, standInKubectl(pods, existing));
    Files.writeString(etcMpi.resolve("hostfile"), config.path("hostfile").asText());
    String kubexec = config.path("kubexec.sh").asText();
    assertThat(kubexec).contains(Naming.KUBECTL_MOUNT + "/kubectl");
    executable(
        etcMpi.resolve("kubexec.sh"),
        kubexec.replace(Naming.KUBECTL_MOUNT + "/kubectl", standIn.toString()));

    Map<String, String> env = new HashMap<>();
    for (JsonNode e : launcher.path("env")) {
      if (!e.has("valueFrom")) {
        env.put(
            e.path("name").asText(),
            e.path("value").asText().replace(Naming.CONFIG_MOUNT, etcMpi.toString()));
      }
    }
    assertThat(env).as("the rendered launcher environment").isNotEmpty();
    env.put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
    env.put("HOME", tmp.toString());
    env.put("TMPDIR", launcherTmp.toString());
    // Test harness only: CI may run as root, which Open MPI refuses without these; and the
    // hostfile's pod names resolve nowhere here, so Open MPI must not wait for DNS to learn
    // that they are not this machine.
    env.put("OMPI_ALLOW_RUN_AS_ROOT", "1");
    env.put("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    env.put("OMPI_MCA_if_base_do_not_resolve", "1");

    List<String> command = new ArrayList<>();
    for (JsonNode word : launcher.path("command")) {
      command.add(word.asText());
    }
    assertThat(command.get(0)).isEqualTo("mpirun");
    command.set(0, mpirun);
    ExternalCommand run = ExternalCommand.run(tmp, env, "", command);

    assertThat(pods.resolve("exec-from-a-worker"))
        .as("kubectl was run inside a worker pod:\n%s", run)
        .doesNotExist();
    assertThat(run.exitCode()).as(run.toString()).isZero();
    // The launcher's own rank runs outside every pod: kubexec.sh starts it locally.
    List<String> ranAt =
        run.out()
            .lines()
            .filter(l -> l.startsWith("rank in"))
            .map(l -> l.substring("rank in".length()).strip())
            .map(pod -> pod.isEmpty() ? "the launcher" : pod)
            .toList();
    List<String> expected = new ArrayList<>(workerPods);
    if (launcherAsWorker) {
      expected.add("the launcher");
    }
    assertThat(ranAt).containsExactlyInAnyOrderElementsOf(expected);
  }

  private static String job(String apiVersion, String implementation, boolean launcherAsWorker) {
    String launcher =
        """
              template:
                spec:
                  containers:
                  - name: launcher
                    image: mpi
                    command: [mpirun, -np, "%d", sh, -c, 'echo "rank in $%s"']
        """
            .formatted(WORKERS + (launcherAsWorker ? 1 : 0), MARKER);
    String worker =
        """
              replicas: %d
              template:
                spec:
                  containers:
                  - name: worker
                    image: mpi
        """
            .formatted(WORKERS);
    String spec =
        (apiVersion.endsWith("v2beta1") ? "  mpiImplementation: " + implementation + "\n" : "")
            + (launcherAsWorker ? "  runLauncherAsWorker: true\n" : "");
    return """
        apiVersion: %s
        kind: MPIJob
        metadata:
          name: big
          namespace: default
        spec:
          slotsPerWorker: 1
        %s  mpiReplicaSpecs:
            Launcher:
              replicas: 1
        %s    Worker:
        %s"""
        .formatted(apiVersion, spec, launcher, worker);
  }

  /**
   * {@code kubectl exec POD [--container C] -- CMD...} run on this machine as if inside POD, which
   * must exist (as {@code pod/POD} too); {@code kubectl get pods --selector K=V,...
   * --field-selector status.phase=Running --output name} prints {@code pod/NAME} for each existing
   * pod that has every label. Fails, and leaves a file the test checks, when called from inside a
   * pod.
   */
  private static String standInKubectl(Path pods, Path existing) {
    return """
        #!/bin/sh
        # Stand-in for kubectl exec and get pods (see KubexecMpirunIT).
        if [ -n "$%1$s" ]; then
          echo "kubectl: not found (called inside pod $%1$s: workers have no kubectl)" >&2
          echo "$%1$s: kubectl $*" >> '%2$s/exec-from-a-worker'
          exit 127
        fi
        if [ "$1" = get ]; then
          [ "$2" = pods ] && [ "$3" = --selector ] && [ "$5" = --field-selector ] \\
            && [ "$6" = status.phase=Running ] && [ "$7" = --output ] && [ "$8" = name ] \\
            && [ "$#" -eq 8 ] || { echo "stand-in kubectl: unexpected: $*" >&2; exit 2; }
          # One grep for all pods (a process per pod and label made 70 calls of 70 pods take a
          # minute and a half): a pod has every label when as many of its lines match as there
          # are labels, each label being on its own line at most once.
          selector=$4
          terms=0
          set --
          IFS=,
          for term in $selector; do terms=$((terms + 1)); set -- "$@" -e "$term"; done
          unset IFS
          grep -HcxF "$@" '%3$s'/* | while IFS= read -r line; do
            if [ "${line##*:}" -eq "$terms" ]; then
              file=${line%%:*}
              echo "pod/${file##*/}"
            fi
          done
          exit 0
        fi
        [ "$1" = exec ] || { echo "stand-in kubectl: only exec and get are emulated: $*" >&2; exit 2; }
        shift
        pod=$(basename "$1")
        [ -e '%3$s'/"$pod" ] || { echo "stand-in kubectl: no pod $pod" >&2; exit 1; }
        shift
        while [ "$#" -gt 0 ] && [ "$1" != -- ]; do shift; done
        shift
        mkdir -p '%2$s'/"$pod"
        exec env -i PATH="$PATH" HOME='%2$s'/"$pod" TMPDIR='%2$s'/"$pod" %1$s="$pod" "$@"
        """
        .formatted(MARKER, pods, existing);
  }

  /** A made-up stand-in for the five random characters of a JobSet pod's name. */
  private static String suffix(int index) {
    String letters = "bcdfghjklmnpqrstvwxz2456789";
    StringBuilder out = new StringBuilder();
    for (int i = 0, n = index * 7919 + 104729; i < 5; i++, n /= letters.length()) {
      out.append(letters.charAt(n % letters.length()));
    }
    return out.toString();
  }

  /** The replicated Job {@code name} of a JobSet: its Job template. */
  private static JsonNode replicatedJob(JsonNode jobSet, String name) {
    for (JsonNode r : jobSet.path("spec").path("replicatedJobs")) {
      if (r.path("name").asText().equals(name)) {
        return r.path("template");
      }
    }
    throw new AssertionError("no replicated Job " + name);
  }

  private static JsonNode one(List<JsonNode> objects, String kind, String name) {
    List<JsonNode> found =
        objects.stream()
            .filter(o -> o.path("kind").asText().equals(kind))
            .filter(o -> o.path("metadata").path("name").asText().equals(name))
            .toList();
    assertThat(found).as(kind + "/" + name).hasSize(1);
    return found.get(0);
  }

  private static void executable(Path file, String text) throws IOException {
    Files.writeString(file, text);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }
}
