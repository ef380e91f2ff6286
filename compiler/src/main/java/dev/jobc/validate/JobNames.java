package dev.jobc.validate;

import static dev.jobc.diag.Finding.error;

import dev.jobc.conventions.MpiLabels;
import dev.jobc.conventions.Naming;
import dev.jobc.diag.Code;
import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Finding;
import dev.jobc.diag.Quoting;
import dev.jobc.options.Dns;
import java.util.List;
import java.util.Map;

/**
 * Name rules every job kind shares: the namespace, Kueue's queue name, and the worker StatefulSet's
 * name length.
 */
public final class JobNames {
  public static final FieldPath NAME = FieldPath.of("metadata", "name");
  public static final FieldPath NAMESPACE = FieldPath.of("metadata", "namespace");

  private static final String QUEUE_NAME_LABEL = MpiLabels.KUEUE_QUEUE_NAME;
  private static final FieldPath QUEUE_NAME =
      FieldPath.of("metadata", "labels").key(QUEUE_NAME_LABEL);

  /**
   * The StatefulSet controller labels each pod {@code controller-revision-hash: <set name>-<hash of
   * up to 10 chars>}; a label value has at most 63 characters, so longer set names create no pods
   * at all (kubernetes/kubernetes#64023).
   */
  public static final int STATEFUL_SET_NAME_MAX = 52;

  private JobNames() {}

  /**
   * Whether the job has a name; if not, reports it as required, or {@code generateName} as not
   * supported because the name is part of {@code usedIn} and so must be known when rendering.
   */
  public static boolean named(String name, String generateName, String usedIn, List<Finding> out) {
    if (name != null && !name.isEmpty()) {
      return true;
    }
    out.add(
        error(
            Code.REQUIRED,
            NAME,
            generateName != null
                ? "generateName is not supported: the name is part of "
                    + usedIn
                    + ", so it must be known when rendering"
                : "Required value: name is required"));
    return false;
  }

  /** {@code metadata.name} {@code name} is invalid: {@code Invalid value: "<name>": <detail>}. */
  public static Finding invalidName(String name, String detail) {
    return invalid(NAME, name, detail);
  }

  private static Finding invalid(FieldPath path, String value, String detail) {
    return error(Code.INVALID, path, "Invalid value: " + Quoting.quote(value) + ": " + detail);
  }

  /** The namespace is baked into host names and RBAC subjects: it must be known and valid. */
  public static void namespace(String namespace, List<Finding> out) {
    if (namespace == null || namespace.isEmpty()) {
      out.add(
          error(
              Code.REQUIRED,
              NAMESPACE,
              "Required value: the namespace is part of host names and RBAC subjects; set"
                  + " metadata.namespace or pass --namespace"));
      return;
    }
    List<String> problems = Dns.dns1123Label(namespace);
    if (!problems.isEmpty()) {
      out.add(invalid(NAMESPACE, namespace, String.join("; ", problems)));
    }
  }

  /**
   * A {@code kueue.x-k8s.io/queue-name} label on the job names a LocalQueue, so Kueue's webhook
   * refuses any value that is not a DNS-1123 subdomain (kueue {@code
   * jobframework.ValidateQueueName}); a null value is the empty string once decoded, refused too.
   */
  public static void queueName(Map<String, String> labels, List<Finding> out) {
    if (labels == null || !labels.containsKey(QUEUE_NAME_LABEL)) {
      return;
    }
    String value = labels.get(QUEUE_NAME_LABEL) == null ? "" : labels.get(QUEUE_NAME_LABEL);
    List<String> problems = Dns.dns1123Subdomain(value);
    if (!problems.isEmpty()) {
      out.add(invalid(QUEUE_NAME, value, String.join(",", problems)));
    }
  }

  /**
   * Whether the worker StatefulSet of job {@code name} fits {@link #STATEFUL_SET_NAME_MAX}; if not,
   * reports it, ending the message with {@code remedy}.
   */
  public static boolean statefulSetFits(String name, String remedy, List<Finding> out) {
    String set = Naming.workerSet(name);
    if (set.length() <= STATEFUL_SET_NAME_MAX) {
      return true;
    }
    out.add(
        invalidName(
            name,
            "the worker StatefulSet "
                + Quoting.quote(set)
                + " would have "
                + set.length()
                + " characters; Kubernetes creates no pods for StatefulSets over "
                + STATEFUL_SET_NAME_MAX
                + " (the controller-revision-hash label must fit 63); shorten the name to at most "
                + (STATEFUL_SET_NAME_MAX - Naming.WORKER_SUFFIX.length())
                + " characters or "
                + remedy));
    return false;
  }
}
