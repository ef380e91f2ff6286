package dev.jobc.render;

import dev.jobc.OutputObject;
import java.util.Comparator;
import java.util.List;

/**
 * The one output order: kinds in dependency order (a ServiceAccount before the Role that names it,
 * the Service before the StatefulSet that needs it, workers before the launcher), other kinds after
 * them alphabetically, then by name, namespace and apiVersion. The sole place order is set.
 */
public final class Ordering {
  static final List<String> KIND_ORDER =
      List.of(
          "ServiceAccount",
          "Role",
          "RoleBinding",
          "ConfigMap",
          "Secret",
          "Service",
          "PodGroup",
          "StatefulSet",
          "Pod",
          "Job");

  public static final Comparator<OutputObject> ORDER =
      Comparator.comparingInt((OutputObject o) -> rank(o.kind()))
          .thenComparing(OutputObject::kind)
          .thenComparing(OutputObject::name)
          .thenComparing(OutputObject::namespace)
          .thenComparing(OutputObject::apiVersion);

  private Ordering() {}

  static int rank(String kind) {
    int i = KIND_ORDER.indexOf(kind);
    return i >= 0 ? i : KIND_ORDER.size();
  }
}
