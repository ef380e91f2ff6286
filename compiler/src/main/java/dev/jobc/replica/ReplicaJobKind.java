package dev.jobc.replica;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobc.bind.ObjectTrees;
import dev.jobc.diag.Finding;
import dev.jobc.kind.JobKind;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;

/**
 * What every kind of the family has alike as a {@link JobKind}: its name and API version from its
 * {@link Framework}, binding, MultiKueue's pass-through, and the plain target's objects of its
 * {@link ReplicaPlan}. A kind says how it defaults, validates and plans. Immutable and thread-safe.
 *
 * @param <J> the input record
 * @param <M> the defaulted model
 */
public abstract class ReplicaJobKind<J, M> implements JobKind<J, M, ReplicaPlan> {
  private final Framework framework;
  private final Class<J> type;
  private final ReplicaObjects objects = new ReplicaObjects();

  protected ReplicaJobKind(Framework framework, Class<J> type) {
    this.framework = framework;
    this.type = type;
  }

  /** The part of {@code model} every kind of the family shares. */
  protected abstract ReplicaJob job(M model);

  @Override
  public final String kind() {
    return framework.kind();
  }

  @Override
  public final String group() {
    return Framework.GROUP;
  }

  @Override
  public final List<String> apiVersions() {
    return List.of(Framework.API_VERSION);
  }

  @Override
  public final J bind(JsonNode root) {
    return ObjectTrees.bind(root, type);
  }

  @Override
  public final Finding renderedElsewhere(M model) {
    return ReplicaKueue.renderedElsewhere(job(model));
  }

  @Override
  public final List<HasMetadata> generate(ReplicaPlan plan) {
    return objects.generate(plan);
  }
}
