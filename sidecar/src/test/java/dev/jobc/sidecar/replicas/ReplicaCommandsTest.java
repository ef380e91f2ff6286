package dev.jobc.sidecar.replicas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jobc.conventions.ReplicaLabels;
import dev.jobc.conventions.TfLabels;
import dev.jobc.sidecar.base.SidecarCommand;
import dev.jobc.sidecar.base.Termination;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** What {@code tfjob} and {@code replicas} make of their options. */
class ReplicaCommandsTest {
  static final Map<String, String> ENV = Map.of("POD_NAMESPACE", "env-ns", "POD_NAME", "env-pod");

  private static String usageError(SidecarCommand command, String... args) {
    StringWriter err = new StringWriter();
    int code = new CommandLine(command).setErr(new PrintWriter(err, true)).execute(args);
    assertThat(code).as(err.toString()).isEqualTo(2);
    return err.toString();
  }

  @Test
  void tfJobOptionsWinOverTheEnvAndTheEnvFillsTheRest() {
    TfJobCommand tf = new TfJobCommand(new Termination(), () -> null, ENV);
    new CommandLine(tf)
        .parseArgs(
            "--job",
            "m",
            "--self",
            "Chief:m-chief-0",
            "--restart-policy",
            "Chief=Never",
            "--replicas",
            "Chief=1",
            "--namespace",
            "opt-ns");
    assertThat(tf.settings().namespace()).isEqualTo("opt-ns");
    assertThat(tf.settings().pod()).isEqualTo("env-pod");
  }

  /**
   * The family's sidecar is given each type's count, not the other replicas' names (a JAXJob of
   * 1,500 workers rendered 1,499 names into each of 1,500 pods), and names them as the operator
   * does.
   */
  @Test
  void theFamilysOtherReplicasFollowFromTheCounts() {
    ReplicasCommand replicas = new ReplicasCommand(new Termination(), () -> null, ENV);
    new CommandLine(replicas)
        .parseArgs(
            "--kind",
            "JAXJob",
            "--operator",
            "jaxjob-controller",
            "--job",
            "j",
            "--self",
            "j-worker-1",
            "--main-container",
            "jax",
            "--restart-policy",
            "worker=Never",
            "--decides",
            "worker",
            "--replicas",
            "master=1",
            "--replicas",
            "worker=3");
    OutcomeSidecar.Settings settings = replicas.settings();
    OutcomeRules rules = settings.rules();
    assertThat(rules.types())
        .containsOnly(
            Map.entry("j-master-0", "Master"),
            Map.entry("j-worker-0", "Worker"),
            Map.entry("j-worker-1", "Worker"),
            Map.entry("j-worker-2", "Worker"));
    assertThat(rules.failureOrder())
        .as("its own replica first, then the others in the order of --replicas")
        .containsExactly("j-worker-1", "j-master-0", "j-worker-0", "j-worker-2");
    assertThat(rules.deciders()).containsOnly("j-worker-0", "j-worker-1", "j-worker-2");
    assertThat(settings.watchesAll()).isFalse();
    assertThat(settings.watched())
        .containsEntry(ReplicaLabels.OPERATOR_NAME, "jaxjob-controller")
        .containsEntry(ReplicaLabels.REPLICA_TYPE, "worker")
        .containsEntry(ReplicaLabels.REPLICA_INDEX, "1");

    assertThat(
            usageError(
                new ReplicasCommand(new Termination(), () -> null, ENV),
                "--kind",
                "JAXJob",
                "--operator",
                "o",
                "--job",
                "j",
                "--self",
                "j-worker-3",
                "--main-container",
                "jax",
                "--restart-policy",
                "worker=Never",
                "--decides",
                "worker",
                "--replicas",
                "worker=3"))
        .startsWith("--self j-worker-3 is not one of the replicas --replicas counts");
  }

  /**
   * TFJob's sidecar is given each type's count too, names the replicas as the operator does, and
   * with {@code AllWorkers} watches the whole job from Worker 0 alone, every other Worker its own.
   */
  @Test
  void aTfJobsReplicasFollowFromTheCounts() {
    OutcomeSidecar.Settings worker1 = tf("Worker:j-worker-1", "AllWorkers");
    assertThat(worker1.rules().types())
        .containsOnly(
            Map.entry("j-ps-0", "PS"),
            Map.entry("j-ps-1", "PS"),
            Map.entry("j-worker-0", "Worker"),
            Map.entry("j-worker-1", "Worker"),
            Map.entry("j-worker-2", "Worker"));
    assertThat(worker1.rules().deciders()).containsOnly("j-worker-0", "j-worker-1", "j-worker-2");
    assertThat(worker1.watchesAll()).isFalse();
    assertThat(worker1.watched())
        .containsEntry(TfLabels.REPLICA_TYPE, "worker")
        .containsEntry(TfLabels.REPLICA_INDEX, "1");
    assertThat(tf("Worker:j-worker-0", "AllWorkers").watchesAll()).isTrue();
    OutcomeSidecar.Settings alone = tf("Worker:j-worker-0", "");
    assertThat(alone.watchesAll()).isTrue();
    assertThat(alone.rules().deciders()).containsOnly("j-worker-0");

    assertThat(tfUsageError("Worker:j-worker-3"))
        .startsWith("--self j-worker-3 is not one of the replicas --replicas counts");
    assertThat(tfUsageError("PS:j-worker-0"))
        .startsWith("--self PS:j-worker-0 is a replica of type Worker");
  }

  /** TFJob {@code j}'s sidecar arguments for {@code self}, its Workers under {@code Never}. */
  private static String[] tfArgs(String self, String... more) {
    List<String> args =
        new java.util.ArrayList<>(
            List.of("--job", "j", "--self", self, "--restart-policy", "Worker=Never"));
    args.addAll(List.of(more));
    return args.toArray(String[]::new);
  }

  private static String tfUsageError(String self) {
    return usageError(
        new TfJobCommand(new Termination(), () -> null, ENV),
        tfArgs(self, "--replicas", "Worker=3"));
  }

  private static OutcomeSidecar.Settings tf(String self, String successPolicy) {
    TfJobCommand tf = new TfJobCommand(new Termination(), () -> null, ENV);
    new CommandLine(tf)
        .parseArgs(
            tfArgs(
                self,
                "--success-policy",
                successPolicy,
                "--replicas",
                "PS=2",
                "--replicas",
                "Worker=3"));
    return tf.settings();
  }

  @Test
  void theOwnTypeIsWhatLiesBetweenTheJobAndTheIndex() {
    assertThat(ReplicasCommand.selfType("my-job", "my-job-ps-worker-12")).isEqualTo("ps-worker");
  }

  @Test
  void theOwnIndexIsWhatFollowsTheType() {
    assertThat(ReplicasCommand.selfIndex("my-job-worker-12")).isEqualTo(12);
    assertThat(ReplicasCommand.selfIndex("my-job-worker-0")).isZero();
    assertThat(ReplicasCommand.selfIndex("my-job-worker-x")).isEqualTo(-1);
  }

  /** Replica 0 of the deciding type alone watches the whole job; the others their own pods. */
  @Test
  void onlyReplicaZeroOfTheDecidingTypeWatchesAll() {
    assertThat(family("my-job-worker-0", "worker").watchesAll()).isTrue();
    assertThat(family("my-job-worker-1", "worker").watchesAll()).isFalse();
    assertThatThrownBy(() -> family("my-job-master-0", "worker"))
        .as("a replica of another type does not decide, and watches nothing")
        .hasMessageStartingWith("--self must be a replica of the deciding type worker");
    assertThat(family("my-job-master-0", "master").watchesAll()).isTrue();
  }

  /** The sidecar of {@code self} in a job {@code my-job} of a Master and two Workers. */
  private static OutcomeSidecar.Settings family(String self, String deciding) {
    ReplicasCommand command = new ReplicasCommand(new Termination(), () -> null, ENV);
    new CommandLine(command)
        .parseArgs(
            "--kind",
            "PyTorchJob",
            "--operator",
            "o",
            "--job",
            "my-job",
            "--self",
            self,
            "--main-container",
            "pytorch",
            "--restart-policy",
            "worker=Never",
            "--decides",
            deciding,
            "--replicas",
            "master=1",
            "--replicas",
            "worker=2");
    return command.settings();
  }
}
