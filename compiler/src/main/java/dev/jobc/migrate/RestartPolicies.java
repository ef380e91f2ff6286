package dev.jobc.migrate;

import dev.jobc.diag.Code;
import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Finding;
import dev.jobc.diag.Quoting;
import java.util.List;

/** A replica's {@code restartPolicy} as the pods of a JobSet's Jobs can keep it. */
final class RestartPolicies {
  private RestartPolicies() {}

  /** No finding for {@code OnFailure} and {@code Never}; an error at {@code at} for the others. */
  static List<Finding> check(String policy, FieldPath at) {
    if (policy == null || policy.equals("OnFailure") || policy.equals("Never")) {
      return List.of();
    }
    String why =
        policy.equals("ExitCode")
            ? "Trainer v2.3.0 has no equivalent: no runtime field restarts a pod by its exit code"
            : "a TrainJob's pods run in Jobs, which restart them OnFailure or Never";
    return List.of(
        Finding.error(
            Code.NOT_SUPPORTED,
            at,
            "Unsupported value: "
                + Quoting.quote(policy)
                + ": "
                + why
                + "; set OnFailure or Never"));
  }
}
