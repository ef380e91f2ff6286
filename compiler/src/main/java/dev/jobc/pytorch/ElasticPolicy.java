package dev.jobc.pytorch;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * {@code spec.elasticPolicy} of a PyTorchJob (training-operator v1.9.0 {@code ElasticPolicy}): the
 * torchrun rendezvous the workers get in {@code PET_*} variables, and the metrics of the HPA the
 * operator would have created.
 */
public record ElasticPolicy(
    Integer minReplicas,
    Integer maxReplicas,
    String rdzvBackend,
    Integer rdzvPort,
    String rdzvHost,
    String rdzvId,
    List<RdzvConf> rdzvConf,
    Boolean standalone,
    Integer nProcPerNode,
    Integer maxRestarts,
    JsonNode metrics) {

  /** One {@code key=value} of {@code PET_RDZV_CONF}. */
  public record RdzvConf(String key, String value) {}

  public ElasticPolicy withMinMax(Integer min, Integer max) {
    return new ElasticPolicy(
        min,
        max,
        rdzvBackend,
        rdzvPort,
        rdzvHost,
        rdzvId,
        rdzvConf,
        standalone,
        nProcPerNode,
        maxRestarts,
        metrics);
  }
}
