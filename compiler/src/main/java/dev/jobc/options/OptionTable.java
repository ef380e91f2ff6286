package dev.jobc.options;

import dev.jobc.diag.Quoting;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Every compile option, one row each, in the order help texts list them. The CLI flags, the Maven
 * parameters (generated from this table at build time), the KRM and Argo CD parameters and the
 * per-job {@code jobc.dev/*} annotations are all read from here, so a new option is one row.
 */
public final class OptionTable {
  private static final List<Option<?>> rows = new ArrayList<>();

  // Images are pasted into pod specs and, through kubexec.sh, near a shell: no blanks or quotes.
  private static final Pattern IMAGE = Pattern.compile("[^\\s\"'\\\\$`]+");

  public static final Option<String> NAMESPACE =
      row(
          "namespace",
          "NS",
          String.class,
          null,
          text -> dns("namespace", text, Dns.dns1123Label(text)),
          false,
          "Namespace for jobs that do not set metadata.namespace.",
          null,
          "-n");

  public static final Option<String> CLUSTER_DOMAIN =
      row(
          "cluster-domain",
          "DOMAIN",
          String.class,
          null,
          text -> dns("cluster domain", text, Dns.dns1123Subdomain(text)),
          true,
          "Cluster DNS domain appended to host names (<pod>.<job>.<ns>.svc.DOMAIN); without it"
              + " host names stop at .svc, as mpi-operator's do by default.",
          null);

  public static final Option<Target> TARGET =
      row(
          "target",
          "plain|jobset",
          Target.class,
          Target.PLAIN,
          Target::parse,
          true,
          "What a job compiles into: plain (the objects the operator would create; needs no"
              + " controller) or jobset (one JobSet per job, which Kueue admits as one Workload;"
              + " needs the JobSet controller, see docs/jobset.md).",
          null);

  public static final Option<String> KUBECTL_IMAGE =
      row(
          "kubectl-image",
          "IMAGE",
          String.class,
          "docker.io/alpine/k8s:1.32.4",
          text -> image("kubectl image", text),
          true,
          "Image that provides kubectl for kubexec.sh (it needs sh, cp and kubectl on its PATH).",
          null);

  public static final Option<Transport> TRANSPORT =
      row(
          "transport",
          "kubexec|ssh",
          Transport.class,
          Transport.KUBEXEC,
          Transport::parse,
          true,
          "How the launcher reaches workers: kubexec (kubectl exec; no keys) or ssh (keys from"
              + " an existing Secret, see ssh-secret).",
          null);

  public static final Option<String> SSH_SECRET =
      row(
          "ssh-secret",
          "NAME",
          String.class,
          null,
          text -> dns("SSH secret name", text, Dns.dns1123Subdomain(text)),
          true,
          "Existing Secret (kubernetes.io/ssh-auth) with the SSH keys; implies transport ssh"
              + " unless transport is given too. jobc never generates keys.",
          new Option.Implication<>(TRANSPORT, Transport.SSH));

  public static final Option<WorkerKind> WORKERS =
      row(
          "workers",
          "statefulset|pods",
          WorkerKind.class,
          WorkerKind.STATEFUL_SET,
          WorkerKind::parse,
          true,
          "What runs the workers: a StatefulSet <job>-worker (lost workers come back) or bare"
              + " Pods <job>-worker-<i> (mpi-operator's own shape). TFJob, PyTorchJob, XGBoostJob,"
              + " JAXJob, PaddleJob: a Job per replica, or with pods the operator's bare Pods"
              + " <job>-<type>-<i> (also when the job has a Kueue queue name, except a TFJob).",
          null);

  public static final Option<Integer> GPUS_PER_NODE =
      row(
          "gpus-per-node",
          "N",
          Integer.class,
          8,
          text -> positive("gpus-per-node", text),
          true,
          "GPUs per node for v1alpha1 'gpus:' totals without spec.gpusPerNode.",
          null);

  public static final Option<Integer> UNITS_PER_NODE =
      row(
          "units-per-node",
          "N",
          Integer.class,
          8,
          text -> positive("units-per-node", text),
          true,
          "Units per node for v1alpha1 'processingUnits:' totals without"
              + " spec.processingUnitsPerNode.",
          null);

  public static final Option<String> SIDECAR_IMAGE =
      row(
          "sidecar-image",
          "IMAGE",
          String.class,
          RenderDefaults.CURRENT.sidecarImage(),
          text -> image("sidecar image", text),
          true,
          "Image of the jobc sidecar that waits for peer pods at run time.",
          null);

  public static final Option<RenderDefaults> RENDER_DEFAULTS =
      row(
          "render-defaults",
          "DATE|current",
          RenderDefaults.class,
          RenderDefaults.CURRENT,
          RenderDefaults::parse,
          true,
          "Render what jobc's releases changed in fields an existing Job or Pod cannot change"
              + " (the sidecar's image, unless sidecar-image names another, its memory, JVM"
              + " options and arguments; the family's replica host names) as the release of that"
              + " date did: 2026-11-25 or 2026-11-27; current for this release's. Pin a running"
              + " job with its annotation before upgrading jobc (docs/gitops.md).",
          null);

  public static final Option<String> PYTORCH_INIT_IMAGE =
      row(
          "pytorch-init-image",
          "IMAGE",
          String.class,
          "alpine:3.10",
          text -> image("PyTorch init image", text),
          true,
          "Image of the init-pytorch container that makes a PyTorchJob's workers wait for the"
              + " master's name (it needs sh, seq, sleep and nslookup), as training-operator's"
              + " --pytorch-init-container-image.",
          null);

  public static final Option<String> GANG_SCHEDULER =
      row(
          "gang-scheduler",
          "SCHEDULER",
          String.class,
          null,
          // Empty turns gang scheduling off: a job's empty annotation wins over the flag.
          text -> text.isEmpty() ? null : dns("gang scheduler", text, Dns.dns1123Subdomain(text)),
          true,
          "Gang-schedule every job: volcano (Volcano PodGroup, schedulerName volcano),"
              + " scheduler-plugins (coscheduling PodGroup, schedulerName"
              + " scheduler-plugins-scheduler) or any other scheduler name (coscheduling PodGroup,"
              + " that schedulerName). A job's jobc.dev/gang-scheduler annotation wins; an empty"
              + " one turns gang scheduling off for that job.",
          null);

  public static final Option<Integer> KUEUE_MAX_POD_SETS =
      row(
          "kueue-max-pod-sets",
          "N",
          Integer.class,
          // kueue v0.19.2 apis/kueue/v1beta1/workload_types.go: spec.podSets MaxItems=18 (8 up
          // to v0.17, 10 in v0.18).
          18,
          text -> positive("kueue-max-pod-sets", text),
          false,
          "Target jobset: the most replicated Jobs a JobSet with a kueue.x-k8s.io/queue-name"
              + " may have, Kueue's limit of pod sets per Workload (18 from Kueue v0.19; set 10"
              + " for v0.18, 8 up to v0.17).",
          null);

  public static final Option<Boolean> DISABLE_FLUX_SUBSTITUTION =
      row(
          "disable-flux-substitution",
          null,
          Boolean.class,
          false,
          text -> bool("disable-flux-substitution", text),
          false,
          "Annotate generated objects kustomize.toolkit.fluxcd.io/substitute: disabled, so that"
              + " Flux post-build substitution leaves ${...} in commands and scripts alone.",
          null);

  /** Every row, in help order. */
  public static final List<Option<?>> ALL = List.copyOf(rows);

  private static final Map<String, Option<?>> BY_NAME =
      ALL.stream().collect(Collectors.toUnmodifiableMap(Option::name, Function.identity()));

  private OptionTable() {}

  /**
   * The option called {@code name}.
   *
   * @throws IllegalArgumentException naming the known options when there is none
   */
  public static Option<?> byName(String name) {
    Option<?> option = BY_NAME.get(name);
    if (option == null) {
      throw new IllegalArgumentException(
          "unknown option "
              + Quoting.quote(name)
              + "; known options: "
              + String.join(", ", names()));
    }
    return option;
  }

  /** Every option name, in help order. */
  public static List<String> names() {
    return ALL.stream().map(Option::name).toList();
  }

  private static <T> Option<T> row(
      String name,
      String label,
      Class<T> type,
      T defaultValue,
      Function<String, T> parser,
      boolean perJob,
      String help,
      Option.Implication<?> implied) {
    return row(name, label, type, defaultValue, parser, perJob, help, implied, null);
  }

  private static <T> Option<T> row(
      String name,
      String label,
      Class<T> type,
      T defaultValue,
      Function<String, T> parser,
      boolean perJob,
      String help,
      Option.Implication<?> implied,
      String shortFlag) {
    Option<T> option =
        new Option<>(
            rows.size(), name, label, type, defaultValue, parser, perJob, help, implied, shortFlag);
    rows.add(option);
    return option;
  }

  private static String dns(String what, String value, List<String> problems) {
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(
          "invalid " + what + " " + Quoting.quote(value) + ": " + String.join("; ", problems));
    }
    return value;
  }

  private static String image(String what, String image) {
    if (image.isBlank() || !IMAGE.matcher(image).matches()) {
      throw new IllegalArgumentException(
          what
              + " must be a non-empty image reference without spaces or quotes: "
              + Quoting.quote(image));
    }
    return image;
  }

  private static int positive(String what, String value) {
    if (!value.matches("[1-9][0-9]{0,8}")) {
      throw new IllegalArgumentException(
          what + " must be a whole number from 1 to 999999999, not " + Quoting.quote(value));
    }
    return Integer.parseInt(value);
  }

  private static boolean bool(String what, String value) {
    // Strict on purpose: "yes" or "1" silently meaning false would hide a typo.
    return switch (value) {
      case "true" -> true;
      case "false" -> false;
      default ->
          throw new IllegalArgumentException(
              what + " must be true or false, not " + Quoting.quote(value));
    };
  }
}
