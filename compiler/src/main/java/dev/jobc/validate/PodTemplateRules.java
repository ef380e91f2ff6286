package dev.jobc.validate;

import static dev.jobc.diag.Finding.error;

import dev.jobc.diag.Code;
import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Finding;
import dev.jobc.diag.Quoting;
import dev.jobc.k8s.ApiLimits;
import dev.jobc.k8s.Quantities;
import dev.jobc.k8s.QuantitySum;
import dev.jobc.options.Dns;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarSource;
import io.fabric8.kubernetes.api.model.ExecAction;
import io.fabric8.kubernetes.api.model.GRPCAction;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LifecycleHandler;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.TCPSocketAction;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * What the API server validates in a pod template that jobc copies into the objects it renders
 * (Jobs, StatefulSets, Pods), checked at compile time so that a render never produces an object the
 * cluster refuses. One place for every kind: each kind's validator calls {@link #check} for each
 * template it copies.
 *
 * <p>The rules are Kubernetes 1.32's, with the API server's wording: {@code
 * pkg/apis/core/validation/validation.go} ({@code ValidatePodTemplateSpec}, {@code
 * ValidatePodSpec}, {@code ValidateVolumes}, {@code validateContainers}, {@code
 * validateInitContainers}, {@code validateContainerCommon}, {@code validateContainerPorts}, {@code
 * ValidateEnv}, {@code validateEnvVarValueFrom}, {@code ValidateEnvFrom}, {@code
 * ValidateVolumeMounts}, {@code ValidateResourceRequirements}, {@code validateProbe} and the
 * handler checks, {@code checkHostPortConflicts}) and apimachinery's formats ({@link NameFormats},
 * {@link Dns}, {@code ValidateLabels}, {@code ValidateAnnotations}). The README's "Pod templates"
 * section lists each rule. Fields the API server defaults before it validates (an unset {@code
 * imagePullPolicy}, {@code protocol}, {@code successThreshold} of 0) pass, as they do there; a
 * missing container list is each kind's to report in its operator's words, a {@code null} list
 * element is left to the kind too, and a field the schema requires ({@code name}, {@code
 * containerPort}, {@code mountPath}, a handler's {@code port}) is the schema's to report when it is
 * missing; an empty one is reported here.
 */
public final class PodTemplateRules {
  private static final List<String> PROTOCOLS = List.of("SCTP", "TCP", "UDP");
  private static final List<String> PULL_POLICIES = List.of("Always", "IfNotPresent", "Never");
  private static final List<String> TERMINATION_MESSAGE_POLICIES =
      List.of("File", "FallbackToLogsOnError");
  private static final List<String> DNS_POLICIES =
      List.of("ClusterFirstWithHostNet", "ClusterFirst", "Default", "None");

  /** apimachinery {@code TotalAnnotationSizeLimitB}: keys and values together, in bytes. */
  public static final int ANNOTATIONS_MAX_BYTES = 256 * 1024;

  /** {@code IsStandardResourceName}: names valid without a domain prefix. */
  private static final Set<String> STANDARD_RESOURCES =
      Set.of(
          "cpu",
          "memory",
          "ephemeral-storage",
          "requests.cpu",
          "requests.memory",
          "requests.ephemeral-storage",
          "limits.cpu",
          "limits.memory",
          "limits.ephemeral-storage",
          "pods",
          "services",
          "replicationcontrollers",
          "resourcequotas",
          "secrets",
          "configmaps",
          "persistentvolumeclaims",
          "storage",
          "requests.storage",
          "services.nodeports",
          "services.loadbalancers");

  /** {@code IsStandardContainerResourceName}, besides {@code hugepages-*}. */
  private static final Set<String> CONTAINER_RESOURCES =
      Set.of("cpu", "memory", "ephemeral-storage");

  /** Every volume source of a {@code Volume}, in the API server's order of checking. */
  private static final Map<String, Function<Volume, Object>> VOLUME_SOURCES = volumeSources();

  private PodTemplateRules() {}

  /**
   * Checks the pod template at {@code path} (a {@code PodTemplateSpec}).
   *
   * @param addedVolumes volumes jobc adds to these pods itself: a mount of one is not "not found"
   */
  public static void check(
      PodTemplateSpec template, FieldPath path, Set<String> addedVolumes, List<Finding> out) {
    if (template == null) {
      return;
    }
    ObjectMeta meta = template.getMetadata();
    if (meta != null) {
      labels(meta.getLabels(), path.child("metadata").child("labels"), out);
      annotations(meta.getAnnotations(), path.child("metadata").child("annotations"), out);
    }
    if (template.getSpec() != null) {
      podSpec(template.getSpec(), path.child("spec"), addedVolumes, out);
    }
  }

  private static void podSpec(
      PodSpec spec, FieldPath path, Set<String> addedVolumes, List<Finding> out) {
    Set<String> volumes = new HashSet<>(addedVolumes);
    volumes(spec.getVolumes(), path.child("volumes"), volumes, out);
    Set<String> names = new HashSet<>();
    List<Container> containers = spec.getContainers();
    if (containers != null) {
      for (int i = 0; i < containers.size(); i++) {
        Container c = containers.get(i);
        if (c == null) {
          continue;
        }
        FieldPath at = path.child("containers").index(i);
        containerCommon(c, at, volumes, out);
        if (c.getName() != null && !names.add(c.getName())) {
          out.add(duplicate(at.child("name"), c.getName()));
        }
        lifecycle(c, at, out);
        probes(c, at, out);
        if (c.getRestartPolicy() != null) {
          out.add(forbidden(at.child("restartPolicy"), "may not be set for non-init containers"));
        }
      }
      hostPorts(containers, path.child("containers"), 0, containers.size(), out);
    }
    List<Container> inits = spec.getInitContainers();
    if (inits != null) {
      for (int i = 0; i < inits.size(); i++) {
        Container c = inits.get(i);
        if (c == null) {
          continue;
        }
        FieldPath at = path.child("initContainers").index(i);
        containerCommon(c, at, volumes, out);
        boolean restartAlways = "Always".equals(c.getRestartPolicy());
        if (c.getRestartPolicy() != null && !restartAlways) {
          out.add(
              FieldRules.notSupported(
                  at.child("restartPolicy"), c.getRestartPolicy(), List.of("Always")));
        }
        if (c.getName() != null && !c.getName().isEmpty() && !names.add(c.getName())) {
          out.add(duplicate(at.child("name"), c.getName()));
        }
        // Init containers run one by one: their host ports only conflict within one.
        hostPorts(inits, path.child("initContainers"), i, i + 1, out);
        if (restartAlways) {
          lifecycle(c, at, out);
          probes(c, at, out);
        } else {
          String detail = "may not be set for init containers without restartPolicy=Always";
          if (c.getLifecycle() != null) {
            out.add(forbidden(at.child("lifecycle"), detail));
          }
          if (c.getLivenessProbe() != null) {
            out.add(forbidden(at.child("livenessProbe"), detail));
          }
          if (c.getReadinessProbe() != null) {
            out.add(forbidden(at.child("readinessProbe"), detail));
          }
          if (c.getStartupProbe() != null) {
            out.add(forbidden(at.child("startupProbe"), detail));
          }
        }
      }
    }
    if (spec.getDnsPolicy() != null && !DNS_POLICIES.contains(spec.getDnsPolicy())) {
      out.add(FieldRules.notSupported(path.child("dnsPolicy"), spec.getDnsPolicy(), DNS_POLICIES));
    }
    labels(spec.getNodeSelector(), path.child("nodeSelector"), out);
    subdomain(spec.getServiceAccountName(), path.child("serviceAccountName"), out);
    if (spec.getActiveDeadlineSeconds() != null
        && (spec.getActiveDeadlineSeconds() < 1
            || spec.getActiveDeadlineSeconds() > Integer.MAX_VALUE)) {
      out.add(
          invalid(
              path.child("activeDeadlineSeconds"),
              spec.getActiveDeadlineSeconds(),
              NameFormats.inclusiveRangeError(1, Integer.MAX_VALUE)));
    }
    label(spec.getHostname(), path.child("hostname"), out);
    label(spec.getSubdomain(), path.child("subdomain"), out);
    subdomain(spec.getPriorityClassName(), path.child("priorityClassName"), out);
  }

  // --- metadata ------------------------------------------------------------------------------

  /** {@code ValidateLabels}: keys are qualified names, values label values. */
  private static void labels(Map<String, String> labels, FieldPath path, List<Finding> out) {
    if (labels == null) {
      return;
    }
    labels.forEach(
        (key, value) -> {
          FieldPath at = path.key(key);
          for (String msg : NameFormats.qualifiedName(key)) {
            out.add(invalid(at, key, msg));
          }
          if (value != null) {
            for (String msg : NameFormats.labelValue(value)) {
              out.add(invalid(at, value, msg));
            }
          }
        });
  }

  /** {@code ValidateAnnotations}: keys are qualified names in any case, 256 KiB in all. */
  private static void annotations(
      Map<String, String> annotations, FieldPath path, List<Finding> out) {
    if (annotations == null) {
      return;
    }
    long total = 0;
    for (Map.Entry<String, String> e : annotations.entrySet()) {
      for (String msg : NameFormats.qualifiedName(e.getKey().toLowerCase(Locale.ROOT))) {
        out.add(invalid(path.key(e.getKey()), e.getKey(), msg));
      }
      total += utf8(e.getKey()) + (e.getValue() == null ? 0 : utf8(e.getValue()));
    }
    if (total > ANNOTATIONS_MAX_BYTES) {
      out.add(
          error(
              Code.INVALID,
              path,
              "Too long: may not be more than " + ANNOTATIONS_MAX_BYTES + " bytes"));
    }
  }

  // --- volumes -------------------------------------------------------------------------------

  /** {@code ValidateVolumes}; adds every named volume to {@code names}. */
  private static void volumes(
      List<Volume> volumes, FieldPath path, Set<String> names, List<Finding> out) {
    if (volumes == null) {
      return;
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < volumes.size(); i++) {
      Volume v = volumes.get(i);
      if (v == null) {
        continue;
      }
      FieldPath at = path.index(i);
      String first = null;
      for (Map.Entry<String, Function<Volume, Object>> source : VOLUME_SOURCES.entrySet()) {
        if (source.getValue().apply(v) == null) {
          continue;
        }
        if (first == null) {
          first = source.getKey();
        } else {
          out.add(forbidden(at.child(source.getKey()), "may not specify more than 1 volume type"));
        }
      }
      if (first == null) {
        out.add(error(Code.REQUIRED, at, "Required value: must specify a volume type"));
      }
      String name = v.getName();
      if (name == null) {
        continue; // the schema requires it
      }
      if (name.isEmpty()) {
        out.add(required(at.child("name")));
        continue;
      }
      for (String msg : Dns.dns1123Label(name)) {
        out.add(invalid(at.child("name"), name, msg));
      }
      if (!seen.add(name)) {
        out.add(duplicate(at.child("name"), name));
      }
      names.add(name);
    }
  }

  // --- containers ----------------------------------------------------------------------------

  /** {@code validateContainerCommon}: what every container of a pod must be. */
  private static void containerCommon(
      Container c, FieldPath path, Set<String> volumes, List<Finding> out) {
    String name = c.getName();
    if (name != null && name.isEmpty()) {
      out.add(required(path.child("name")));
    } else if (name != null) {
      for (String msg : Dns.dns1123Label(name)) {
        out.add(invalid(path.child("name"), name, msg));
      }
    }
    if (c.getImage() == null || c.getImage().isEmpty()) {
      out.add(required(path.child("image")));
    }
    oneOf(
        path.child("terminationMessagePolicy"),
        c.getTerminationMessagePolicy(),
        TERMINATION_MESSAGE_POLICIES,
        out);
    ports(c.getPorts(), path.child("ports"), out);
    env(c.getEnv(), path.child("env"), out);
    envFrom(c.getEnvFrom(), path.child("envFrom"), out);
    mounts(c.getVolumeMounts(), path.child("volumeMounts"), volumes, out);
    oneOf(path.child("imagePullPolicy"), c.getImagePullPolicy(), PULL_POLICIES, out);
    resources(c.getResources(), path.child("resources"), out);
  }

  /** {@code validateContainerPorts}. */
  private static void ports(List<ContainerPort> ports, FieldPath path, List<Finding> out) {
    if (ports == null) {
      return;
    }
    Set<String> names = new HashSet<>();
    for (int i = 0; i < ports.size(); i++) {
      ContainerPort p = ports.get(i);
      if (p == null) {
        continue;
      }
      FieldPath at = path.index(i);
      String name = p.getName();
      if (name != null && !name.isEmpty()) {
        List<String> problems = NameFormats.portName(name);
        if (!problems.isEmpty()) {
          problems.forEach(msg -> out.add(invalid(at.child("name"), name, msg)));
        } else if (!names.add(name)) {
          out.add(duplicate(at.child("name"), name));
        }
      }
      Integer port = p.getContainerPort();
      if (port != null && port == 0) {
        out.add(required(at.child("containerPort")));
      } else if (port != null) {
        NameFormats.portNumber(port)
            .forEach(msg -> out.add(invalid(at.child("containerPort"), port, msg)));
      }
      Integer hostPort = p.getHostPort();
      if (hostPort != null && hostPort != 0) {
        NameFormats.portNumber(hostPort)
            .forEach(msg -> out.add(invalid(at.child("hostPort"), hostPort, msg)));
      }
      oneOf(at.child("protocol"), p.getProtocol(), PROTOCOLS, out);
    }
  }

  /** {@code checkHostPortConflicts} over {@code containers[from..to)}. */
  private static void hostPorts(
      List<Container> containers, FieldPath path, int from, int to, List<Finding> out) {
    Set<String> seen = new HashSet<>();
    for (int ci = from; ci < to; ci++) {
      Container c = containers.get(ci);
      if (c == null || c.getPorts() == null) {
        continue;
      }
      for (int pi = 0; pi < c.getPorts().size(); pi++) {
        ContainerPort p = c.getPorts().get(pi);
        if (p == null || p.getHostPort() == null || p.getHostPort() == 0) {
          continue;
        }
        // The API server compares after defaulting the protocol to TCP.
        String key =
            (p.getProtocol() == null || p.getProtocol().isEmpty() ? "TCP" : p.getProtocol())
                + "/"
                + (p.getHostIP() == null ? "" : p.getHostIP())
                + "/"
                + p.getHostPort();
        if (!seen.add(key)) {
          out.add(duplicate(path.index(ci).child("ports").index(pi).child("hostPort"), key));
        }
      }
    }
  }

  /** {@code ValidateEnv} and {@code validateEnvVarValueFrom}. */
  private static void env(List<EnvVar> env, FieldPath path, List<Finding> out) {
    if (env == null) {
      return;
    }
    for (int i = 0; i < env.size(); i++) {
      EnvVar e = env.get(i);
      if (e == null) {
        continue;
      }
      FieldPath at = path.index(i);
      if (e.getName() != null && e.getName().isEmpty()) {
        out.add(required(at.child("name")));
      } else if (e.getName() != null) {
        NameFormats.envVarName(e.getName())
            .forEach(msg -> out.add(invalid(at.child("name"), e.getName(), msg)));
      }
      if (e.getName() != null
          && e.getValue() != null
          && ApiLimits.bytes(e.getName()) + 1 + ApiLimits.bytes(e.getValue())
              > ApiLimits.ENV_STRING_BYTES) {
        // Not the API server's rule but the node's: the container's process would never start.
        out.add(
            error(
                Code.INVALID,
                at.child("value"),
                "Too long: "
                    + e.getName()
                    + "=... would be "
                    + ApiLimits.kib(
                        ApiLimits.bytes(e.getName()) + 1 + ApiLimits.bytes(e.getValue()))
                    + ", more than the "
                    + ApiLimits.kib(ApiLimits.ENV_STRING_BYTES)
                    + " Linux passes to a process in one environment variable (MAX_ARG_STRLEN):"
                    + " the container could not start; mount it from a ConfigMap instead"));
      }
      EnvVarSource from = e.getValueFrom();
      if (from == null) {
        continue;
      }
      long sources =
          countSet(
              from.getFieldRef(),
              from.getResourceFieldRef(),
              from.getConfigMapKeyRef(),
              from.getSecretKeyRef(),
              from.getFileKeyRef());
      FieldPath valueFrom = at.child("valueFrom");
      if (sources == 0) {
        out.add(
            invalid(
                valueFrom,
                "",
                "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or"
                    + " `secretKeyRef`"));
      } else if (e.getValue() != null && !e.getValue().isEmpty()) {
        out.add(invalid(valueFrom, "", "may not be specified when `value` is not empty"));
      } else if (sources > 1) {
        out.add(invalid(valueFrom, "", "may not have more than one field specified at a time"));
      }
    }
  }

  /** {@code ValidateEnvFrom}. */
  private static void envFrom(List<EnvFromSource> envFrom, FieldPath path, List<Finding> out) {
    if (envFrom == null) {
      return;
    }
    for (int i = 0; i < envFrom.size(); i++) {
      EnvFromSource e = envFrom.get(i);
      if (e == null) {
        continue;
      }
      FieldPath at = path.index(i);
      if (e.getPrefix() != null && !e.getPrefix().isEmpty()) {
        NameFormats.envVarName(e.getPrefix())
            .forEach(msg -> out.add(invalid(at.child("prefix"), e.getPrefix(), msg)));
      }
      long sources = countSet(e.getConfigMapRef(), e.getSecretRef());
      if (sources == 0) {
        out.add(invalid(path, "", "must specify one of: `configMapRef` or `secretRef`"));
      } else if (sources > 1) {
        out.add(invalid(path, "", "may not have more than one field specified at a time"));
      }
    }
  }

  /** {@code ValidateVolumeMounts}. */
  private static void mounts(
      List<VolumeMount> mounts, FieldPath path, Set<String> volumes, List<Finding> out) {
    if (mounts == null) {
      return;
    }
    Set<String> paths = new HashSet<>();
    for (int i = 0; i < mounts.size(); i++) {
      VolumeMount m = mounts.get(i);
      if (m == null) {
        continue;
      }
      FieldPath at = path.index(i);
      // A missing name or mountPath is the schema's to report (both are required there).
      String name = m.getName();
      if (name != null && name.isEmpty()) {
        out.add(required(at.child("name")));
      }
      if (name != null && !volumes.contains(name)) {
        out.add(error(Code.INVALID, at.child("name"), "Not found: " + Quoting.quote(name)));
      }
      String mountPath = m.getMountPath();
      if (mountPath == null) {
        continue;
      }
      if (mountPath.isEmpty()) {
        out.add(required(at.child("mountPath")));
      }
      if (!paths.add(mountPath)) {
        out.add(invalid(at.child("mountPath"), mountPath, "must be unique"));
      }
    }
  }

  /** {@code ValidateResourceRequirements} for a container. */
  private static void resources(ResourceRequirements r, FieldPath path, List<Finding> out) {
    if (r == null) {
      return;
    }
    Map<String, Quantity> limits = r.getLimits() == null ? Map.of() : r.getLimits();
    Map<String, Quantity> requests = r.getRequests() == null ? Map.of() : r.getRequests();
    FieldPath limitsPath = path.child("limits");
    FieldPath requestsPath = path.child("requests");
    limits.forEach((name, q) -> resource(name, q, limitsPath.key(name), out));
    requests.forEach(
        (name, q) -> {
          if (!resource(name, q, requestsPath.key(name), out)) {
            return;
          }
          Quantity limit = limits.get(name);
          if (limit != null && Quantities.value(limit) == null) {
            return; // reported with the limits
          }
          if (limit != null) {
            int cmp = Quantities.value(q).compareTo(Quantities.value(limit));
            if (cmp != 0 && !overcommitAllowed(name)) {
              out.add(
                  invalid(
                      requestsPath,
                      QuantitySum.canonical(q),
                      "must be equal to " + name + " limit of " + QuantitySum.canonical(limit)));
            } else if (cmp > 0) {
              out.add(
                  invalid(
                      requestsPath,
                      QuantitySum.canonical(q),
                      "must be less than or equal to "
                          + name
                          + " limit of "
                          + QuantitySum.canonical(limit)));
            }
          } else if (limit == null && !overcommitAllowed(name)) {
            out.add(
                error(
                    Code.REQUIRED,
                    limitsPath,
                    "Required value: Limit must be set for non overcommitable resources"));
          }
        });
  }

  /**
   * {@code validateContainerResourceName} and {@code ValidateResourceQuantityValue}; false when the
   * quantity is no number to compare.
   */
  private static boolean resource(String name, Quantity q, FieldPath path, List<Finding> out) {
    List<String> problems = NameFormats.qualifiedName(name);
    problems.forEach(msg -> out.add(invalid(path, name, msg)));
    if (problems.isEmpty()) {
      if (name.indexOf('/') < 0) {
        if (!STANDARD_RESOURCES.contains(name) && !hugePages(name)) {
          out.add(invalid(path, name, "must be a standard resource type or fully qualified"));
        }
        if (!CONTAINER_RESOURCES.contains(name) && !hugePages(name)) {
          out.add(invalid(path, name, "must be a standard resource for containers"));
        }
      } else if (!nativeResource(name) && !extendedResource(name)) {
        out.add(invalid(path, name, "doesn't follow extended resource name standard"));
      }
    }
    BigDecimal value = Quantities.value(q);
    if (value == null) {
      // Bad syntax is the schema's to report; a quantity beyond jobc's bounds is reported here.
      String beyond = Quantities.beyondBounds(Quantities.text(q));
      if (beyond != null) {
        out.add(invalid(path, Quantities.text(q), beyond));
      }
      return false;
    }
    if (value.signum() < 0) {
      out.add(invalid(path, QuantitySum.canonical(q), "must be greater than or equal to 0"));
    }
    if (extendedResource(name) && value.remainder(BigDecimal.ONE).signum() != 0) {
      out.add(invalid(path, QuantitySum.canonical(q), "must be an integer"));
    }
    return true;
  }

  private static boolean hugePages(String name) {
    return name.startsWith("hugepages-");
  }

  /** {@code IsNativeResource}: no domain, or a kubernetes.io one. */
  private static boolean nativeResource(String name) {
    return name.indexOf('/') < 0 || name.contains("kubernetes.io/");
  }

  /** {@code IsExtendedResourceName}: a domain-prefixed name outside kubernetes.io. */
  private static boolean extendedResource(String name) {
    return !nativeResource(name)
        && !name.startsWith("requests.")
        && NameFormats.qualifiedName("requests." + name).isEmpty();
  }

  /** {@code IsOvercommitAllowed}: requests may differ from limits. */
  private static boolean overcommitAllowed(String name) {
    return nativeResource(name) && !hugePages(name);
  }

  // --- probes and lifecycle ------------------------------------------------------------------

  private static void probes(Container c, FieldPath path, List<Finding> out) {
    probe(c.getLivenessProbe(), path.child("livenessProbe"), true, out);
    Probe readiness = c.getReadinessProbe();
    probe(readiness, path.child("readinessProbe"), false, out);
    if (readiness != null && readiness.getTerminationGracePeriodSeconds() != null) {
      out.add(
          invalid(
              path.child("readinessProbe").child("terminationGracePeriodSeconds"),
              readiness.getTerminationGracePeriodSeconds(),
              "must not be set for readinessProbes"));
    }
    probe(c.getStartupProbe(), path.child("startupProbe"), true, out);
  }

  /** {@code validateProbe}, plus "must be 1" for liveness and startup probes. */
  private static void probe(Probe p, FieldPath path, boolean oneSuccess, List<Finding> out) {
    if (p == null) {
      return;
    }
    Map<String, Object> handlers = new LinkedHashMap<>();
    handlers.put("exec", p.getExec());
    handlers.put("httpGet", p.getHttpGet());
    handlers.put("tcpSocket", p.getTcpSocket());
    handlers.put("grpc", p.getGrpc());
    handler(path, handlers, out);
    FieldRules.nonNegative(path.child("initialDelaySeconds"), p.getInitialDelaySeconds(), out);
    FieldRules.nonNegative(path.child("timeoutSeconds"), p.getTimeoutSeconds(), out);
    FieldRules.nonNegative(path.child("periodSeconds"), p.getPeriodSeconds(), out);
    FieldRules.nonNegative(path.child("successThreshold"), p.getSuccessThreshold(), out);
    FieldRules.nonNegative(path.child("failureThreshold"), p.getFailureThreshold(), out);
    Long grace = p.getTerminationGracePeriodSeconds();
    if (grace != null && grace <= 0) {
      out.add(
          invalid(path.child("terminationGracePeriodSeconds"), grace, "must be greater than 0"));
    }
    // 0 is defaulted to 1 before validation.
    Integer success = p.getSuccessThreshold();
    if (oneSuccess && success != null && success != 0 && success != 1) {
      out.add(invalid(path.child("successThreshold"), success, "must be 1"));
    }
  }

  private static void lifecycle(Container c, FieldPath path, List<Finding> out) {
    if (c.getLifecycle() == null) {
      return;
    }
    FieldPath at = path.child("lifecycle");
    lifecycleHandler(c.getLifecycle().getPostStart(), at.child("postStart"), out);
    lifecycleHandler(c.getLifecycle().getPreStop(), at.child("preStop"), out);
  }

  private static void lifecycleHandler(LifecycleHandler h, FieldPath path, List<Finding> out) {
    if (h == null) {
      return;
    }
    Map<String, Object> handlers = new LinkedHashMap<>();
    handlers.put("exec", h.getExec());
    handlers.put("httpGet", h.getHttpGet());
    handlers.put("tcpSocket", h.getTcpSocket());
    handlers.put("sleep", h.getSleep());
    handler(path, handlers, out);
  }

  /** {@code validateHandler}: exactly one handler type (in this order), and a valid port. */
  private static void handler(FieldPath path, Map<String, Object> handlers, List<Finding> out) {
    String chosen = null;
    for (Map.Entry<String, Object> e : handlers.entrySet()) {
      Object h = e.getValue();
      if (h == null) {
        continue;
      }
      FieldPath at = path.child(e.getKey());
      if (chosen != null) {
        out.add(forbidden(at, "may not specify more than 1 handler type"));
        continue;
      }
      chosen = e.getKey();
      if (h instanceof ExecAction exec) {
        if (exec.getCommand() == null || exec.getCommand().isEmpty()) {
          out.add(required(at.child("command")));
        }
      } else if (h instanceof HTTPGetAction http) {
        port(http.getPort(), at.child("port"), out);
        // An empty scheme is defaulted to HTTP.
        oneOf(at.child("scheme"), http.getScheme(), List.of("HTTP", "HTTPS"), out);
      } else if (h instanceof TCPSocketAction tcp) {
        port(tcp.getPort(), at.child("port"), out);
      } else if (h instanceof GRPCAction grpc && grpc.getPort() != null) {
        long port = grpc.getPort();
        NameFormats.portNumber(port).forEach(msg -> out.add(invalid(at.child("port"), port, msg)));
      }
    }
    if (chosen == null) {
      out.add(error(Code.REQUIRED, path, "Required value: must specify a handler type"));
    }
  }

  /** {@code ValidatePortNumOrName}. */
  private static void port(IntOrString port, FieldPath path, List<Finding> out) {
    if (port == null) {
      return; // required by the schema
    }
    if (port.getStrVal() != null) {
      String name = port.getStrVal();
      NameFormats.portName(name).forEach(msg -> out.add(invalid(path, name, msg)));
      return;
    }
    long number = port.getIntVal() == null ? 0 : port.getIntVal();
    NameFormats.portNumber(number).forEach(msg -> out.add(invalid(path, number, msg)));
  }

  // --- helpers -------------------------------------------------------------------------------

  private static Map<String, Function<Volume, Object>> volumeSources() {
    Map<String, Function<Volume, Object>> m = new LinkedHashMap<>();
    m.put("emptyDir", Volume::getEmptyDir);
    m.put("hostPath", Volume::getHostPath);
    m.put("gitRepo", Volume::getGitRepo);
    m.put("gcePersistentDisk", Volume::getGcePersistentDisk);
    m.put("awsElasticBlockStore", Volume::getAwsElasticBlockStore);
    m.put("secret", Volume::getSecret);
    m.put("nfs", Volume::getNfs);
    m.put("iscsi", Volume::getIscsi);
    m.put("glusterfs", Volume::getGlusterfs);
    m.put("flocker", Volume::getFlocker);
    m.put("persistentVolumeClaim", Volume::getPersistentVolumeClaim);
    m.put("rbd", Volume::getRbd);
    m.put("cinder", Volume::getCinder);
    m.put("cephFS", Volume::getCephfs);
    m.put("quobyte", Volume::getQuobyte);
    m.put("downwardAPI", Volume::getDownwardAPI);
    m.put("fc", Volume::getFc);
    m.put("flexVolume", Volume::getFlexVolume);
    m.put("configMap", Volume::getConfigMap);
    m.put("azureFile", Volume::getAzureFile);
    m.put("vsphereVolume", Volume::getVsphereVolume);
    m.put("photonPersistentDisk", Volume::getPhotonPersistentDisk);
    m.put("portworxVolume", Volume::getPortworxVolume);
    m.put("azureDisk", Volume::getAzureDisk);
    m.put("storageos", Volume::getStorageos);
    m.put("projected", Volume::getProjected);
    m.put("scaleIO", Volume::getScaleIO);
    m.put("csi", Volume::getCsi);
    m.put("ephemeral", Volume::getEphemeral);
    m.put("image", Volume::getImage);
    return m;
  }

  private static long countSet(Object... values) {
    long n = 0;
    for (Object v : values) {
      if (v != null) {
        n++;
      }
    }
    return n;
  }

  private static void oneOf(FieldPath path, String value, List<String> allowed, List<Finding> out) {
    // Empty is defaulted before validation.
    if (value != null && !value.isEmpty()) {
      FieldRules.oneOf(path, value, allowed, out);
    }
  }

  private static void label(String value, FieldPath path, List<Finding> out) {
    if (value != null && !value.isEmpty()) {
      Dns.dns1123Label(value).forEach(msg -> out.add(invalid(path, value, msg)));
    }
  }

  private static void subdomain(String value, FieldPath path, List<Finding> out) {
    if (value != null && !value.isEmpty()) {
      Dns.dns1123Subdomain(value).forEach(msg -> out.add(invalid(path, value, msg)));
    }
  }

  private static Finding required(FieldPath path) {
    return error(Code.REQUIRED, path, "Required value");
  }

  private static Finding duplicate(FieldPath path, String value) {
    return error(Code.DUPLICATE, path, "Duplicate value: " + Quoting.quote(value));
  }

  private static Finding forbidden(FieldPath path, String detail) {
    return error(Code.FORBIDDEN, path, "Forbidden: " + detail);
  }

  /** {@code field.Invalid}: a string quoted as Go's {@code %q}, a number as it is. */
  private static Finding invalid(FieldPath path, Object value, String detail) {
    String shown = value instanceof String s ? Quoting.quote(s) : String.valueOf(value);
    return error(Code.INVALID, path, "Invalid value: " + shown + ": " + detail);
  }

  private static long utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }
}
