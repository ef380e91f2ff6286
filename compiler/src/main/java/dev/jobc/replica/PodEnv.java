package dev.jobc.replica;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarSource;
import io.fabric8.kubernetes.api.model.ObjectFieldSelector;

/**
 * One environment variable the operator appends to every container of a replica's pod: a value, or
 * a downward-API field ({@code valueFrom.fieldRef.fieldPath}).
 *
 * @param value the value; {@code null} for a field, and for an empty value, which the API server
 *     stores as no value at all ({@code omitempty})
 * @param fieldPath the pod field, or {@code null}
 */
public record PodEnv(String name, String value, String fieldPath) {
  public static PodEnv of(String name, String value) {
    return new PodEnv(name, value.isEmpty() ? null : value, null);
  }

  public static PodEnv of(String name, int value) {
    return of(name, Integer.toString(value));
  }

  public static PodEnv field(String name, String fieldPath) {
    return new PodEnv(name, null, fieldPath);
  }

  /** A fresh fabric8 variable, for a generator's own pod. */
  EnvVar var() {
    EnvVar env = new EnvVar();
    env.setName(name);
    env.setValue(value);
    if (fieldPath != null) {
      ObjectFieldSelector field = new ObjectFieldSelector();
      field.setFieldPath(fieldPath);
      EnvVarSource source = new EnvVarSource();
      source.setFieldRef(field);
      env.setValueFrom(source);
    }
    return env;
  }
}
