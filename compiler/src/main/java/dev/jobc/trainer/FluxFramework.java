package dev.jobc.trainer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Trainer's Flux Framework plugin (the HPC workload manager, not Flux CD; kubeflow/trainer
 * v2.3.0 {@code plugins/flux/flux.go}): an init container copies a Flux view into an emptyDir, the
 * trainer's command runs under {@code flux run} through an entrypoint script, and a ConfigMap holds
 * that script and the init container's with the broker configuration. The scripts are upstream's
 * {@code plugins/flux/templates/} (Apache License 2.0), shipped unchanged as data. Pure functions.
 */
final class FluxFramework {
  /** {@code constants.FluxInstallerContainerName}: the init container the plugin adds. */
  static final String INSTALLER = "flux-installer";

  /** The ConfigMap's name after the TrainJob's, which is also its volume's name. */
  static final String ENTRYPOINT_SUFFIX = "-flux-entrypoint";

  /** {@code constants.FluxConfigVolumeName}, a mount path despite its name. */
  static final String CONFIG_PATH = "/etc/flux-config";

  static final String ENTRYPOINT_KEY = "entrypoint.sh";
  static final String INIT_KEY = "init.sh";

  /** {@code constants.FluxCurveVolumeName}; upstream's Secret is {@code <trainjob>-flux-curve}. */
  static final String CURVE_VOLUME = "flux-curve";

  /** The Secret's key the entrypoint copies ({@code cp /curve/curve.cert}). */
  static final String CURVE_KEY = "curve.cert";

  static final String VIEW_IMAGE = "FLUX_VIEW_IMAGE";
  static final String NETWORK_DEVICE = "FLUX_NETWORK_DEVICE";
  static final String QUEUE_POLICY = "FLUX_QUEUE_POLICY";

  /**
   * flux.go brokerDefaults: {@code constants.FluxInstallerImage}, {@code FluxNewtowkDevice}, {@code
   * FluxQueuePolicy}; the names are also the env that overrides them.
   */
  private static final Map<String, String> DEFAULTS =
      Map.of(
          VIEW_IMAGE, "ghcr.io/converged-computing/flux-view-ubuntu:tag-jammy",
          NETWORK_DEVICE, "eth0",
          QUEUE_POLICY, "fcfs");

  private static final String BROKER = template("broker.toml", 4);
  private static final String ENTRYPOINT = template("entrypoint.sh", 3);
  private static final String INIT = template("init.sh", 4);

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private FluxFramework() {}

  /** About how many characters the ConfigMap of scripts takes beyond its host names. */
  static long scriptsChars() {
    return (long) BROKER.length() + ENTRYPOINT.length() + INIT.length();
  }

  /**
   * flux.go brokerSettingsFromEnvironment: the defaults, then the runtime trainer's {@code node}
   * container env with a value, then the TrainJob's env (first preference, an env without a value
   * counting as empty).
   */
  static Map<String, String> settings(JsonNode runtimeEnv, JsonNode trainJobEnv) {
    Map<String, String> out = new LinkedHashMap<>(DEFAULTS);
    for (JsonNode env : runtimeEnv) {
      String name = env.path("name").asText();
      if (out.containsKey(name) && env.path("value").isTextual()) {
        out.put(name, env.get("value").asText());
      }
    }
    for (JsonNode env : trainJobEnv) {
      String name = env.path("name").asText();
      if (out.containsKey(name)) {
        out.put(name, env.path("value").asText(""));
      }
    }
    return out;
  }

  /**
   * flux.go getOriginalCommand: the runtime trainer's command, else the TrainJob's, and the
   * TrainJob's args, joined by blanks.
   */
  static String originalCommand(JsonNode runtimeCommand, JsonNode trainer) {
    List<String> parts = new ArrayList<>();
    JsonNode command = trainer.path("command").isArray() ? trainer.get("command") : runtimeCommand;
    command.forEach(p -> parts.add(p.asText()));
    trainer.path("args").forEach(p -> parts.add(p.asText()));
    return String.join(" ", parts).strip();
  }

  /** flux.go EnforceMLPolicy: the trainer's command, the original one its one argument. */
  static ArrayNode command(String original) {
    return NODES.arrayNode().add("/bin/bash").add(CONFIG_PATH + "/" + ENTRYPOINT_KEY).add(original);
  }

  /**
   * flux.go EnforceMLPolicy on the replicated Job named {@code node}: the view, config, shared
   * memory and curve volumes, the installer init container, and their mounts in the {@code node}
   * containers. The curve volume mounts {@code curveSecret}, the Secret the user names (upstream
   * derives one from the TrainJob's UID).
   */
  static void apply(List<ObjectNode> jobs, String jobName, String viewImage, String curveSecret) {
    String configMap = jobName + ENTRYPOINT_SUFFIX;
    for (ObjectNode job : jobs) {
      if (!TrainJobPlanner.NODE.equals(job.path("name").asText())) {
        continue;
      }
      ObjectNode podSpec = TrainJobPlanner.podSpec(job);
      ArrayNode volumes = TrainJobPlanner.array(podSpec, "volumes");
      // getViewVolumes, then the curve volume.
      TrainJobPlanner.upsert(volumes, emptyDir("spack-install", null), "name");
      TrainJobPlanner.upsert(volumes, emptyDir("flux-install", null), "name");
      ObjectNode config = NODES.objectNode().put("name", configMap);
      config.putObject("configMap").put("name", configMap).put("defaultMode", 0755);
      TrainJobPlanner.upsert(volumes, config, "name");
      TrainJobPlanner.upsert(volumes, emptyDir("shared-memory", "Memory"), "name");
      ObjectNode curve = NODES.objectNode().put("name", CURVE_VOLUME);
      curve.putObject("secret").put("secretName", curveSecret).put("defaultMode", 0400);
      TrainJobPlanner.upsert(volumes, curve, "name");

      ObjectNode installer = TrainJobPlanner.array(podSpec, "initContainers").addObject();
      installer.put("name", INSTALLER);
      installer.put("image", viewImage);
      installer.putArray("command").add("/bin/bash").add(CONFIG_PATH + "/" + INIT_KEY);
      ArrayNode installerMounts = installer.putArray("volumeMounts");
      installerMounts.add(mount("flux-install", "/mnt/flux", false));
      installerMounts.add(mount(configMap, CONFIG_PATH, true));

      for (JsonNode c : podSpec.path("containers")) {
        if (!c.isObject() || !TrainJobPlanner.NODE.equals(c.path("name").asText())) {
          continue;
        }
        ArrayNode mounts = TrainJobPlanner.array((ObjectNode) c, "volumeMounts");
        for (ObjectNode m :
            List.of(
                mount("flux-install", "/mnt/flux", false),
                mount("spack-install", "/opt/software", false),
                mount(configMap, CONFIG_PATH, true),
                mount(CURVE_VOLUME, "/curve", true),
                mount("shared-memory", "/dev/shm", true))) {
          TrainJobPlanner.upsert(mounts, m, "mountPath");
        }
      }
    }
  }

  private static ObjectNode emptyDir(String name, String medium) {
    ObjectNode v = NODES.objectNode().put("name", name);
    ObjectNode source = v.putObject("emptyDir");
    if (medium != null) {
      source.put("medium", medium);
    }
    return v;
  }

  private static ObjectNode mount(String name, String path, boolean readOnly) {
    ObjectNode m = NODES.objectNode().put("name", name).put("mountPath", path);
    if (readOnly) {
      m.put("readOnly", true);
    }
    return m;
  }

  /**
   * flux.go generateInitEntrypoint: the init container's script, with the host list of the {@code
   * node} Job's pods and the broker configuration (generateBrokerConfig: bind on the network
   * device, connect to {@code <host>.<job>.<namespace>.svc.cluster.local}).
   */
  static String initScript(
      String jobName, String namespace, int nodes, Map<String, String> settings) {
    String hosts = jobName + "-" + TrainJobPlanner.NODE + "-0-[" + range(nodes, 0) + "]";
    String fqdn = jobName + "." + namespace + ".svc.cluster.local";
    String broker =
        format(
            BROKER,
            "tcp://" + settings.get(NETWORK_DEVICE) + ":%p",
            "tcp://%h." + fqdn + ":%p",
            hosts,
            settings.get(QUEUE_POLICY));
    return format(INIT, "/opt/view", jobName + "-0", hosts, broker);
  }

  /**
   * flux.go generateFluxEntrypoint: the application container's script: the resources ({@code
   * --cores} per task, {@code --gpu} per GPU), the lead broker's host and {@code flux run}'s flags
   * ({@code -N} nodes, {@code -n} tasks in all, {@code -g} GPUs per task).
   */
  static String entrypointScript(String jobName, int nodes, int tasks, int gpus) {
    String flags = "-N " + nodes + " -n " + (long) tasks * nodes;
    String resources = "--cores=" + range(tasks, 0);
    if (gpus > 0) {
      flags += " -g " + gpus;
      resources += " --gpu=" + range(gpus, 0);
    }
    return format(ENTRYPOINT, resources, jobName + "-" + TrainJobPlanner.NODE + "-0-0", flags);
  }

  /** flux.go generateRange: {@code start}, or {@code start-end} for more than one. */
  static String range(int size, int start) {
    return size == 1 ? Integer.toString(start) : start + "-" + (start + size - 1);
  }

  /**
   * Go's {@code fmt.Sprintf} for these templates, whose only verbs are {@code %s}: each replaced in
   * order, the arguments never read as templates.
   */
  static String format(String template, String... args) {
    StringBuilder out = new StringBuilder(template.length() + 256);
    int from = 0;
    for (String arg : args) {
      int at = template.indexOf("%s", from);
      out.append(template, from, at).append(arg);
      from = at + 2;
    }
    return out.append(template, from, template.length()).toString();
  }

  /** An upstream template, checked to hold {@code verbs} {@code %s} and no other {@code %}. */
  private static String template(String file, int verbs) {
    String path = "dev/jobc/trainer/flux/" + file;
    try (InputStream in = FluxFramework.class.getClassLoader().getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + path);
      }
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      int percents = text.length() - text.replace("%", "").length();
      int found = text.length() - text.replace("%s", "").length();
      if (percents != verbs || found != 2 * verbs) {
        throw new IllegalStateException(path + " must hold " + verbs + " %s and no other %");
      }
      return text;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
