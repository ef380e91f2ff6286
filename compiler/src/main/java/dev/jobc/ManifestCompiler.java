package dev.jobc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import dev.jobc.diag.Code;
import dev.jobc.diag.Diagnostic;
import dev.jobc.diag.Severity;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Compiles job specs into Kubernetes objects. Instances are immutable and thread-safe; create one
 * and reuse it (it caches schemas and templates).
 *
 * <p>INTERIM: passes documents through unchanged; the real pipeline replaces this body.
 */
public final class ManifestCompiler {
  private static final ObjectMapper YAML =
      new ObjectMapper(
          YAMLFactory.builder()
              .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
              .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
              .build());

  public ManifestCompiler() {}

  /**
   * Runs the whole pipeline over every document of every source and returns all objects (in output
   * order) or all diagnostics. Never throws for bad input.
   */
  public CompileResult compile(List<Source> sources, CompileOptions options) {
    List<OutputObject> out = new ArrayList<>();
    List<Diagnostic> diags = new ArrayList<>();
    for (Source s : sources) {
      try (MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(s.text())) {
        while (it.hasNext()) {
          JsonNode n = it.next();
          if (n == null || n.isNull() || n.isMissingNode()) {
            continue;
          }
          if (!n.path("kind").isTextual()) {
            diags.add(new Diagnostic(Severity.ERROR, Code.REQUIRED, s.name(), 1, 1, "kind", "missing"));
            continue;
          }
          out.add(
              new OutputObject(
                  n.path("apiVersion").asText(),
                  n.path("kind").asText(),
                  n.path("metadata").path("namespace").asText(),
                  n.path("metadata").path("name").asText(),
                  YAML.writeValueAsString(n)));
        }
      } catch (IOException | RuntimeException e) {
        diags.add(new Diagnostic(Severity.ERROR, Code.SYNTAX, s.name(), -1, -1, "", e.getMessage()));
      }
    }
    return diags.isEmpty() ? new CompileResult(out, diags) : new CompileResult(List.of(), diags);
  }

  /** The JSON Schema text used for an input kind, or {@code null} when the kind is not accepted. */
  public String schema(String apiVersion, String kind) {
    return null;
  }
}
