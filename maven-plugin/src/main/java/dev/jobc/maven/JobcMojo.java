package dev.jobc.maven;

import dev.jobc.diag.Quoting;
import dev.jobc.io.InputSelection;
import dev.jobc.model.Budget;
import dev.jobc.options.CompileOptions;
import java.io.File;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * The parameters both goals share, and their mapping onto {@link ProjectRender}. The compile
 * options come from {@link OptionParameters}, which the build generates from the option table.
 */
abstract class JobcMojo extends OptionParameters {
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

  /**
   * Files and directories below {@code sourceDirectory} to leave out, as globs ({@code jobc render
   * --exclude}): relative to it ({@code kpt/**}), or without a {@code /} a name at any depth
   * ({@code test-*.yaml}). Tool configuration (kustomization.yaml and the files it names, Helm
   * charts, Argo CD's plugin.yaml) is left out anyway, with a note.
   */
  @Parameter(property = "jobc.excludes")
  List<String> excludes;

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
      // Parsed by the option table, as the CLI, KRM and Argo CD parse their values.
      CompileOptions options = CompileOptions.defaults().toDraft().setText(optionValues()).build();
      project =
          new ProjectRender(
              baseDirectory.toPath(),
              sourceDirectory.toPath(),
              outputDirectory.toPath(),
              stampFile.toPath(),
              new InputSelection(excludes == null ? List.of() : excludes, false),
              options);
    } catch (IllegalArgumentException e) {
      throw new MojoFailureException("jobc: " + e.getMessage(), e);
    }
    String heap = heapWarning(Runtime.getRuntime().maxMemory());
    if (heap != null) {
      getLog().warn(heap);
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
    result.notes().forEach(n -> getLog().info(n));
    result.warnings().forEach(w -> getLog().warn(w));
    if (!result.ok()) {
      result.report().lines().forEach(line -> getLog().error(line));
      throw new MojoFailureException(failure(result));
    }
    getLog().info(success(result));
  }

  /**
   * A warning when Maven's heap ({@code maxBytes}) is smaller than the one jobc's input limits are
   * sized for, {@link Budget#HEAP_MIB}, or null. The goals run in Maven's JVM (no fork), so its
   * heap is jobc's ceiling here; the JVM reports a little less than its {@code -Xmx} (a survivor
   * space), hence the tenth of slack.
   */
  static String heapWarning(long maxBytes) {
    long mib = maxBytes / (1024 * 1024);
    if (mib >= Budget.HEAP_MIB * 9L / 10) {
      return null;
    }
    return "jobc: Maven's heap is "
        + mib
        + " MiB, less than the "
        + Budget.HEAP_MIB
        + " MiB jobc's input limits are sized for: a large input may run out of memory (set"
        + " MAVEN_OPTS=-Xmx"
        + Budget.HEAP_MIB
        + "m or more)";
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
