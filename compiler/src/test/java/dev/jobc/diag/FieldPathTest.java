package dev.jobc.diag;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class FieldPathTest {

  @Test
  void pointersEscapeTildeAndSlash() {
    FieldPath p = FieldPath.of("metadata", "annotations").key("a/b~c").child("x").index(2);
    assertThat(p.toPointer()).isEqualTo("/metadata/annotations/a~1b~0c/x/2");
    assertThat(FieldPath.root().toPointer()).isEmpty();
  }

  @Test
  void pointersReadBackWithKeysFieldsAndIndices() {
    FieldPath p = FieldPath.fromPointer("/metadata/annotations/a~1b~0c/x/2", null);
    assertThat(p)
        .isEqualTo(FieldPath.of("metadata", "annotations").key("a/b~c").child("x").index(2));
    assertThat(p.toString()).isEqualTo("metadata.annotations[a/b~c].x[2]");
  }

  @Test
  void theCallerTellsWhichPrefixesAreLists() {
    StringBuilder asked = new StringBuilder();
    FieldPath p =
        FieldPath.fromPointer(
            "/spec/a~1b/0",
            prefix -> {
              asked.append(prefix).append(';');
              return prefix.equals("/spec/a~1b");
            });
    assertThat(p).isEqualTo(FieldPath.of("spec", "a/b").index(0));
    // Prefixes are passed escaped, as they appear in the pointer.
    assertThat(asked.toString()).isEqualTo(";/spec;/spec/a~1b;");
  }

  @Test
  void numericSegmentsOutsideListsAreFields() {
    assertThat(FieldPath.fromPointer("/data/0", prefix -> false))
        .isEqualTo(FieldPath.of("data").key("0"));
    assertThat(FieldPath.fromPointer("/", null)).isEqualTo(FieldPath.root());
    assertThatThrownBy(() -> FieldPath.fromPointer("spec", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("not a JSON pointer: spec");
  }
}
