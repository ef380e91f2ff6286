package dev.jobc.io;

import dev.jobc.ManifestCompiler;
import dev.jobc.diag.Diagnostic;
import dev.jobc.model.CompileResult;
import dev.jobc.model.Source;
import dev.jobc.options.CompileOptions;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * One compilation of named inputs: what was read, what came out, and every diagnostic (reading and
 * compiling) in {@link Diagnostic#ORDER}.
 */
public record Render(InputFiles inputs, CompileResult result, List<Diagnostic> diagnostics) {
  public Render {
    diagnostics = List.copyOf(diagnostics);
  }

  /**
   * Reads {@code paths} (files, directories, {@code -}) relative to {@code workingDirectory} and
   * compiles them.
   */
  public static Render of(
      ManifestCompiler compiler,
      List<String> paths,
      Path workingDirectory,
      InputStream stdin,
      CompileOptions options) {
    return of(compiler, paths, InputSelection.ALL, workingDirectory, stdin, options);
  }

  /** As above, reading below directories what {@code selection} selects. */
  public static Render of(
      ManifestCompiler compiler,
      List<String> paths,
      InputSelection selection,
      Path workingDirectory,
      InputStream stdin,
      CompileOptions options) {
    return run(compiler::compile, paths, selection, workingDirectory, stdin, options);
  }

  /**
   * As {@link #of}, migrating the v1 jobs of the inputs to Trainer v2 ({@link
   * ManifestCompiler#migrate}) instead of compiling them.
   */
  public static Render migrate(
      ManifestCompiler compiler,
      List<String> paths,
      InputSelection selection,
      Path workingDirectory,
      InputStream stdin,
      CompileOptions options) {
    return run(compiler::migrate, paths, selection, workingDirectory, stdin, options);
  }

  private static Render run(
      BiFunction<List<Source>, CompileOptions, CompileResult> run,
      List<String> paths,
      InputSelection selection,
      Path workingDirectory,
      InputStream stdin,
      CompileOptions options) {
    InputFiles inputs =
        InputFiles.read(paths, selection, workingDirectory, stdin, InputLimits.defaults());
    CompileResult result = run.apply(inputs.sources(), options);
    List<Diagnostic> diagnostics = new ArrayList<>(inputs.diagnostics());
    diagnostics.addAll(result.diagnostics());
    diagnostics.sort(Diagnostic.ORDER);
    return new Render(inputs, result, diagnostics);
  }

  /** True when neither reading nor compiling found an error. */
  public boolean ok() {
    return result.ok() && diagnostics.stream().noneMatch(Diagnostic::isError);
  }

  /** Each diagnostic as printed, one per line, each ending in {@code \n}. */
  public String report() {
    StringBuilder out = new StringBuilder();
    for (Diagnostic d : diagnostics) {
      out.append(d.format()).append('\n');
    }
    return out.toString();
  }
}
