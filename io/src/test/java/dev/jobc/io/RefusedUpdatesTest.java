package dev.jobc.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.ManifestCompiler;
import dev.jobc.model.CompileResult;
import dev.jobc.model.OutputObject;
import dev.jobc.model.Source;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.OptionTable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A render next to the one before it: which objects would the API server refuse to update? A new
 * sidecar image or cluster domain changes every launcher Job's pod template, which Kubernetes holds
 * immutable: Argo CD's sync fails and Flux stops applying for each existing job.
 */
class RefusedUpdatesTest {
  @TempDir Path tmp;

  static final String MPI_JOB =
      """
      apiVersion: kubeflow.org/v2beta1
      kind: MPIJob
      metadata: {name: pi, namespace: team}
      spec:
        runPolicy: {cleanPodPolicy: Running}
        mpiReplicaSpecs:
          Launcher:
            replicas: 1
            template:
              spec:
                containers: [{name: launcher, image: pi, command: [mpirun]}]
          Worker:
            replicas: 2
            template:
              spec:
                containers: [{name: worker, image: pi}]
      """;

  static final String DGL_PODS =
      """
      apiVersion: qihoo.net/v1alpha1
      kind: DGLJob
      metadata: {name: sage, namespace: team}
      spec:
        partitionMode: DGL-API
        dglReplicaSpecs:
          Launcher:
            replicas: 1
            template:
              spec:
                containers:
                - {name: sage, image: dgl, command: [dglrun], args: [--num-partitions, "2"]}
          Worker:
            replicas: 2
            template:
              spec:
                containers: [{name: sage, image: dgl}]
      """;

  private static List<OutputObject> render(String job, CompileOptions options) {
    CompileResult result =
        new ManifestCompiler().compile(List.of(new Source("j.yaml", job)), options);
    assertThat(result.diagnostics()).isEmpty();
    return result.objects();
  }

  private static SortedMap<String, String> files(List<OutputObject> objects) {
    SortedMap<String, String> out = new TreeMap<>();
    objects.forEach(o -> out.put(o.fileName(), o.yaml()));
    return out;
  }

  @Test
  void aNewSidecarImageChangesEveryJobTemplate() {
    var before = files(render(MPI_JOB, CompileOptions.defaults()));
    var after =
        files(
            render(
                MPI_JOB,
                CompileOptions.defaults()
                    .with(OptionTable.SIDECAR_IMAGE, "registry.example.com/jobc-sidecar:2")));
    assertThat(RefusedUpdates.between(before, after))
        .extracting(RefusedUpdates.Refusal::file, RefusedUpdates.Refusal::field)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "job-pi-launcher.yaml", "spec.template.spec.initContainers[jobc-sidecar].image"),
            org.assertj.core.groups.Tuple.tuple(
                "job-pi-scaler.yaml", "spec.template.spec.containers[jobc-sidecar].image"));
    RefusedUpdates.Refusal first = RefusedUpdates.between(before, after).get(0);
    assertThat(first.message())
        .isEqualTo(
            "Job team/pi-launcher: spec.template.spec.initContainers[jobc-sidecar].image changes"
                + " (ghcr.io/jobc-dev/jobc-sidecar:0.2.0 -> registry.example.com/jobc-sidecar:2),"
                + " and the API server refuses to change it in an existing Job; if it exists in a"
                + " cluster, applying this render fails there"
                + " (docs/gitops.md#when-a-render-changes-an-existing-job)");
  }

  /**
   * Two long values that differ near their end show the part that differs, cut at the same place:
   * cut at the same length from their start, both read "A..." and the warning showed no change.
   */
  @Test
  void aLongValueShowsThePartThatDiffers() {
    String prefix = "-Xss256k -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto ".repeat(3);
    String job =
        """
        apiVersion: batch/v1
        kind: Job
        metadata: {name: pi-launcher, namespace: team}
        spec:
          template:
            spec:
              containers:
              - name: jobc-sidecar
                env:
                - {name: JAVA_TOOL_OPTIONS, value: "OPTS"}
        """;
    var before =
        new TreeMap<>(java.util.Map.of("job.yaml", job.replace("OPTS", prefix + "-Xmx24m")));
    var after =
        new TreeMap<>(java.util.Map.of("job.yaml", job.replace("OPTS", prefix + "-Xmx40m")));
    RefusedUpdates.Refusal r = RefusedUpdates.between(before, after).get(0);
    assertThat(r.field())
        .isEqualTo("spec.template.spec.containers[jobc-sidecar].env[JAVA_TOOL_OPTIONS].value");
    assertThat(r.before()).isNotEqualTo(r.after()).startsWith("...").endsWith("-Xmx24m");
    assertThat(r.after()).startsWith("...").endsWith("-Xmx40m");
    assertThat(r.before().length()).isLessThanOrEqualTo(RefusedUpdates.SHOWN + 3);
  }

  /**
   * A JobSet's replicated Jobs are immutable (JobSet v0.12.0's webhook, {@code ValidateUpdate}): a
   * new worker image in the JobSet target is refused for an existing JobSet, and says so.
   */
  @Test
  void aJobSetsReplicatedJobsAreImmutable() {
    CompileOptions jobSet =
        CompileOptions.defaults().with(OptionTable.TARGET, dev.jobc.options.Target.JOB_SET);
    var before = files(render(MPI_JOB, jobSet));
    var after =
        files(
            render(
                MPI_JOB.replace("name: worker, image: pi", "name: worker, image: pi:2"), jobSet));
    assertThat(RefusedUpdates.between(before, before)).isEmpty();
    assertThat(RefusedUpdates.between(before, after))
        .extracting(RefusedUpdates.Refusal::object, RefusedUpdates.Refusal::field)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "JobSet team/pi",
                "spec.replicatedJobs[worker].template.spec.template.spec.containers[worker].image"));
  }

  @Test
  void theSameRenderAndMutableChangesAreNotRefused() {
    var before = files(render(MPI_JOB, CompileOptions.defaults()));
    assertThat(RefusedUpdates.between(before, before)).isEmpty();
    // More workers: the ConfigMap, Role and StatefulSet change, which may; the launcher's sidecar
    // arguments do too, which the Job refuses.
    var more =
        files(render(MPI_JOB.replace("replicas: 2", "replicas: 3"), CompileOptions.defaults()));
    assertThat(RefusedUpdates.between(before, more))
        .extracting(RefusedUpdates.Refusal::file)
        .containsExactly("job-pi-launcher.yaml", "job-pi-scaler.yaml");
  }

  /**
   * A bare Pod's images may change (so may the sidecar's and kubectl's), the rest of its spec may
   * not: a new argument of a jobc container, say.
   */
  @Test
  void podsRefuseAllButImagesAndTheirFewMutableFields() {
    var before = files(render(DGL_PODS, CompileOptions.defaults()));
    var images =
        files(
            render(
                DGL_PODS,
                CompileOptions.defaults()
                    .with(OptionTable.KUBECTL_IMAGE, "k:2")
                    .with(OptionTable.SIDECAR_IMAGE, "s:2")));
    assertThat(RefusedUpdates.between(before, images)).isEmpty();
    var args =
        files(render(DGL_PODS.replace("\"2\"]}", "\"2\", --x]}"), CompileOptions.defaults()));
    assertThat(RefusedUpdates.between(before, args))
        .extracting(RefusedUpdates.Refusal::object, RefusedUpdates.Refusal::field)
        .contains(
            org.assertj.core.groups.Tuple.tuple(
                "Pod team/sage-launcher", "spec.containers[sage].args"));
  }

  /** {@code -o} and {@code --check} say it, about the directory's previous render. */
  @Test
  void writingAndCheckingADirectoryReportTheRefusals() throws IOException {
    OutputDirectory dir = new OutputDirectory("out", tmp.resolve("out"));
    List<OutputObject> first = render(MPI_JOB, CompileOptions.defaults());
    assertThat(RenderedDirectory.write(first, dir, List.of()).warnings()).isEmpty();
    List<OutputObject> second =
        render(MPI_JOB, CompileOptions.defaults().with(OptionTable.SIDECAR_IMAGE, "s:2"));
    RenderedDirectory.Outcome check = RenderedDirectory.check(second, dir);
    assertThat(check.ok()).isFalse();
    assertThat(check.warnings())
        .hasSize(2)
        .first()
        .asString()
        .startsWith("out/job-pi-launcher.yaml: warning: Job team/pi-launcher: spec.template");
    RenderedDirectory.Outcome write = RenderedDirectory.write(second, dir, List.of());
    assertThat(write.ok()).isTrue();
    assertThat(write.warnings()).isEqualTo(check.warnings());
    assertThat(RenderedDirectory.write(second, dir, List.of()).warnings()).isEmpty();
  }
}
