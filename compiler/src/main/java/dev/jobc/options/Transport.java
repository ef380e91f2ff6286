package dev.jobc.options;

import dev.jobc.diag.Quoting;

/** How the launcher runs processes on workers. */
public enum Transport implements Option.Spelled {
  /** {@code kubectl exec} through {@code kubexec.sh} (mpi-operator v1); no keys needed. */
  KUBEXEC("kubexec"),
  /** SSH with keys from an existing Secret (mpi-operator v2beta1). */
  SSH("ssh");

  private final String spelling;

  Transport(String spelling) {
    this.spelling = spelling;
  }

  @Override
  public String spelling() {
    return spelling;
  }

  /** {@code kubexec} or {@code ssh}, as the flag and the annotation spell them. */
  public static Transport parse(String value) {
    for (Transport t : values()) {
      if (t.spelling.equals(value)) {
        return t;
      }
    }
    throw new IllegalArgumentException(
        "transport must be \"kubexec\" or \"ssh\", not " + Quoting.quote(value));
  }
}
