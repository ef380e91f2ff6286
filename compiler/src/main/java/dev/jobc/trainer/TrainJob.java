package dev.jobc.trainer;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobc.load.Document;
import java.util.List;

/**
 * A TrainJob document as written, with the runtime documents of the input it may name.
 *
 * @param root the TrainJob's tree (the pipeline's own; never changed)
 * @param runtimes every TrainingRuntime and ClusterTrainingRuntime of the input, in input order
 * @param defaults the default ClusterTrainingRuntimes, which the input's override by name
 */
public record TrainJob(JsonNode root, List<Document> runtimes, List<Document> defaults) {
  public TrainJob {
    runtimes = List.copyOf(runtimes);
    defaults = List.copyOf(defaults);
  }
}
