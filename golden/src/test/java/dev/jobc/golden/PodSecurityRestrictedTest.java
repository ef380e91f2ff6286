package dev.jobc.golden;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every container jobc adds to a rendered pod meets the Pod Security Standards' {@code restricted}
 * profile (Kubernetes' "Pod Security Standards" page, profile version latest as of 1.33; the
 * baseline controls, which restricted includes, first). Pod-level controls (host namespaces,
 * sysctls) are the user's, as are the user's containers: a namespace that enforces the profile then
 * admits the pod exactly when the user's own parts pass. Each rule is checked on the container's
 * effective setting: its own, else the pod's where Kubernetes falls back to it.
 */
class PodSecurityRestrictedTest {

  /** Restricted "Volume Types": the only volume sources allowed. */
  static final Set<String> ALLOWED_VOLUMES =
      Set.of(
          "configMap",
          "csi",
          "downwardAPI",
          "emptyDir",
          "ephemeral",
          "persistentVolumeClaim",
          "projected",
          "secret");

  /** Baseline "SELinux": the only types allowed. */
  static final Set<String> SELINUX_TYPES =
      Set.of("container_t", "container_init_t", "container_kvm_t", "container_engine_t");

  static Stream<RenderedPods> pods() {
    return RenderedPods.renderingCases().stream().flatMap(d -> RenderedPods.of(d).stream());
  }

  @ParameterizedTest
  @MethodSource("pods")
  void jobcContainersMeetTheRestrictedProfile(RenderedPods pod) {
    List<String> violations = new ArrayList<>();
    Map<String, JsonNode> volumes = new HashMap<>();
    pod.spec().path("volumes").forEach(v -> volumes.put(v.path("name").asText(), v));
    JsonNode podContext = pod.spec().path("securityContext");
    for (JsonNode c : pod.containers()) {
      if (RenderedPods.addedByJobc(c)) {
        violations.addAll(violations(c, podContext, volumes));
      }
    }
    assertThat(violations).as(pod.toString()).isEmpty();
  }

  /**
   * The check is not vacuous: every MPIJob launcher Job carries kubectl-delivery or the sidecar.
   */
  @Test
  void everyRenderedLauncherHasJobcContainersToCheck() {
    List<String> launchers = new ArrayList<>();
    pods()
        .filter(p -> p.object().startsWith("Job ") && p.object().endsWith("-launcher"))
        .forEach(
            p -> {
              launchers.add(p.toString());
              assertThat(p.containers().stream().filter(RenderedPods::addedByJobc))
                  .as(p.toString())
                  .isNotEmpty();
            });
    assertThat(launchers).hasSizeGreaterThan(50);
  }

  /**
   * A job whose own settings meet the profile renders pods that meet it whole: every container, the
   * user's too, and the pod-level controls (host namespaces, sysctls outside the safe set).
   */
  @Test
  void aRestrictedJobRendersRestrictedPods() {
    List<RenderedPods> pods =
        pods().filter(p -> p.caseName().equals("mpijob-v2beta1-restricted-pod")).toList();
    assertThat(pods)
        .extracting(RenderedPods::object)
        .containsExactly("StatefulSet pi-worker", "Job pi-launcher", "Job pi-scaler");
    for (RenderedPods pod : pods) {
      Map<String, JsonNode> volumes = new HashMap<>();
      pod.spec().path("volumes").forEach(v -> volumes.put(v.path("name").asText(), v));
      List<String> violations = new ArrayList<>();
      for (String hostNamespace : List.of("hostNetwork", "hostPID", "hostIPC")) {
        if (pod.spec().path(hostNamespace).asBoolean(false)) {
          violations.add(hostNamespace);
        }
      }
      pod.spec()
          .path("securityContext")
          .path("sysctls")
          .forEach(sysctl -> violations.add("sysctl " + sysctl.path("name").asText()));
      for (JsonNode c : pod.containers()) {
        violations.addAll(violations(c, pod.spec().path("securityContext"), volumes));
      }
      assertThat(violations).as(pod.toString()).isEmpty();
    }
  }

  /** The checker itself: a container with none of the settings breaks every restricted rule. */
  @Test
  void aBareContainerBreaksEveryRule() throws Exception {
    var mapper = new ObjectMapper();
    JsonNode bare =
        mapper.readTree(
            "{\"name\":\"x\",\"ports\":[{\"hostPort\":80}],\"volumeMounts\":[{\"name\":\"h\"}],"
                + "\"securityContext\":{\"privileged\":true,\"procMount\":\"Unmasked\","
                + "\"capabilities\":{\"add\":[\"SYS_ADMIN\"]},\"runAsUser\":0,"
                + "\"seLinuxOptions\":{\"type\":\"spc_t\"},"
                + "\"appArmorProfile\":{\"type\":\"Unconfined\"},"
                + "\"windowsOptions\":{\"hostProcess\":true}}}");
    JsonNode hostPath = mapper.readTree("{\"name\":\"h\",\"hostPath\":{\"path\":\"/\"}}");
    List<String> found = violations(bare, mapper.createObjectNode(), Map.of("h", hostPath));
    assertThat(found)
        .containsExactly(
            "x: windowsOptions.hostProcess",
            "x: privileged",
            "x: capabilities.drop lacks ALL",
            "x: capabilities.add SYS_ADMIN",
            "x: hostPort 80",
            "x: appArmorProfile Unconfined",
            "x: seLinuxOptions {\"type\":\"spc_t\"}",
            "x: procMount Unmasked",
            "x: seccompProfile unset",
            "x: volume h is hostPath",
            "x: allowPrivilegeEscalation is not false",
            "x: runAsNonRoot is not true",
            "x: runAsUser 0");
  }

  static List<String> violations(JsonNode c, JsonNode podContext, Map<String, JsonNode> volumes) {
    String name = c.path("name").asText();
    JsonNode sc = c.path("securityContext");
    List<String> out = new ArrayList<>();
    // Baseline: HostProcess.
    if (effective(sc, podContext, "windowsOptions").path("hostProcess").asBoolean(false)) {
      out.add(name + ": windowsOptions.hostProcess");
    }
    // Baseline: Privileged Containers.
    if (sc.path("privileged").asBoolean(false)) {
      out.add(name + ": privileged");
    }
    // Restricted: Capabilities (drop ALL; add at most NET_BIND_SERVICE).
    List<String> drop = new ArrayList<>();
    sc.path("capabilities").path("drop").forEach(d -> drop.add(d.asText()));
    if (!drop.contains("ALL")) {
      out.add(name + ": capabilities.drop lacks ALL");
    }
    sc.path("capabilities")
        .path("add")
        .forEach(
            a -> {
              if (!a.asText().equals("NET_BIND_SERVICE")) {
                out.add(name + ": capabilities.add " + a.asText());
              }
            });
    // Baseline: Host Ports.
    c.path("ports")
        .forEach(
            p -> {
              if (p.path("hostPort").asInt(0) != 0) {
                out.add(name + ": hostPort " + p.path("hostPort").asInt());
              }
            });
    // Baseline: AppArmor (the field; jobc sets no AppArmor annotation).
    String appArmor = effective(sc, podContext, "appArmorProfile").path("type").asText("");
    if (!appArmor.isEmpty() && !Set.of("RuntimeDefault", "Localhost").contains(appArmor)) {
      out.add(name + ": appArmorProfile " + appArmor);
    }
    // Baseline: SELinux.
    JsonNode selinux = effective(sc, podContext, "seLinuxOptions");
    String type = selinux.path("type").asText("");
    if ((!type.isEmpty() && !SELINUX_TYPES.contains(type))
        || selinux.has("user")
        || selinux.has("role")) {
      out.add(name + ": seLinuxOptions " + selinux);
    }
    // Baseline: /proc Mount Type.
    String procMount = sc.path("procMount").asText("Default");
    if (!procMount.equals("Default")) {
      out.add(name + ": procMount " + procMount);
    }
    // Restricted: Seccomp (RuntimeDefault or Localhost, the container's or the pod's).
    String seccomp = effective(sc, podContext, "seccompProfile").path("type").asText("");
    if (!Set.of("RuntimeDefault", "Localhost").contains(seccomp)) {
      out.add(name + ": seccompProfile " + (seccomp.isEmpty() ? "unset" : seccomp));
    }
    // Restricted: Volume Types (and baseline HostPath), for every volume the container mounts.
    c.path("volumeMounts")
        .forEach(
            m -> {
              JsonNode v = volumes.get(m.path("name").asText());
              if (v == null) {
                out.add(name + ": mounts unknown volume " + m.path("name").asText());
                return;
              }
              v.fieldNames()
                  .forEachRemaining(
                      f -> {
                        if (!f.equals("name") && !ALLOWED_VOLUMES.contains(f)) {
                          out.add(name + ": volume " + v.path("name").asText() + " is " + f);
                        }
                      });
            });
    // Restricted: Privilege Escalation.
    if (!sc.path("allowPrivilegeEscalation").isBoolean()
        || sc.path("allowPrivilegeEscalation").asBoolean()) {
      out.add(name + ": allowPrivilegeEscalation is not false");
    }
    // Restricted: Running as Non-root.
    JsonNode nonRoot =
        sc.has("runAsNonRoot") ? sc.path("runAsNonRoot") : podContext.path("runAsNonRoot");
    if (!nonRoot.asBoolean(false)) {
      out.add(name + ": runAsNonRoot is not true");
    }
    // Restricted: Running as Non-root user.
    JsonNode user = sc.has("runAsUser") ? sc.path("runAsUser") : podContext.path("runAsUser");
    if (user.isNumber() && user.asLong() == 0) {
      out.add(name + ": runAsUser 0");
    }
    return out;
  }

  /** A setting of the container's security context, else the pod's. */
  private static JsonNode effective(JsonNode container, JsonNode pod, String field) {
    return container.has(field) ? container.path(field) : pod.path(field);
  }
}
