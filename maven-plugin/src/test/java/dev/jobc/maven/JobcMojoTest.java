package dev.jobc.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.maven.plugin.MojoExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A defect in jobc fails the build with a one-line message, as {@code jobc} prints it, never with
 * an exception Maven reports with its stack trace.
 */
class JobcMojoTest {
  @TempDir Path project;

  /** A goal whose run fails the way the test says. */
  private JobcMojo failing(Throwable failure) throws IOException {
    JobcMojo mojo =
        new JobcMojo() {
          @Override
          ProjectRender.Result run(ProjectRender project) {
            if (failure instanceof RuntimeException r) {
              throw r;
            }
            throw (Error) failure;
          }

          @Override
          String failure(ProjectRender.Result result) {
            return "";
          }

          @Override
          String success(ProjectRender.Result result) {
            return "";
          }
        };
    Files.createDirectories(project.resolve("src/main/jobc"));
    mojo.sourceDirectory = project.resolve("src/main/jobc").toFile();
    mojo.outputDirectory = project.resolve("target/jobc").toFile();
    mojo.baseDirectory = project.toFile();
    mojo.stampFile = project.resolve("target/jobc.stamp").toFile();
    return mojo;
  }

  @Test
  void anUnexpectedExceptionIsOneLine() throws IOException {
    Throwable thrown =
        catchThrowable(
            () -> failing(new IllegalStateException("boom\n/etc/passwd:1:1: error: x")).execute());
    assertThat(thrown).isInstanceOf(MojoExecutionException.class);
    assertThat(thrown.getMessage())
        .isEqualTo(
            "jobc: internal error: java.lang.IllegalStateException:"
                + " boom\\n/etc/passwd:1:1: error: x");
  }

  @Test
  void aStackOverflowIsOneLineToo() throws IOException {
    Throwable thrown = catchThrowable(() -> failing(new StackOverflowError()).execute());
    assertThat(thrown).isInstanceOf(MojoExecutionException.class);
    assertThat(thrown.getMessage()).isEqualTo("jobc: internal error: java.lang.StackOverflowError");
  }

  @Test
  void aMavenHeapSmallerThanJobcsCeilingIsAWarning() {
    assertThat(JobcMojo.heapWarning(256L << 20))
        .isEqualTo(
            "jobc: Maven's heap is 256 MiB, less than the 512 MiB jobc's input limits are sized"
                + " for: a large input may run out of memory (set MAVEN_OPTS=-Xmx512m or more)");
    // -Xmx512m with the serial collector reports 494 MiB.
    assertThat(JobcMojo.heapWarning(494L << 20)).isNull();
  }
}
