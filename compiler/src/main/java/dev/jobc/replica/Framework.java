package dev.jobc.replica;

import dev.jobc.diag.FieldPath;
import java.util.List;
import java.util.Locale;

/**
 * The constants that tell one kind of training-operator v1.9.0's family from another ({@code
 * pkg/apis/kubeflow.org/v1/<kind>_types.go}) and its controller's name.
 *
 * @param kind {@code PyTorchJob}, ...
 * @param replicaSpecs the spec field holding the replica specs, e.g. {@code pytorchReplicaSpecs}
 * @param types the replica types as the spec spells them, in the order of their lower-case names
 *     (which jobc takes wherever upstream iterates a Go map)
 * @param container {@code <Kind>DefaultContainerName}: the container whose port is the replica's
 * @param portName {@code <Kind>DefaultPortName}
 * @param port {@code <Kind>DefaultPort}
 * @param restartPolicy {@code <Kind>DefaultRestartPolicy}
 * @param operator the controller's {@code controllerName}, the pods' {@code operator-name} label
 */
public record Framework(
    String kind,
    String replicaSpecs,
    List<String> types,
    String container,
    String portName,
    int port,
    String restartPolicy,
    String operator) {

  public static final String API_VERSION = "kubeflow.org/v1";
  public static final String GROUP = "kubeflow.org";

  public Framework {
    types = List.copyOf(types);
  }

  /** {@code spec.<replicaSpecs>}. */
  public FieldPath replicaSpecsPath() {
    return FieldPath.of("spec", replicaSpecs);
  }

  /** The type a key names, as the spec spells it, case-insensitively; or {@code null}. */
  public String type(String key) {
    for (String t : types) {
      if (t.equalsIgnoreCase(key)) {
        return t;
      }
    }
    return null;
  }

  /** In names, labels and env: {@code strings.ToLower(rtype)}. */
  public static String lower(String type) {
    return type.toLowerCase(Locale.ROOT);
  }
}
