package dev.jobc.sidecar;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import java.util.function.Consumer;

/** An {@link ObjectWatch} on pods: those of a namespace with the given labels. */
final class PodWatch extends ObjectWatch<Pod> {
  /**
   * Starts watching pods of {@code namespace} (all of them when {@code labels} is empty); {@code
   * listener} gets the pods by name after every change.
   */
  PodWatch(
      KubernetesClient client,
      String namespace,
      Map<String, String> labels,
      Consumer<Map<String, Pod>> listener) {
    super(
        client,
        labels.isEmpty()
            ? client.pods().inNamespace(namespace)
            : client.pods().inNamespace(namespace).withLabels(labels),
        listener);
  }

  static String describe(Throwable t) {
    Throwable root = t;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    if (root != t && root.getMessage() != null && !m.contains(root.getMessage())) {
      m += ": " + root.getMessage();
    }
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }
}
