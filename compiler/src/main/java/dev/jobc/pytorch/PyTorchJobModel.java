package dev.jobc.pytorch;

import dev.jobc.replica.ReplicaJob;

/**
 * A PyTorchJob after {@code SetDefaults_PyTorchJob}.
 *
 * @param job what every kind of the family shares
 * @param elasticPolicy the policy with {@code minReplicas} and {@code maxReplicas} defaulted
 *     ({@code setElasticPolicy}), or {@code null}
 * @param nprocPerNode {@code spec.nprocPerNode}, {@code auto} when unset and the elastic policy
 *     sets no {@code nProcPerNode} ({@code setDefaultNprocPerNode}); else {@code null}
 */
public record PyTorchJobModel(ReplicaJob job, ElasticPolicy elasticPolicy, String nprocPerNode) {}
