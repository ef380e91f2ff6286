package dev.jobc.options;

import dev.jobc.diag.Quoting;

/** What a job compiles into. */
public enum Target implements Option.Spelled {
  /**
   * The objects the upstream operator would create, plus jobc's sidecar: needs no controller beyond
   * Kubernetes itself (default).
   */
  PLAIN("plain"),
  /**
   * One {@code jobset.x-k8s.io/v1alpha2} JobSet per job (kubernetes-sigs/jobset), plus what the
   * JobSet does not create: Kueue admits it as one Workload, and the JobSet controller starts,
   * decides and ends the job.
   */
  JOB_SET("jobset");

  private final String spelling;

  Target(String spelling) {
    this.spelling = spelling;
  }

  @Override
  public String spelling() {
    return spelling;
  }

  /** {@code plain} or {@code jobset}, as the flag and the annotation spell them. */
  public static Target parse(String value) {
    for (Target t : values()) {
      if (t.spelling.equals(value)) {
        return t;
      }
    }
    throw new IllegalArgumentException(
        "target must be \"plain\" or \"jobset\", not " + Quoting.quote(value));
  }
}
