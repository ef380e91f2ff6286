package dev.jobc.migrate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobc.diag.Code;
import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Finding;
import dev.jobc.diag.Quoting;
import java.util.List;

/**
 * A replica's {@code restartPolicy} as the pods of a JobSet's Job keep it, the way jobc render's
 * Jobs keep it for the v1 kinds ({@code ReplicaJobGenerator}): {@code OnFailure} as it is, {@code
 * Never} with no pod replaced, {@code ExitCode} as {@code Never} with a pod failure policy that
 * fails the Job on the program's own exit codes (1-127) and replaces a pod killed by a signal
 * (training-operator v1.9.0 {@code IsRetryableExitCode}); {@code Always} has no equivalent.
 */
final class RestartPolicies {
  static final String NEVER = "Never";
  static final String EXIT_CODE = "ExitCode";

  private RestartPolicies() {}

  /** Whether a Job's pods can keep {@code policy}: all but {@code Always}. */
  static boolean kept(String policy) {
    return policy == null || !policy.equals("Always");
  }

  /** No finding for a policy a Job's pods can keep; an error at {@code at} for {@code Always}. */
  static List<Finding> check(String policy, FieldPath at) {
    if (kept(policy)) {
      return List.of();
    }
    return List.of(
        Finding.error(
            Code.NOT_SUPPORTED,
            at,
            "Unsupported value: "
                + Quoting.quote(policy)
                + ": a TrainJob's pods run in Jobs, which restart them OnFailure or Never (and"
                + " ExitCode as Never with a pod failure policy); set one of those"));
  }

  /**
   * Removes the template's own {@code restartPolicy} (at {@code template}), which the replica's
   * replaces as the operators replace it (training-operator {@code common/pod.go}, mpi-operator),
   * with a warning when the two differ.
   */
  static void replaceTemplatePolicy(
      ObjectNode pod, String replicaPolicy, FieldPath template, List<Finding> findings) {
    JsonNode own = Trees.object(pod, "spec").remove("restartPolicy");
    if (own != null && !own.asText().equals(podPolicy(replicaPolicy))) {
      // As jobc render words it (upstream: Warning event SetPodTemplateRestartPolicy).
      findings.add(
          Finding.warning(
              template.child("spec").child("restartPolicy"),
              Quoting.quote(own.asText())
                  + " is replaced by "
                  + Quoting.quote(replicaPolicy)
                  + " from "
                  + template.parent().child("restartPolicy")));
    }
  }

  /** The pod's own {@code restartPolicy}. */
  static String podPolicy(String policy) {
    return EXIT_CODE.equals(policy) ? NEVER : policy;
  }

  /**
   * Sets {@code podFailurePolicy} on a Job spec for {@code ExitCode}: exit codes 1-127 of {@code
   * container} fail the Job at once; a pod killed by a signal is replaced within the backoff limit.
   */
  static void exitCodes(ObjectNode jobSpec, String policy, String container) {
    if (!EXIT_CODE.equals(policy)) {
      return;
    }
    ObjectNode rule = jobSpec.putObject("podFailurePolicy").putArray("rules").addObject();
    rule.put("action", "FailJob");
    ObjectNode onExitCodes = rule.putObject("onExitCodes");
    onExitCodes.put("containerName", container);
    onExitCodes.put("operator", "In");
    ArrayNode values = onExitCodes.putArray("values");
    for (int code = 1; code <= 127; code++) {
      values.add(code);
    }
  }
}
