package dev.jobc.sidecar;

import dev.jobc.conventions.Naming;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;

/**
 * The Kubernetes client of a sidecar process: fabric8's standard configuration (in-cluster service
 * account; {@code KUBERNETES_MASTER}, {@code KUBECONFIG} and {@code ~/.kube/config} for tests and
 * local runs), with a user agent that names the sidecar and its command in the API server's audit
 * log.
 */
final class ApiClients {
  static final String USER_AGENT = "jobc-sidecar";

  private ApiClients() {}

  /**
   * {@code jobc-sidecar/<command>}. For a write without {@code fieldManager} the API server takes
   * the part before the slash as the field manager ({@code jobc-sidecar}), which is what the
   * documented Argo CD {@code managedFieldsManagers} name.
   */
  static String userAgent(String command) {
    return USER_AGENT + "/" + command;
  }

  /**
   * A patch of {@code type} under field manager {@code jobc-sidecar}: what Argo CD's {@code
   * managedFieldsManagers} matches (docs/gitops.md).
   */
  static PatchContext patch(PatchType type) {
    return new PatchContext.Builder()
        .withPatchType(type)
        .withFieldManager(Naming.SIDECAR_FIELD_MANAGER)
        .build();
  }

  static KubernetesClient standard(String command) {
    Config config =
        new ConfigBuilder(Config.autoConfigure(null))
            .withUserAgent(userAgent(command))
            // fabric8 retries a failed request up to 10 times (100 ms doubling, ~100 s in all)
            // before the informer sees the error; 3 keeps errors visible within a second, and the
            // informer's own back-off (1 s doubling to 32 s) retries after that.
            .withRequestRetryBackoffLimit(3)
            .build();
    return new KubernetesClientBuilder().withConfig(config).build();
  }
}
