package dev.jobc.k8s;

import dev.jobc.bind.ObjectTrees;
import dev.jobc.conventions.Naming;
import io.fabric8.kubernetes.api.model.ConfigMapVolumeSource;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarSource;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.ObjectFieldSelector;
import io.fabric8.kubernetes.api.model.PodDNSConfig;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Pieces of pod templates that launcher and workers share. */
public final class PodTemplates {
  /** File modes as mpi-operator sets them (JSON has no octal: 0555 = 365, 0444 = 292). */
  public static final int MODE_EXECUTABLE = 0555;

  public static final int MODE_READ_ONLY = 0444;

  /** 0600, for the SSH key files when mounted at root's home (mpi-operator v2beta1). */
  public static final int MODE_PRIVATE = 0600;

  private PodTemplates() {}

  /** A deep copy of the user's template, so generators never change their input. */
  public static PodTemplateSpec copy(PodTemplateSpec template) {
    return ObjectTrees.copy(template, PodTemplateSpec.class);
  }

  /**
   * The config volume with the given items, as {@code key → mode} pairs in order. Built with plain
   * setters: this runs for every job, and fabric8 builders copy through reflection.
   */
  public static Volume configVolume(String configMap, Object... keyModes) {
    List<KeyToPath> items = new ArrayList<>(keyModes.length / 2);
    for (int i = 0; i < keyModes.length; i += 2) {
      String key = (String) keyModes[i];
      items.add(new KeyToPath(key, (Integer) keyModes[i + 1], key));
    }
    ConfigMapVolumeSource source = new ConfigMapVolumeSource();
    source.setName(configMap);
    source.setItems(items);
    Volume volume = new Volume();
    volume.setName(Naming.CONFIG_VOLUME);
    volume.setConfigMap(source);
    return volume;
  }

  public static VolumeMount mount(String name, String path) {
    VolumeMount mount = new VolumeMount();
    mount.setName(name);
    mount.setMountPath(path);
    return mount;
  }

  public static VolumeMount configMount() {
    return mount(Naming.CONFIG_VOLUME, Naming.CONFIG_MOUNT);
  }

  /** {@code list} plus {@code more}, as a new list ({@code list} may be null). */
  @SafeVarargs
  public static <T> List<T> append(List<T> list, T... more) {
    List<T> out = new ArrayList<>((list == null ? 0 : list.size()) + more.length);
    if (list != null) {
      out.addAll(list);
    }
    for (T t : more) {
      out.add(t);
    }
    return out;
  }

  /**
   * The SSH keys of the user's Secret, laid out as mpi-operator v2beta1 does: {@code id_rsa},
   * {@code id_rsa.pub}, {@code authorized_keys}; mode 0600 only at {@code /root/.ssh}, where sshd's
   * StrictModes would reject anything looser (elsewhere the image's own setup decides).
   */
  public static Volume sshVolume(String secretName, String mountPath) {
    var secret =
        new VolumeBuilder()
            .withName(Naming.SSH_VOLUME)
            .withNewSecret()
            .withSecretName(secretName)
            .addNewItem()
            .withKey("ssh-privatekey")
            .withPath("id_rsa")
            .endItem()
            .addNewItem()
            .withKey("ssh-publickey")
            .withPath("id_rsa.pub")
            .endItem()
            .addNewItem()
            .withKey("ssh-publickey")
            .withPath("authorized_keys")
            .endItem();
    if ("/root/.ssh".equals(mountPath)) {
      secret.withDefaultMode(MODE_PRIVATE);
    }
    return secret.endSecret().build();
  }

  public static VolumeMount sshMount(String mountPath) {
    return mount(Naming.SSH_VOLUME, mountPath);
  }

  /**
   * {@code hostNetwork} pods must resolve cluster names too: mpi-operator sets {@code
   * ClusterFirstWithHostNet} on both launcher and workers.
   */
  public static void dnsForHostNetwork(PodSpec spec) {
    if (Boolean.TRUE.equals(spec.getHostNetwork())) {
      spec.setDnsPolicy("ClusterFirstWithHostNet");
    }
  }

  /**
   * Appends {@code <job>.<ns>.svc.<domain>} to the DNS search path so short host names resolve.
   * mpi-operator v2beta1 does this on workers with a hard-coded {@code cluster.local} (fixed
   * upstream by PR #832); jobc uses the cluster domain option when given.
   */
  public static void appendSearch(
      PodSpec spec, String service, String namespace, String clusterDomain) {
    String domain = clusterDomain == null ? "cluster.local" : clusterDomain;
    String search = service + "." + namespace + ".svc." + domain;
    PodDNSConfig dns = spec.getDnsConfig() == null ? new PodDNSConfig() : spec.getDnsConfig();
    dns.setSearches(append(dns.getSearches(), search));
    spec.setDnsConfig(dns);
  }

  /**
   * An init container that copies kubectl into {@code volume} at {@code mount}, for {@code
   * kubexec.sh}; any image with sh, cp and kubectl on the PATH works (replaces mpi-operator's
   * kubectl-delivery and dgl-operator's kubectl-download images).
   */
  public static Container kubectlCopy(String name, String image, String volume, String mount) {
    Container c = new Container();
    c.setName(name);
    c.setImage(image);
    c.setImagePullPolicy("IfNotPresent");
    c.setCommand(List.of("sh", "-c", "cp \"$(command -v kubectl)\" " + mount + "/kubectl"));
    c.setVolumeMounts(List.of(mount(volume, mount)));
    // Requests equal to limits: a Guaranteed pod stays Guaranteed (init containers count).
    ResourceRequirements resources = new ResourceRequirements();
    resources.setRequests(Map.of("cpu", new Quantity("100m"), "memory", new Quantity("128Mi")));
    resources.setLimits(Map.of("cpu", new Quantity("100m"), "memory", new Quantity("128Mi")));
    c.setResources(resources);
    // As a non-root user: kubectl is world-readable and executable, the emptyDir world-writable.
    c.setSecurityContext(RestrictedSecurityContext.of(true));
    return c;
  }

  /** An environment variable from the downward API: {@code fieldRef.fieldPath} {@code path}. */
  public static EnvVar fieldEnv(String name, String path) {
    ObjectFieldSelector field = new ObjectFieldSelector();
    field.setFieldPath(path);
    EnvVarSource source = new EnvVarSource();
    source.setFieldRef(field);
    EnvVar env = new EnvVar();
    env.setName(name);
    env.setValueFrom(source);
    return env;
  }

  /**
   * The ServiceAccount a pod spec names ({@code serviceAccountName}, else the deprecated {@code
   * serviceAccount}, as the API server reads them), or {@code null}.
   */
  public static String namedAccount(PodSpec spec) {
    if (spec == null) {
      return null;
    }
    if (spec.getServiceAccountName() != null && !spec.getServiceAccountName().isEmpty()) {
      return spec.getServiceAccountName();
    }
    if (spec.getServiceAccount() != null && !spec.getServiceAccount().isEmpty()) {
      return spec.getServiceAccount();
    }
    return null;
  }
}
