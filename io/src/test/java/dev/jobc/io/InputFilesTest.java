package dev.jobc.io;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.model.Source;
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

  @Test
  void eachFileAndAllTogetherAreReadOnlyUpToTheirLimits() throws IOException {
    write("in/a.yaml", "a: 1\nb: 2\n"); // 10 characters: the most one file may have
    write("in/b.yaml", "\uFEFFk: v\nlong\n"); // 10, and a byte order mark that does not count
    write("in/c.yaml", "k: v\nxxxxxxxx\n"); // 14: too long from line 2, column 6 on
    write("in/d.yaml", "k: 123\n"); // 7, for 27 in all
    write("in/e.yaml", "k: 1234\n"); // 8: over the total of 30 at line 1, column 4
    Files.write(dir.resolve("in/f.yaml"), new byte[] {(byte) 0xff}); // never read

    InputFiles inputs =
        InputFiles.read(List.of("in", "-"), dir, stdin("never: read\n"), new InputLimits(10, 30));

    assertThat(names(inputs.sources())).containsExactly("in/a.yaml", "in/b.yaml", "in/d.yaml");
    assertThat(inputs.sources().get(1).text()).isEqualTo("k: v\nlong\n");
    assertThat(inputs.diagnostics().stream().map(d -> d.format()))
        .containsExactly(
            "in/c.yaml:2:6: error: longer than 10 characters, the limit for one input; split it"
                + " into smaller files",
            "in/e.yaml:1:4: error: the inputs together are longer than 30 characters, the limit for"
                + " one run; render fewer files at a time");
  }

  @Test
  void standardInputIsReadOnlyUpToTheLimit() {
    InputFiles inputs =
        InputFiles.read(List.of("-"), dir, stdin("k: v\nk2: v2\n"), new InputLimits(8, 8));
    assertThat(inputs.sources()).isEmpty();
    assertThat(inputs.diagnostics().stream().map(d -> d.format()))
        .containsExactly(
            "<stdin>:2:4: error: longer than 8 characters, the limit for one input; split it into"
                + " smaller files");
  }

  @Test
  void badUtf8IsFoundAcrossReadChunks() throws IOException {
    // Past the first 64 KiB chunk, and split across the chunk boundary: "é" is 2 bytes.
    String head = "k: " + "x".repeat(65_532) + "\n"; // 65,536 bytes
    byte[] bytes = (head + "\u00e9\u00e9: v\n").getBytes(UTF_8);
    bytes[head.length() + 2] = (byte) 0xff; // the second "é"
    Files.write(dir.resolve("bad.yaml"), bytes);
    Files.write(
        dir.resolve("split.yaml"), ("k: " + "x".repeat(65_532) + "\u00e9\n").getBytes(UTF_8));
    InputFiles inputs = InputFiles.read(List.of("bad.yaml", "split.yaml"), dir, stdin(""));
    assertThat(inputs.diagnostics().stream().map(d -> d.format()))
        .containsExactly(
            "bad.yaml:2:2: error: not valid UTF-8 (byte 65538); save the file as UTF-8");
    assertThat(inputs.sources().get(0).text()).endsWith("x\u00e9\n");
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
