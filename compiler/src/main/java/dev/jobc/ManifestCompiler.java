package dev.jobc;

import java.util.List;

/**
 * Compiles job specs into Kubernetes objects. Instances are immutable and thread-safe; create one
 * and reuse it (it caches schemas and templates).
 */
public final class ManifestCompiler {

  public ManifestCompiler() {}

  /**
   * Runs the whole pipeline over every document of every source and returns all objects (in output
   * order) or all diagnostics. Never throws for bad input.
   */
  public CompileResult compile(List<Source> sources, CompileOptions options) {
    throw new UnsupportedOperationException("pipeline not assembled yet");
  }

  /** The JSON Schema text used for an input kind, or {@code null} when the kind is not accepted. */
  public String schema(String apiVersion, String kind) {
    throw new UnsupportedOperationException("pipeline not assembled yet");
  }
}
