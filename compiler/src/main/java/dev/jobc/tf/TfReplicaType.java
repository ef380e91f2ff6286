package dev.jobc.tf;

import java.util.Locale;
import java.util.Optional;

/**
 * The replica types of training-operator v1.9.0 ({@code TFJobReplicaType*}). Declared in the order
 * of their lower-case names, which is the order Go's {@code json.Marshal} writes TF_CONFIG's
 * cluster keys and the order {@code UpdateJobStatus} visits the types.
 */
public enum TfReplicaType {
  CHIEF("Chief"),
  EVALUATOR("Evaluator"),
  MASTER("Master"),
  PS("PS"),
  WORKER("Worker");

  private final String specName;

  TfReplicaType(String specName) {
    this.specName = specName;
  }

  /** The key as the defaulted TFJob spells it: {@code PS}, {@code Worker}, ... */
  public String specName() {
    return specName;
  }

  /** In names, labels and TF_CONFIG: {@code strings.ToLower(rtype)}. */
  public String lower() {
    return specName.toLowerCase(Locale.ROOT);
  }

  /** {@code IsChiefOrMaster}. */
  public boolean chiefOrMaster() {
    return this == CHIEF || this == MASTER;
  }

  /** The type a key names, case-insensitively ({@code setTypeNameToCamelCase}'s EqualFold). */
  public static Optional<TfReplicaType> of(String key) {
    for (TfReplicaType t : values()) {
      if (t.specName.equalsIgnoreCase(key)) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }
}
