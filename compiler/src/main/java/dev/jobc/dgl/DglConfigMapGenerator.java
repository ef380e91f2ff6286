package dev.jobc.dgl;

import dev.jobc.conventions.DglNaming;
import dev.jobc.conventions.MpiLabels;
import dev.jobc.conventions.Naming;
import dev.jobc.k8s.Metadata;
import dev.jobc.render.Templates;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * ConfigMap {@code <job>-config}: dgl-operator's {@code kubexec.sh}, and {@code hostfile}, {@code
 * partfile} and {@code leadfile} in the formats of its {@code update*InConfigMap}, filled at
 * compile time with stable DNS names where the operator wrote run-time pod IPs.
 */
public final class DglConfigMapGenerator {
  private final Templates templates;

  public DglConfigMapGenerator(Templates templates) {
    this.templates = templates;
  }

  public ConfigMap generate(DglJobPlan plan) {
    Map<String, String> data = new LinkedHashMap<>();
    data.put(
        DglNaming.KUBEXEC,
        templates.render(
            "dgljob/kubexec.sh.ftl", Map.of("kubectl", DglNaming.KUBECTL_MOUNT + "/kubectl")));
    data.put(DglNaming.HOSTFILE, lines(plan.hostfile()));
    data.put(
        DglNaming.PARTFILE,
        lines(plan.partitioner() == null ? List.of() : List.of(plan.partitioner())));
    data.put(DglNaming.LEADFILE, lines(List.of(plan.launcher())));
    return new ConfigMapBuilder()
        .withMetadata(
            Metadata.of(
                Naming.configMap(plan.name()),
                plan.namespace(),
                MpiLabels.objectLabels(plan.name()),
                Metadata.objectAnnotations(plan.job().options())))
        .withData(data)
        .build();
  }

  private String lines(List<DglPeer> peers) {
    List<Map<String, Object>> model = new ArrayList<>(peers.size());
    for (DglPeer p : peers) {
      model.add(Map.of("host", p.host(), "port", p.port(), "pod", p.pod(), "slots", p.slots()));
    }
    return templates.render("dgljob/ipconfig.ftl", Map.of("peers", model));
  }
}
