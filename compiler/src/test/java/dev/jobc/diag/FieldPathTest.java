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

  /** Equality and hash code are those of the segment lists, however the paths were built. */
  @Test
  void pathsAreValuesOfTheirSegments() {
    FieldPath a = FieldPath.of("spec", "template").child("containers").index(0);
    FieldPath b = FieldPath.fromPointer("/spec/template/containers/0", null);
    assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
    assertThat(a.hashCode()).isEqualTo(a.segments().hashCode());
    assertThat(a.segments())
        .containsExactly(
            new FieldPath.Field("spec"),
            new FieldPath.Field("template"),
            new FieldPath.Field("containers"),
            new FieldPath.Index(0));
    assertThat(a.last()).isEqualTo(new FieldPath.Index(0));
    assertThat(a.parent()).isEqualTo(FieldPath.of("spec", "template", "containers"));
    assertThat(a.parent().parent().parent().parent()).isSameAs(FieldPath.root());
    assertThat(FieldPath.root().parent()).isSameAs(FieldPath.root());
    assertThat(FieldPath.root().last()).isNull();
    assertThat(FieldPath.root().hashCode()).isEqualTo(java.util.List.of().hashCode());
    // Same names, different kinds of segment: different paths.
    assertThat(FieldPath.of("labels").child("a")).isNotEqualTo(FieldPath.of("labels").key("a"));
    assertThat(FieldPath.of("a", "b")).isNotEqualTo(FieldPath.of("a", "c"));
    assertThat(FieldPath.of("a", "b")).isNotEqualTo(FieldPath.of("a"));
  }
}
