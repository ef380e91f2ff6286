package dev.jobc.options;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.diag.Code;
import dev.jobc.diag.FieldPath;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a kind that cannot scale (TFJob, DGLJob) makes of {@code jobc.dev/max-replicas}. */
class JobAnnotationsTest {
  private static JobAnnotations.Applied applied(Map<String, String> annotations) {
    ObjectMeta meta = new ObjectMeta();
    meta.setAnnotations(annotations);
    return JobAnnotations.apply(meta, CompileOptions.defaults());
  }

  @Test
  void maxReplicasIsForbiddenWithTheKindsReason() {
    assertThat(applied(Map.of(JobAnnotations.MAX_REPLICAS, "4")).findingsWithoutScaling("why"))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.code()).isEqualTo(Code.FORBIDDEN);
              assertThat(f.path().toString()).contains(JobAnnotations.MAX_REPLICAS);
              assertThat(f.message()).isEqualTo("Forbidden: why");
            });
    assertThat(applied(Map.of()).findingsWithoutScaling("why")).isEmpty();
  }

  @Test
  void theNamespaceIsTheJobsUnlessEmpty() {
    CompileOptions options = CompileOptions.defaults().with(OptionTable.NAMESPACE, "team");
    assertThat(options.namespace("ml")).isEqualTo("ml");
    assertThat(options.namespace("")).isEqualTo("team");
    assertThat(options.namespace(null)).isEqualTo("team");
  }

  /** The annotations' own findings come first, in key order, then the kind's. */
  @Test
  void otherFindingsAreKept() {
    FieldPath annotations = FieldPath.of("metadata", "annotations");
    assertThat(
            applied(
                    Map.of(
                        JobAnnotations.PREFIX + "nope",
                        "1",
                        JobAnnotations.MAX_REPLICAS,
                        "4",
                        JobAnnotations.DIST_PARMETIS_IMAGE,
                        "maybe"))
                .findingsWithoutScaling("why"))
        .extracting(f -> f.code() + " " + f.path())
        .containsExactly(
            Code.INVALID + " " + annotations.key(JobAnnotations.DIST_PARMETIS_IMAGE),
            Code.UNKNOWN_FIELD + " " + annotations.key(JobAnnotations.PREFIX + "nope"),
            Code.FORBIDDEN + " " + annotations.key(JobAnnotations.MAX_REPLICAS));
  }
}
