package dev.jobc.options;

import dev.jobc.diag.Quoting;

/** What runs the workers. */
public enum WorkerKind implements Option.Spelled {
  /** A StatefulSet {@code <job>-worker} (default). */
  STATEFUL_SET("statefulset"),
  /** Bare Pods {@code <job>-worker-<i>} (mpi-operator v1/v2 shape). */
  PODS("pods");

  private final String spelling;

  WorkerKind(String spelling) {
    this.spelling = spelling;
  }

  @Override
  public String spelling() {
    return spelling;
  }

  /** {@code statefulset} or {@code pods}, as the flag and the annotation spell them. */
  public static WorkerKind parse(String value) {
    for (WorkerKind w : values()) {
      if (w.spelling.equals(value)) {
        return w;
      }
    }
    throw new IllegalArgumentException(
        "workers must be \"statefulset\" or \"pods\", not " + Quoting.quote(value));
  }
}
