package dev.jobc.kind;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobc.ManifestCompiler;
import dev.jobc.diag.Finding;
import dev.jobc.k8s.OutputSize;
import dev.jobc.load.Document;
import dev.jobc.model.Source;
import dev.jobc.options.CompileOptions;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;

/**
 * One accepted job kind, as the pipeline's steps for it. {@link ManifestCompiler#compile} calls
 * them in its fixed order (bind → defaults → validate → plan → generate) and nowhere else; a kind
 * only says how each step is done for it.
 *
 * @param <J> the input record, spelled as in YAML
 * @param <M> the defaulted model the validator and planner read
 * @param <P> the plan the generators read
 */
public interface JobKind<J, M, P> {
  /** {@code kind} of the documents, e.g. {@code MPIJob}. */
  String kind();

  /** API group of the documents, e.g. {@code kubeflow.org}. */
  String group();

  /** Every accepted {@code apiVersion}, in the order help texts list them. */
  List<String> apiVersions();

  /**
   * Binds a document that passed its schema check.
   *
   * @throws IllegalArgumentException when the tree does not fit the record
   */
  J bind(JsonNode root);

  /**
   * Kinds, in this kind's API group, of the documents its jobs refer to (a TrainJob's runtimes):
   * read from the whole input, schema-checked, and never rendered nor passed through. Empty for
   * kinds whose jobs stand alone.
   */
  default List<String> referencedKinds() {
    return List.of();
  }

  /**
   * Documents of {@link #referencedKinds} that every run holds besides its input (the Trainer's
   * default runtimes), as jobc's own YAML files; none by default.
   */
  default List<Source> referencedDefaults() {
    return List.of();
  }

  /**
   * A bound job given every document of {@link #referencedKinds} in the input (in input order) and
   * those of {@link #referencedDefaults}, before defaults; by default the job as it is.
   */
  default J withReferences(J job, List<Document> referenced, List<Document> defaults) {
    return job;
  }

  /**
   * Applies defaults and converts to the model. {@code options} are the channel's options; the
   * model keeps the effective ones (with the job's {@code jobc.dev/*} annotations), and every later
   * step reads those.
   */
  M defaults(J job, CompileOptions options);

  /**
   * A warning saying why a job is passed through as written instead of rendered (it belongs to
   * another controller), or {@code null} to render it.
   */
  default Finding renderedElsewhere(M model) {
    return null;
  }

  List<Finding> validate(M model);

  /**
   * About how many characters {@link #generate} would write for this model, worked out without
   * planning or generating (see {@link OutputSize}); the pipeline refuses jobs that would together
   * pass the run's output budget before it builds any. Called only for models without validation
   * errors.
   */
  OutputSize.Estimate outputSize(M model);

  /** Called only for models without validation errors. */
  P plan(M model);

  /**
   * Builds the objects from the plan alone. Pure: neither the plan nor anything it refers to is
   * changed, so generating twice gives equal objects.
   */
  List<HasMetadata> generate(P plan);
}
