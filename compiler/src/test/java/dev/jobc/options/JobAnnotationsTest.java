package dev.jobc.options;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.diag.Code;
import dev.jobc.diag.Finding;
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

  @Test
  void otherFindingsAreKept() {
    assertThat(applied(Map.of(JobAnnotations.PREFIX + "nope", "1")).findingsWithoutScaling("why"))
        .extracting(Finding::code)
        .doesNotContain(Code.FORBIDDEN)
        .isNotEmpty();
  }
}
