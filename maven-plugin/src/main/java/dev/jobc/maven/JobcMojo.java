package dev.jobc.maven;

import dev.jobc.diag.Quoting;
import dev.jobc.io.NamedOptions;
import dev.jobc.options.CompileOptions;
import java.io.File;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Parameter;

/** The parameters both goals share, and their mapping onto {@link ProjectRender}. */
abstract class JobcMojo extends AbstractMojo {
  /** The job specs: every {@code *.yaml} / {@code *.yml} below it. */
  @Parameter(
      property = "jobc.sourceDirectory",
      defaultValue = "${project.basedir}/src/main/jobc",
      required = true)
  File sourceDirectory;

  /** The rendered objects, one file per object; jobc owns this directory. */
  @Parameter(
      property = "jobc.outputDirectory",
      defaultValue = "${project.build.directory}/jobc",
      required = true)
  File outputDirectory;

  /** Namespace for jobs that do not set {@code metadata.namespace}. */
  @Parameter(property = "jobc.namespace")
  String namespace;

  /** Cluster DNS domain appended to host names. */
  @Parameter(property = "jobc.clusterDomain")
  String clusterDomain;

  /** Image that provides kubectl for {@code kubexec.sh}. */
  @Parameter(property = "jobc.kubectlImage", defaultValue = CompileOptions.DEFAULT_KUBECTL_IMAGE)
  String kubectlImage;

  /** How the launcher reaches workers: {@code kubexec} or {@code ssh}. */
  @Parameter(property = "jobc.transport", defaultValue = "kubexec")
  String transport;

  /** Existing Secret with the SSH keys; implies {@code transport} {@code ssh}. */
  @Parameter(property = "jobc.sshSecret")
  String sshSecret;

  /** What runs the workers: {@code statefulset} or {@code pods}. */
  @Parameter(property = "jobc.workers", defaultValue = "statefulset")
  String workers;

  /** GPUs per node for v1alpha1 {@code gpus:} totals without {@code spec.gpusPerNode}. */
  @Parameter(property = "jobc.gpusPerNode", defaultValue = "8")
  int gpusPerNode;

  /** Units per node for v1alpha1 {@code processingUnits:} totals. */
  @Parameter(property = "jobc.unitsPerNode", defaultValue = "8")
  int unitsPerNode;

  /** Image of the jobc sidecar that waits for peer pods at run time. */
  @Parameter(property = "jobc.sidecarImage", defaultValue = CompileOptions.DEFAULT_SIDECAR_IMAGE)
  String sidecarImage;

  /** Gang-schedule every job: {@code volcano}, {@code scheduler-plugins} or a scheduler name. */
  @Parameter(property = "jobc.gangScheduler")
  String gangScheduler;

  /** Annotate generated objects {@code kustomize.toolkit.fluxcd.io/substitute: disabled}. */
  @Parameter(property = "jobc.disableFluxSubstitution", defaultValue = "false")
  boolean disableFluxSubstitution;

  /** Skip jobc entirely. */
  @Parameter(property = "jobc.skip", defaultValue = "false")
  boolean skip;

  @Parameter(defaultValue = "${project.basedir}", readonly = true, required = true)
  File baseDirectory;

  @Parameter(defaultValue = "${project.build.directory}/jobc.stamp", readonly = true)
  File stampFile;

  @Override
  public final void execute() throws MojoExecutionException, MojoFailureException {
    if (skip) {
      getLog().info("jobc: skipped (jobc.skip)");
      return;
    }
    if (!Files.isDirectory(sourceDirectory.toPath())) {
      getLog().info("jobc: no " + sourceDirectory + "; nothing to render");
      return;
    }
    ProjectRender project;
    try {
      // Through the same name table as the CLI, KRM and Argo CD, so values mean the same.
      Map<String, String> named = new LinkedHashMap<>();
      named.put("kubectl-image", kubectlImage);
      named.put("transport", transport);
      named.put("workers", workers);
      named.put("gpus-per-node", String.valueOf(gpusPerNode));
      named.put("units-per-node", String.valueOf(unitsPerNode));
      named.put("sidecar-image", sidecarImage);
      if (gangScheduler != null && !gangScheduler.isEmpty()) {
        named.put("gang-scheduler", gangScheduler);
      }
      named.put("disable-flux-substitution", String.valueOf(disableFluxSubstitution));
      if (namespace != null && !namespace.isEmpty()) {
        named.put("namespace", namespace);
      }
      if (clusterDomain != null && !clusterDomain.isEmpty()) {
        named.put("cluster-domain", clusterDomain);
      }
      if (sshSecret != null && !sshSecret.isEmpty()) {
        named.put("ssh-secret", sshSecret);
      }
      CompileOptions options = NamedOptions.applyAll(CompileOptions.defaults(), named);
      project =
          new ProjectRender(
              baseDirectory.toPath(),
              sourceDirectory.toPath(),
              outputDirectory.toPath(),
              stampFile.toPath(),
              options);
    } catch (IllegalArgumentException e) {
      throw new MojoFailureException("jobc: " + e.getMessage(), e);
    }
    ProjectRender.Result result;
    try {
      result = run(project);
    } catch (UncheckedIOException e) {
      throw new MojoExecutionException("jobc: " + Quoting.oneLine(e.getMessage()), e);
    } catch (RuntimeException | StackOverflowError e) {
      // A defect in jobc: one line, as the jobc command prints it; Maven's -e shows the trace.
      throw new MojoExecutionException(internalError(e), e);
    }
    result.warnings().forEach(w -> getLog().warn(w));
    if (!result.ok()) {
      result.report().lines().forEach(line -> getLog().error(line));
      throw new MojoFailureException(failure(result));
    }
    getLog().info(success(result));
  }

  /** The one-line message of an exception jobc did not expect. */
  static String internalError(Throwable t) {
    return "jobc: internal error: "
        + t.getClass().getName()
        + (t.getMessage() == null ? "" : ": " + Quoting.oneLine(t.getMessage()));
  }

  /** Runs the goal. */
  abstract ProjectRender.Result run(ProjectRender project);

  /** The exception message when the goal fails. */
  abstract String failure(ProjectRender.Result result);

  /** The info line when it succeeds. */
  abstract String success(ProjectRender.Result result);
}
