package dev.jobc.k8s;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.LinkedHashMap;
import java.util.Map;

/** Object metadata shared by generators. */
public final class Metadata {
  private Metadata() {}

  public static ObjectMeta of(String name, String namespace, Map<String, String> labels) {
    // Plain setters, not fabric8 builders: builders copy through reflection and cost tens of
    // microseconds per object (bench/README.md).
    ObjectMeta meta = new ObjectMeta();
    meta.setName(name);
    meta.setNamespace(namespace);
    meta.setLabels(new LinkedHashMap<>(labels));
    return meta;
  }

  /** The user's labels with jobc's on top (jobc's win: selectors depend on them). */
  public static Map<String, String> merge(Map<String, String> user, Map<String, String> ours) {
    Map<String, String> out = new LinkedHashMap<>();
    if (user != null) {
      out.putAll(user);
    }
    out.putAll(ours);
    return out;
  }
}
