package dev.jobc.frontend;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.Source;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InputFilesTest {
  @TempDir Path dir;

  @Test
  void directoriesAreReadInStringOrderOfTheirPaths() throws IOException {
    for (String name :
        List.of("b.yaml", "a/z.yml", "a.yaml", "A.yaml", "a-b.yaml", ".hidden.yaml", "x.json")) {
      write("in/" + name, "kind: X\n");
    }
    write("in/.git/config.yaml", "kind: X\n");
    write("in/a/.cache/c.yaml", "kind: X\n");

    InputFiles inputs = InputFiles.read(List.of("in", "-", "in/b.yaml"), dir, stdin("kind: Y\n"));

    assertThat(inputs.diagnostics()).isEmpty();
    assertThat(names(inputs.sources()))
        .containsExactly(
            "in/A.yaml",
            "in/a-b.yaml",
            "in/a.yaml",
            "in/a/z.yml",
            "in/b.yaml",
            "<stdin>",
            "in/b.yaml");
    assertThat(inputs.sources().get(5).text()).isEqualTo("kind: Y\n");
  }

  @Test
  void aByteOrderMarkIsDropped() throws IOException {
    Files.write(dir.resolve("bom.yaml"), "\uFEFFkind: X\n".getBytes(UTF_8));
    InputFiles inputs = InputFiles.read(List.of("bom.yaml"), dir, stdin(""));
    assertThat(inputs.sources().get(0).text()).isEqualTo("kind: X\n");
  }

  @Test
  void everyUnreadableInputIsReported() {
    InputFiles inputs = InputFiles.read(List.of("one.yaml", "two"), dir, stdin(""));
    assertThat(inputs.sources()).isEmpty();
    assertThat(inputs.diagnostics().stream().map(d -> d.format()))
        .containsExactly(
            "one.yaml: error: no such file or directory", "two: error: no such file or directory");
  }

  private static List<String> names(List<Source> sources) {
    return sources.stream().map(Source::name).collect(Collectors.toList());
  }

  private static ByteArrayInputStream stdin(String text) {
    return new ByteArrayInputStream(text.getBytes(UTF_8));
  }

  private void write(String relative, String text) throws IOException {
    Path file = dir.resolve(relative);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text, UTF_8);
  }
}
