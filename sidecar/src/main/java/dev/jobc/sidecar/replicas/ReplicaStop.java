package dev.jobc.sidecar.replicas;

import dev.jobc.sidecar.base.Log;
import dev.jobc.sidecar.base.PodWatch;
import dev.jobc.sidecar.base.Termination;
import dev.jobc.sidecar.client.ApiException;
import dev.jobc.sidecar.client.ClusterApi;
import java.time.Duration;

/**
 * Ends a replica without deleting what jobc rendered, by a JSON merge patch under field manager
 * {@code jobc-sidecar} (what Argo CD's {@code managedFieldsManagers} matches; the rendered Jobs and
 * Pods carry Flux's {@code ssa: IfNotPresent}), which also annotates the object with the replica
 * that decided ({@value ReplicaStates#STOPPED_BY}):
 *
 * <ul>
 *   <li>a Job is suspended ({@code spec.suspend}): the Job controller deletes its pod without
 *       counting a failure and keeps the Job, which a re-apply leaves suspended;
 *   <li>a Job fails ({@code spec.activeDeadlineSeconds: 1}, the one way to end a Job now): the Job
 *       controller deletes its pod and marks it {@code Failed}, which nothing undoes;
 *   <li>a bare Pod ends ({@code spec.activeDeadlineSeconds: 1}, which may only be lowered): the
 *       kubelet stops it, phase {@code Failed}, reason {@code DeadlineExceeded}.
 * </ul>
 *
 * Each is retried a few times: the API may be briefly unavailable.
 */
final class ReplicaStop {
  static final int ATTEMPTS = 4;
  static final Duration FIRST_BACKOFF = Duration.ofMillis(250);

  private final ClusterApi client;
  private final String namespace;
  private final String decidedBy;
  private final Termination termination;

  ReplicaStop(ClusterApi client, String namespace, String decidedBy, Termination termination) {
    this.client = client;
    this.namespace = namespace;
    this.decidedBy = decidedBy;
    this.termination = termination;
  }

  boolean suspendJob(String name) {
    return patchJob(name, "\"suspend\":true");
  }

  boolean failJob(String name) {
    return patchJob(name, "\"activeDeadlineSeconds\":1");
  }

  private boolean patchJob(String name, String spec) {
    String patch = patch(spec);
    return retried(name, () -> client.patchJob(namespace, name, ClusterApi.PatchType.MERGE, patch));
  }

  boolean endPod(String name) {
    String patch = patch("\"activeDeadlineSeconds\":1");
    return retried(name, () -> client.patchPod(namespace, name, ClusterApi.PatchType.MERGE, patch));
  }

  private String patch(String spec) {
    return "{\"metadata\":{\"annotations\":{\""
        + ReplicaStates.STOPPED_BY
        + "\":\""
        + decidedBy
        + "\"}},\"spec\":{"
        + spec
        + "}}";
  }

  private boolean retried(String name, Runnable request) {
    Duration backoff = FIRST_BACKOFF;
    for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
      try {
        request.run();
        return true;
      } catch (RuntimeException e) {
        Log.info("stopping " + name + ", attempt " + attempt + ": " + PodWatch.describe(e));
        if (e instanceof ApiException k && (k.code() == 403 || k.code() == 404)) {
          return false; // not granted, or gone: another attempt cannot change that
        }
        try {
          if (attempt < ATTEMPTS && !termination.awaitStop(backoff)) {
            backoff = backoff.multipliedBy(2);
          }
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
    }
    return false;
  }
}
