package dev.jobc.mpi;

import dev.jobc.conventions.JobSetNames;
import dev.jobc.conventions.MpiLabels;
import dev.jobc.conventions.Naming;
import dev.jobc.k8s.Metadata;
import dev.jobc.render.Templates;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * ConfigMap {@code <job>-config} with {@code hostfile} (mpi-operator's format for the input's
 * version and MPI implementation), {@code kubexec.sh} (kubexec transport only) and the static
 * {@code discover_hosts.sh}.
 */
public final class MpiConfigMapGenerator {
  public static final String HOSTFILE = "hostfile";
  public static final String KUBEXEC = "kubexec.sh";
  public static final String DISCOVER_HOSTS = "discover_hosts.sh";

  /** Host names reach shell scripts unquoted, as upstream writes them; only DNS characters. */
  private static final Pattern SAFE_HOST = Pattern.compile("[a-z0-9][a-z0-9.:-]*");

  private final Templates templates;

  public MpiConfigMapGenerator(Templates templates) {
    this.templates = templates;
  }

  public ConfigMap generate(MpiJobPlan plan) {
    List<Map<String, Object>> hosts = new ArrayList<>(plan.hostfile().size());
    for (HostSlot h : plan.hostfile()) {
      requireSafe(h.host());
      hosts.add(Map.of("host", h.host(), "slots", h.slots()));
    }
    plan.discoverHosts().forEach(MpiConfigMapGenerator::requireSafe);

    Map<String, Object> hostfileModel = new HashMap<>();
    hostfileModel.put("hosts", hosts);
    hostfileModel.put("hydra", plan.implementation().hydra());

    Map<String, Object> kubexecModel = new HashMap<>();
    kubexecModel.put("kubectl", Naming.KUBECTL_MOUNT + "/kubectl");
    if (plan.kubexecContainer() != null) {
      kubexecModel.put("container", plan.kubexecContainer());
    }
    if (plan.launcherHost() != null) {
      // The host name kubexec.sh is given for the launcher: its hostfile entry's first label.
      kubexecModel.put("launcher", plan.launcherHost().split("\\.", 2)[0]);
    }
    if (plan.jobSet()) {
      // A JobSet's pod names carry a random suffix: kubexec.sh finds the worker's pod by the
      // labels the JobSet and the Job controller give it, from the index its host name ends with.
      kubexecModel.put(
          "jobset",
          Map.of(
              "pattern",
              "x" + JobSetNames.job(plan.name(), MpiLabels.WORKER, 0) + "-\\([0-9][0-9]*\\)$",
              "selector",
              JobSetNames.JOBSET_NAME
                  + "="
                  + plan.name()
                  + ","
                  + JobSetNames.REPLICATED_JOB_NAME
                  + "="
                  + MpiLabels.WORKER
                  + ","
                  + JobSetNames.COMPLETION_INDEX
                  + "="));
    }

    Map<String, String> data = new LinkedHashMap<>();
    data.put(
        DISCOVER_HOSTS,
        templates.render("mpijob/discover_hosts.sh.ftl", Map.of("hosts", plan.discoverHosts())));
    data.put(HOSTFILE, templates.render("mpijob/hostfile.ftl", hostfileModel));
    if (!plan.ssh()) {
      data.put(KUBEXEC, templates.render("mpijob/kubexec.sh.ftl", kubexecModel));
    }
    ConfigMap configMap = new ConfigMap();
    configMap.setMetadata(
        Metadata.of(
            Naming.configMap(plan.name()),
            plan.namespace(),
            MpiLabels.objectLabels(plan.name()),
            Metadata.objectAnnotations(plan.options())));
    configMap.setData(data);
    return configMap;
  }

  private static void requireSafe(String host) {
    if (!SAFE_HOST.matcher(host).matches()) {
      throw new IllegalStateException("unsafe host name reached a script: " + host);
    }
  }
}
