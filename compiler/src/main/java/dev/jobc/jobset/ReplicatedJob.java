package dev.jobc.jobset;

import io.fabric8.kubernetes.api.model.batch.v1.JobSpec;

/**
 * One entry of a JobSet's {@code spec.replicatedJobs}: one child Job (jobc always asks for {@code
 * replicas: 1}) named {@code <jobset>-<name>-0}, made from {@code spec}.
 *
 * @param name the replicated Job's name
 * @param dependsOn the earlier replicated Job whose {@code dependsOnStatus} this one waits for
 *     before its Job is created, or {@code null}
 * @param dependsOnStatus {@code Ready} or {@code Complete}, with {@code dependsOn}
 * @param spec the child Job's spec, pod template included (the generator's own object)
 */
public record ReplicatedJob(String name, String dependsOn, String dependsOnStatus, JobSpec spec) {
  /** Created once every pod of {@code earlier} is Ready (or has ended). */
  public static final String READY = "Ready";

  /** A replicated Job created with the others. */
  public static ReplicatedJob of(String name, JobSpec spec) {
    return new ReplicatedJob(name, null, null, spec);
  }
}
