package dev.jobc.k8s;

import dev.jobc.bind.ObjectTrees;
import dev.jobc.diag.FieldPath;
import dev.jobc.model.Budget;
import dev.jobc.render.YamlWriter;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;

/**
 * How much text a job will render, worked out before it is planned: the pipeline refuses a run
 * whose jobs together would render more than {@link Budget#RUN_OUTPUT_CHARS} before building any of
 * it. Each kind adds up its objects from what grows: a pod template copied into each of {@code n}
 * objects, a list with a line per worker.
 */
public final class OutputSize {
  private static final YamlWriter WRITER = new YamlWriter();

  /** Room for what jobc adds to each object around a user's template (metadata, sidecars). */
  public static final long OBJECT_OVERHEAD = 2_048;

  private OutputSize() {}

  /**
   * About how many characters a job renders, and what makes it that large.
   *
   * @param cause the field that drives the size (a replica count), where an error points
   * @param detail what the size is made of, for the message ("3000 pods of about 150 KiB")
   */
  public record Estimate(long chars, FieldPath cause, String detail) {}

  /**
   * The characters of {@code template} written as YAML, as it appears inside each object that
   * copies it (an upper bound for deeper indentation aside); past {@link Budget#RUN_OUTPUT_CHARS}
   * it is not written further.
   */
  public static long template(PodTemplateSpec template) {
    if (template == null) {
      return 0;
    }
    try {
      return WRITER.write(ObjectTrees.tree(template), true, Budget.RUN_OUTPUT_CHARS).length();
    } catch (YamlWriter.TooLong e) {
      return Budget.RUN_OUTPUT_CHARS + 1;
    }
  }

  /** {@code count × each}, saturating instead of overflowing. */
  public static long times(long count, long each) {
    return count != 0 && each > Long.MAX_VALUE / count ? Long.MAX_VALUE : count * each;
  }

  /** {@code a + b}, saturating instead of overflowing. */
  public static long plus(long a, long b) {
    long sum = a + b;
    return sum < 0 ? Long.MAX_VALUE : sum;
  }
}
