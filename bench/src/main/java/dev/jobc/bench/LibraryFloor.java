package dev.jobc.bench;

import dev.jobc.load.Document;
import dev.jobc.load.LoadResult;
import dev.jobc.load.YamlLimits;
import dev.jobc.load.YamlLoader;
import dev.jobc.model.Source;
import dev.jobc.render.Templates;
import dev.jobc.schema.SchemaValidator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * The least a {@code jobc render} process must do with the libraries jobc is built on, and nothing
 * of jobc's own work: start the JVM, parse arguments with picocli, parse each input with the YAML
 * loader (SnakeYAML), check each job against its JSON Schema (Jackson + networknt) and render one
 * FreeMarker template. No binding, no generation, no output.
 *
 * <p>{@code bench/cli-bench.sh -f} times it next to {@code bin/jobc render} and {@code kubectl
 * kustomize}: the start-up floor of this stack, against which the CLI target is judged.
 */
@Command(name = "library-floor")
public final class LibraryFloor implements Callable<Integer> {
  @Parameters(description = "YAML files")
  List<Path> files = new ArrayList<>();

  public static void main(String[] args) {
    System.exit(new CommandLine(new LibraryFloor()).execute(args));
  }

  @Override
  public Integer call() throws IOException {
    YamlLoader loader = new YamlLoader(YamlLimits.defaults());
    SchemaValidator schemas = SchemaValidator.load();
    int documents = 0;
    int diagnostics = 0;
    for (Path file : files) {
      LoadResult loaded =
          loader.load(new Source(file.toString(), Files.readString(file, StandardCharsets.UTF_8)));
      for (Document doc : loaded.documents()) {
        documents++;
        String apiVersion = doc.root().path("apiVersion").asText();
        String kind = doc.root().path("kind").asText();
        if (schemas.supports(apiVersion, kind)) {
          diagnostics += schemas.validate(doc, apiVersion, kind).size();
        }
      }
    }
    String hostfile =
        new Templates()
            .render(
                "mpijob/discover_hosts.sh.ftl",
                Map.of("hosts", List.of("a-worker-0.a.default.svc")));
    // Printed so that no step can be optimised away; stdout is discarded by the bench.
    System.out.println(documents + " " + diagnostics + " " + hostfile.length());
    return 0;
  }
}
