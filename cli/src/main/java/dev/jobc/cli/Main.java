package dev.jobc.cli;

import java.io.BufferedWriter;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;

/** Entry point of the shaded jar: runs {@link JobcCommand} and exits with its exit code. */
public final class Main {
  private Main() {} // don't instantiate

  public static void main(String[] args) {
    // Manifests are UTF-8 whatever the platform charset is. Auto-flush is off so a large render is
    // written in blocks; everything is flushed before the JVM exits.
    PrintWriter out = writer(FileDescriptor.out);
    PrintWriter err = writer(FileDescriptor.err);
    int exitCode = new CommandLine(new JobcCommand()).setOut(out).setErr(err).execute(args);
    out.flush();
    err.flush();
    System.exit(exitCode);
  }

  private static PrintWriter writer(FileDescriptor fd) {
    return new PrintWriter(
        new BufferedWriter(
            new OutputStreamWriter(new FileOutputStream(fd), StandardCharsets.UTF_8)));
  }
}
