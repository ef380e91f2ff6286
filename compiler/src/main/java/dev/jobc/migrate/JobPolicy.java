package dev.jobc.migrate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobc.diag.Code;
import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Finding;
import dev.jobc.diag.Quoting;
import dev.jobc.k8s.GangPlan;
import dev.jobc.k8s.GangScheduling;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.OptionTable;
import java.util.ArrayList;
import java.util.List;

/**
 * What a v1 job's {@code runPolicy} and gang scheduling become in Trainer v2.3.0, the same for
 * every kind: the TrainJob's {@code suspend}, {@code activeDeadlineSeconds} and {@code managedBy};
 * the runtime's {@code backoffLimit} on the Job that decides the outcome and its {@code
 * podGroupPolicy}; an error for each field with no equivalent.
 *
 * @param suspend {@code runPolicy.suspend} as written, or {@code null}
 * @param activeDeadlineSeconds as written, or {@code null}
 * @param managedBy {@code kueue.x-k8s.io/multikueue}, or {@code null} for the kind's own operator
 * @param backoffLimit as written, or {@code null}
 * @param podGroupPolicy the runtime's policy when the job is gang-scheduled, else {@code null}
 * @param schedulerName the pods' {@code schedulerName} when gang-scheduled, else {@code null}
 * @param volcanoQueue the Volcano queue of the runtime's template annotation, or {@code null}
 */
record JobPolicy(
    Boolean suspend,
    Long activeDeadlineSeconds,
    String managedBy,
    Integer backoffLimit,
    ObjectNode podGroupPolicy,
    String schedulerName,
    String volcanoQueue,
    List<Finding> findings) {

  static final String MULTIKUEUE = "kueue.x-k8s.io/multikueue";
  static final FieldPath RUN_POLICY = FieldPath.of("spec", "runPolicy");
  private static final FieldPath SCHEDULING = RUN_POLICY.child("schedulingPolicy");

  JobPolicy {
    findings = List.copyOf(findings);
  }

  /** Whether the Trainer's default runtimes cannot hold this: a runtime of the job's own is. */
  boolean needsRuntime() {
    return backoffLimit != null || podGroupPolicy != null;
  }

  /**
   * Reads {@code spec.runPolicy} of {@code root} (as written, nulls as absent) with the job's
   * effective options, for a job of {@code pods} pods.
   */
  static JobPolicy of(JsonNode root, CompileOptions options, int pods) {
    JsonNode run = Trees.withoutNulls(root.path("spec").path("runPolicy"));
    List<Finding> findings = new ArrayList<>();
    String clean = run.path("cleanPodPolicy").asText(null);
    if (clean != null && !clean.equals("Running")) {
      // jobset_controller.go: a finished JobSet's active child Jobs are deleted (foreground), with
      // their pods; finished Jobs keep theirs: closest to the operators' Running.
      findings.add(
          Finding.error(
              Code.NOT_SUPPORTED,
              RUN_POLICY.child("cleanPodPolicy"),
              "Unsupported value: "
                  + Quoting.quote(clean)
                  + ": Trainer v2.3.0 has no equivalent: when a TrainJob finishes, the JobSet"
                  + " controller deletes its Jobs still running, with their pods, and keeps"
                  + " finished Jobs' pods, which is \"Running\"; set Running or remove it"));
    }
    if (run.has("ttlSecondsAfterFinished")) {
      findings.add(
          Finding.error(
              Code.FORBIDDEN,
              RUN_POLICY.child("ttlSecondsAfterFinished"),
              "Forbidden: Trainer v2.3.0 has no equivalent: a TrainJob is not deleted when it"
                  + " finishes, and a JobSet deleted under a TrainJob that has not seen it finish"
                  + " is created again (trainjob_controller.go Reconcile); remove it and delete"
                  + " finished TrainJobs from Git"));
    }
    Long deadline =
        run.has("activeDeadlineSeconds") ? run.get("activeDeadlineSeconds").asLong() : null;
    if (deadline != null && deadline < 1) {
      findings.add(
          Finding.error(
              Code.INVALID,
              RUN_POLICY.child("activeDeadlineSeconds"),
              "Invalid value: "
                  + deadline
                  + ": a TrainJob's activeDeadlineSeconds is at least 1 (trainjob_types.go"
                  + " TrainJobSpec); remove it for no deadline"));
    }
    String managedBy = MULTIKUEUE.equals(run.path("managedBy").asText()) ? MULTIKUEUE : null;
    Boolean suspend = run.has("suspend") ? run.get("suspend").asBoolean() : null;
    Integer backoffLimit = run.has("backoffLimit") ? run.get("backoffLimit").asInt() : null;

    String scheduler = options.get(OptionTable.GANG_SCHEDULER);
    JsonNode policy = run.path("schedulingPolicy");
    ObjectNode podGroupPolicy = null;
    String schedulerName = null;
    String queue = null;
    if (scheduler == null && policy.isObject()) {
      // As jobc render: without a gang scheduler, no PodGroup and no use for the policy.
      findings.add(
          Finding.warning(
              SCHEDULING,
              "ignored, as jobc render ignores it: no gang scheduler is set, so the runtime gets"
                  + " no podGroupPolicy; pass --gang-scheduler volcano, scheduler-plugins or a"
                  + " scheduler name, or annotate the job with jobc.dev/gang-scheduler"));
    }
    if (scheduler != null) {
      // coscheduling.go and volcano.go Build: the PodGroup gangs every pod of the JobSet.
      boolean volcano = GangScheduling.flavor(scheduler) == GangPlan.Flavor.VOLCANO;
      podGroupPolicy = Trees.NODES.objectNode();
      ObjectNode source = podGroupPolicy.putObject(volcano ? "volcano" : "coscheduling");
      schedulerName = GangScheduling.schedulerName(scheduler);
      if (policy.has("minAvailable") && policy.get("minAvailable").asInt() != pods) {
        findings.add(
            Finding.error(
                Code.INVALID,
                SCHEDULING.child("minAvailable"),
                "Invalid value: "
                    + policy.get("minAvailable").asInt()
                    + ": Trainer v2.3.0's PodGroup gangs every pod of the TrainJob (minMember "
                    + pods
                    + "; coscheduling.go, volcano.go Build); set "
                    + pods
                    + " or remove it"));
      }
      if (policy.has("minResources")) {
        findings.add(
            forbidden(
                SCHEDULING.child("minResources"), "its PodGroup sums the pods' requests itself"));
      }
      if (policy.has("priorityClass")) {
        findings.add(
            forbidden(
                SCHEDULING.child("priorityClass"),
                "its PodGroup takes the pods' priorityClassName (Volcano) or none (coscheduling);"
                    + " set priorityClassName in the templates instead"));
      }
      if (volcano) {
        // The policy's queue, else the job's Volcano annotation (as jobc render's MPIJob reads
        // it); an empty one names none.
        queue = policy.path("queue").asText("");
        if (queue.isEmpty()) {
          queue =
              root.path("metadata")
                  .path("annotations")
                  .path(GangScheduling.QUEUE_ANNOTATION)
                  .asText("");
        }
        queue = queue.isEmpty() ? null : queue;
        if (policy.has("scheduleTimeoutSeconds")) {
          findings.add(
              forbidden(
                  SCHEDULING.child("scheduleTimeoutSeconds"),
                  "its Volcano PodGroup has no timeout (the coscheduling one has)"));
        }
      } else {
        if (policy.has("queue")) {
          findings.add(
              forbidden(
                  SCHEDULING.child("queue"),
                  "its coscheduling PodGroup has no queue (the Volcano one has)"));
        }
        if (policy.has("scheduleTimeoutSeconds")) {
          source.put("scheduleTimeoutSeconds", policy.get("scheduleTimeoutSeconds").asInt());
        }
      }
    }
    return new JobPolicy(
        suspend, deadline, managedBy, backoffLimit, podGroupPolicy, schedulerName, queue, findings);
  }

  private static Finding forbidden(FieldPath path, String why) {
    return Finding.error(Code.FORBIDDEN, path, "Forbidden: no Trainer v2.3.0 equivalent: " + why);
  }
}
