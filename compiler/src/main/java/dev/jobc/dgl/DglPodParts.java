package dev.jobc.dgl;

import static dev.jobc.conventions.DglNaming.CONFIG_VOLUME;

import dev.jobc.conventions.DglNaming;
import dev.jobc.conventions.Naming;
import dev.jobc.k8s.Metadata;
import dev.jobc.k8s.PodTemplates;
import dev.jobc.k8s.RestrictedSecurityContext;
import dev.jobc.k8s.SidecarContainer;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.EmptyDirVolumeSourceBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Pieces the DGLJob pod generators share, as dgl-operator builds them. */
final class DglPodParts {
  static final String KUBE_ENV = "DGL_OPERATOR_ENV";
  static final String PHASE_ENV = "DGL_OPERATOR_PHASE_ENV";

  private DglPodParts() {}

  /** The user's template metadata with jobc's labels and annotations on top. */
  static ObjectMeta podMeta(
      PodTemplateSpec template,
      String name,
      String namespace,
      Map<String, String> labels,
      Map<String, String> annotations) {
    ObjectMeta user = template.getMetadata() == null ? new ObjectMeta() : template.getMetadata();
    return new ObjectMetaBuilder()
        .withName(name)
        .withNamespace(namespace)
        .withLabels(Metadata.merge(user.getLabels(), labels))
        .withAnnotations(Metadata.merge(user.getAnnotations(), annotations))
        .build();
  }

  static EnvVar env(String name, String value) {
    return new EnvVar(name, value, null);
  }

  static VolumeMount mount(String volume, String path) {
    return new VolumeMountBuilder().withName(volume).withMountPath(path).build();
  }

  static Volume emptyDir(String name) {
    return new VolumeBuilder().withName(name).withNewEmptyDir().endEmptyDir().build();
  }

  /**
   * {@code shm-volume}: memory-backed, {@code sizeLimit} half the worker's memory limit (see {@link
   * dev.jobc.dgl.ShmSize}), none without a limit.
   */
  static Volume shm(DglJobPlan plan) {
    var source = new EmptyDirVolumeSourceBuilder().withMedium("Memory");
    if (plan.shmSizeLimit() != null) {
      source.withSizeLimit(new Quantity(plan.shmSizeLimit()));
    }
    return new VolumeBuilder().withName(DglNaming.SHM_VOLUME).withEmptyDir(source.build()).build();
  }

  /** {@code config-volume}: the ConfigMap with the given keys (kubexec.sh 0555, others 0444). */
  static Volume config(DglJobPlan plan, String... keys) {
    var source = new VolumeBuilder().withName(CONFIG_VOLUME).withNewConfigMap();
    source.withName(Naming.configMap(plan.name()));
    for (String key : keys) {
      int mode =
          key.equals(DglNaming.KUBEXEC)
              ? PodTemplates.MODE_EXECUTABLE
              : PodTemplates.MODE_READ_ONLY;
      source.addNewItem().withKey(key).withPath(key).withMode(mode).endItem();
    }
    return source.endConfigMap().build();
  }

  /**
   * Wires a pod that runs {@code kubexec.sh} (launcher, partitioner): the ServiceAccount its
   * template names, else its own {@code name} ({@link #account}), host name {@code name} under the
   * job's Service (as the leadfile's DNS name says), and the kubectl-download init container.
   * Returns the init containers, kubectl-download last, for the caller to extend and set.
   */
  static List<Container> execPod(PodSpec spec, String name, DglJobPlan plan) {
    spec.setServiceAccountName(account(spec, name));
    spec.setHostname(name);
    spec.setSubdomain(Naming.service(plan.name()));
    PodTemplates.dnsForHostNetwork(spec);
    List<Container> inits = orEmpty(spec.getInitContainers());
    inits.add(
        PodTemplates.kubectlCopy(
            DglNaming.KUBECTL_DOWNLOAD,
            plan.kubectlImage(),
            DglNaming.KUBECTL_VOLUME,
            DglNaming.KUBECTL_MOUNT));
    return inits;
  }

  /**
   * The ServiceAccount a pod that runs {@code kubexec.sh} uses: the one its template names ({@code
   * serviceAccountName}, else {@code serviceAccount}), whose image pull secrets and cloud identity
   * the pod keeps and to which the Role {@code name} is bound; else {@code name}, which jobc
   * renders. dgl-operator always put its own in place of the template's.
   */
  static String account(PodSpec template, String name) {
    String named = PodTemplates.namedAccount(template);
    return named == null ? name : named;
  }

  /** The four keys workers and partitioner project, in dgl-operator's order. */
  static Volume fullConfig(DglJobPlan plan) {
    return config(
        plan, DglNaming.KUBEXEC, DglNaming.HOSTFILE, DglNaming.PARTFILE, DglNaming.LEADFILE);
  }

  /** dgl-operator's worker ports: {@code c-port-<k>} = 30050 + k, k below 20, TCP. */
  static List<ContainerPort> portBlock() {
    List<ContainerPort> ports = new ArrayList<>(DglNaming.HOST_PORT_NUM);
    for (int k = 0; k < DglNaming.HOST_PORT_NUM; k++) {
      ports.add(
          new ContainerPortBuilder()
              .withName("c-port-" + k)
              .withContainerPort(DglNaming.DGL_PORT + k)
              .withProtocol("TCP")
              .build());
    }
    return ports;
  }

  /**
   * The jobc sidecar image running {@code args}, watching up to {@code pods} pods: its downward-API
   * environment, JVM options with a heap sized for them ({@link SidecarContainer#javaToolOptions}),
   * and dgl-operator's init container resources ({@code initContainerCpu}, {@code
   * initContainerMem}, {@code initContainerEphStorage} in {@code
   * controllers/dgljob_controller.go}), with more memory where the watch needs it ({@link
   * SidecarContainer#memoryMiB}).
   */
  static ContainerBuilder sidecar(DglJobPlan plan, String name, List<String> args, int pods) {
    int memory =
        Math.max(
            INIT_CONTAINER_MEMORY_MIB, SidecarContainer.memoryMiB(plan.renderDefaults(), pods));
    return new ContainerBuilder()
        .withName(name)
        .withImage(plan.sidecarImage())
        .withImagePullPolicy("IfNotPresent")
        .withArgs(args)
        .withEnv(
            PodTemplates.fieldEnv("POD_NAME", "metadata.name"),
            PodTemplates.fieldEnv("POD_NAMESPACE", "metadata.namespace"),
            PodTemplates.fieldEnv("POD_IP", "status.podIP"),
            env("JAVA_TOOL_OPTIONS", SidecarContainer.javaToolOptions(plan.renderDefaults(), pods)))
        .withResources(helperResources("100m", memory + "Mi", "5Gi"))
        .withSecurityContext(RestrictedSecurityContext.of(false));
  }

  /** dgl-operator's {@code initContainerMem}, 512Mi. */
  static final int INIT_CONTAINER_MEMORY_MIB = 512;

  /**
   * Requests equal to limits for a container jobc adds: {@code cpu}, {@code ephemeral-storage},
   * {@code memory}.
   */
  static ResourceRequirements helperResources(String cpu, String memory, String ephemeral) {
    Map<String, Quantity> resources = new LinkedHashMap<>();
    resources.put("cpu", new Quantity(cpu));
    resources.put("ephemeral-storage", new Quantity(ephemeral));
    resources.put("memory", new Quantity(memory));
    ResourceRequirements r = new ResourceRequirements();
    r.setLimits(resources);
    r.setRequests(new LinkedHashMap<>(resources));
    return r;
  }

  static <T> List<T> orEmpty(List<T> list) {
    return list == null ? new ArrayList<>() : new ArrayList<>(list);
  }

  static boolean isEmpty(List<?> list) {
    return list == null || list.isEmpty();
  }
}
