package dev.jobc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * picocli must come from {@code jobc-picocli}, compiled for Java 17: class-data sharing skips the
 * Java 5 class files of picocli's own jar, and every {@code jobc} start then loads and verifies
 * them from the jar (see picocli/pom.xml).
 */
class PicocliClassFormatTest {
  private static final int JAVA_17 = 61;

  @Test
  void picocliClassesAreJava17ClassFiles() throws IOException {
    for (Class<?> type :
        new Class<?>[] {
          CommandLine.class, CommandLine.Model.CommandSpec.class, CommandLine.Help.class
        }) {
      assertThat(majorVersion(type)).as(type.getName()).isEqualTo(JAVA_17);
    }
  }

  private static int majorVersion(Class<?> type) throws IOException {
    String resource = type.getName().replace('.', '/') + ".class";
    try (InputStream in = type.getClassLoader().getResourceAsStream(resource);
        DataInputStream data = new DataInputStream(in)) {
      assertThat(data.readInt()).isEqualTo(0xCAFEBABE);
      data.readUnsignedShort(); // minor
      return data.readUnsignedShort();
    }
  }
}
