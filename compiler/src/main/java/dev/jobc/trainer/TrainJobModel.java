package dev.jobc.trainer;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobc.diag.Finding;
import dev.jobc.options.CompileOptions;
import java.util.List;
import java.util.Map;

/**
 * A TrainJob with its runtime resolved.
 *
 * @param name the TrainJob's name, which the JobSet takes
 * @param namespace its namespace, or null
 * @param spec the TrainJob's {@code spec} (an empty object when it has none)
 * @param runtime the runtime {@code runtimeRef} names, or null when it resolved to none
 * @param ref what {@code runtimeRef} names, with defaults, and every runtime of that name found
 * @param options the effective options, the {@code jobc.dev/*} annotations applied
 * @param fluxCurveSecret the Secret {@code jobc.dev/flux-curve-secret} names, or null
 * @param findings what those annotations got wrong
 */
public record TrainJobModel(
    String name,
    String namespace,
    Map<String, String> labels,
    Map<String, String> annotations,
    JsonNode spec,
    Runtime runtime,
    Ref ref,
    CompileOptions options,
    String fluxCurveSecret,
    List<Finding> findings) {

  public TrainJobModel {
    labels = Map.copyOf(labels);
    annotations = Map.copyOf(annotations);
    findings = List.copyOf(findings);
  }

  /**
   * A resolved {@code runtimeRef}.
   *
   * @param kind the kind it names ({@code ClusterTrainingRuntime} by default)
   * @param group the API group it names ({@code trainer.kubeflow.org} by default)
   * @param name the name it names
   * @param matches where each runtime of that kind and name is written ({@code file:line})
   */
  public record Ref(String kind, String group, String name, List<String> matches) {
    public Ref {
      matches = List.copyOf(matches);
    }
  }

  /** The runtime's {@code mlPolicy}, or a missing node. */
  JsonNode mlPolicy() {
    return runtime.spec().path("mlPolicy");
  }

  /** The TrainJob's {@code spec.trainer}, or a missing node. */
  JsonNode trainer() {
    return spec.path("trainer");
  }
}
