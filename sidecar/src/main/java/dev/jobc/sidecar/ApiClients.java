package dev.jobc.sidecar;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobc.conventions.Naming;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

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
    return new KubernetesClientBuilder()
        .withConfig(config)
        .withKubernetesSerialization(serialization())
        .build();
  }

  /**
   * fabric8's JSON reading with a table from kind to class of the kinds the sidecar reads, and no
   * more. A watch event's object is read by its kind through that table; fabric8's default builds
   * it on first use by loading and instantiating every model class its service files list (538
   * classes here, bench/README.md "Sidecar footprint"). A kind not in the table would be read as a
   * GenericKubernetesResource, so every kind the sidecar watches or reads without a type is here:
   * Status too, which a watch's ERROR event carries (410 Gone).
   */
  static KubernetesSerialization serialization() {
    KubernetesSerialization json = new KubernetesSerialization(new ObjectMapper(), false);
    json.registerKubernetesResource(Pod.class);
    json.registerKubernetesResource(Job.class);
    json.registerKubernetesResource(StatefulSet.class);
    json.registerKubernetesResource(Event.class);
    json.registerKubernetesResource(Status.class);
    return json;
  }
}
