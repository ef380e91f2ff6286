package dev.jobc.generate;

import dev.jobc.plan.MpiJobPlan;
import dev.jobc.plan.Naming;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.PodDNSConfig;
import io.fabric8.kubernetes.api.model.PodDNSConfigBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import java.util.ArrayList;
import java.util.Map;

/** Pieces of pod templates that launcher and workers share. */
final class PodTemplates {
  /** File modes as mpi-operator sets them (JSON has no octal: 0555 = 365, 0444 = 292). */
  static final int MODE_EXECUTABLE = 0555;

  static final int MODE_READ_ONLY = 0444;

  /** 0600, for the SSH key files when mounted at root's home (mpi-operator v2beta1). */
  static final int MODE_PRIVATE = 0600;

  private PodTemplates() {}

  /** A deep copy of the user's template, so generators never change their input. */
  static PodTemplateSpec copy(PodTemplateSpec template) {
    return new PodTemplateSpecBuilder(template).build();
  }

  /** The config volume with the given items, as {@code key → mode} pairs in order. */
  static Volume configVolume(MpiJobPlan plan, Object... keyModes) {
    var source = new VolumeBuilder().withName(Naming.CONFIG_VOLUME).withNewConfigMap();
    source.withName(Naming.configMap(plan.name()));
    for (int i = 0; i < keyModes.length; i += 2) {
      String key = (String) keyModes[i];
      source.addNewItem().withKey(key).withPath(key).withMode((Integer) keyModes[i + 1]).endItem();
    }
    return source.endConfigMap().build();
  }

  static VolumeMount configMount() {
    return new VolumeMountBuilder()
        .withName(Naming.CONFIG_VOLUME)
        .withMountPath(Naming.CONFIG_MOUNT)
        .build();
  }

  /**
   * The SSH keys of the user's Secret, laid out as mpi-operator v2beta1 does: {@code id_rsa},
   * {@code id_rsa.pub}, {@code authorized_keys}; mode 0600 only at {@code /root/.ssh}, where sshd's
   * StrictModes would reject anything looser (elsewhere the image's own setup decides).
   */
  static Volume sshVolume(MpiJobPlan plan) {
    var secret =
        new VolumeBuilder()
            .withName(Naming.SSH_VOLUME)
            .withNewSecret()
            .withSecretName(plan.options().sshSecret())
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
    if ("/root/.ssh".equals(plan.job().sshAuthMountPath())) {
      secret.withDefaultMode(MODE_PRIVATE);
    }
    return secret.endSecret().build();
  }

  static VolumeMount sshMount(MpiJobPlan plan) {
    return new VolumeMountBuilder()
        .withName(Naming.SSH_VOLUME)
        .withMountPath(plan.job().sshAuthMountPath())
        .build();
  }

  /**
   * {@code hostNetwork} pods must resolve cluster names too: mpi-operator sets {@code
   * ClusterFirstWithHostNet} on both launcher and workers.
   */
  static void dnsForHostNetwork(PodSpec spec) {
    if (Boolean.TRUE.equals(spec.getHostNetwork())) {
      spec.setDnsPolicy("ClusterFirstWithHostNet");
    }
  }

  /**
   * Appends {@code <job>.<ns>.svc.<domain>} to the DNS search path so short host names resolve.
   * mpi-operator v2beta1 does this on workers with a hard-coded {@code cluster.local} (fixed
   * upstream by PR #832); jobc uses the cluster domain option when given.
   */
  static void appendSearch(MpiJobPlan plan, PodSpec spec) {
    String domain = plan.clusterDomain() == null ? "cluster.local" : plan.clusterDomain();
    String search = Naming.service(plan.name()) + "." + plan.namespace() + ".svc." + domain;
    PodDNSConfig dns =
        spec.getDnsConfig() == null
            ? new PodDNSConfig()
            : new PodDNSConfigBuilder(spec.getDnsConfig()).build();
    var searches = new ArrayList<String>();
    if (dns.getSearches() != null) {
      searches.addAll(dns.getSearches());
    }
    searches.add(search);
    dns.setSearches(searches);
    spec.setDnsConfig(dns);
  }

  /**
   * An init container that copies kubectl into {@code volume} at {@code mount}, for {@code
   * kubexec.sh}; any image with sh, cp and kubectl on the PATH works (replaces mpi-operator's
   * kubectl-delivery and dgl-operator's kubectl-download images).
   */
  static Container kubectlCopy(String name, String image, String volume, String mount) {
    return new ContainerBuilder()
        .withName(name)
        .withImage(image)
        .withImagePullPolicy("IfNotPresent")
        .withCommand("sh", "-c", "cp \"$(command -v kubectl)\" " + mount + "/kubectl")
        .withVolumeMounts(new VolumeMountBuilder().withName(volume).withMountPath(mount).build())
        .withResources(
            new ResourceRequirementsBuilder()
                .withRequests(Map.of("cpu", new Quantity("10m"), "memory", new Quantity("32Mi")))
                .withLimits(Map.of("cpu", new Quantity("100m"), "memory", new Quantity("128Mi")))
                .build())
        .build();
  }
}
