package dev.jobc.cli;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;

/** One run of {@code jobc} in a directory, with what it printed. */
record Run(int exitCode, String out, String err) {

  static Run in(Path workingDirectory, String... args) {
    return withStdin(workingDirectory, new byte[0], args);
  }

  static Run withStdin(Path workingDirectory, byte[] stdin, String... args) {
    return withStdin(workingDirectory, new ByteArrayInputStream(stdin), args);
  }

  static Run withStdin(Path workingDirectory, InputStream stdin, String... args) {
    return of(new JobcCommand(workingDirectory, stdin), args);
  }

  /** Runs {@code command} as {@link Main} runs it. */
  static Run of(JobcCommand command, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exitCode = Main.execute(command, new PrintWriter(out), new PrintWriter(err), args);
    return new Run(exitCode, out.toString(), err.toString());
  }
}
