package dev.jobc.sidecar;

import dev.jobc.sidecar.client.ApiConnection;
import dev.jobc.testkit.ImageTar;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Runs containers of a rendered pod that use the {@code jobc-sidecar} image as processes of this
 * machine, the way kubelet would run them:
 *
 * <ul>
 *   <li>the command is the entrypoint of the image the build just made (Jib's tar, on {@code
 *       scratch}), its layers extracted and its paths mapped there, with {@code java} the JDK
 *       running the tests (see {@link ImageTar#hostCommand});
 *   <li>the arguments are the container's {@code args}: a container without {@code command} keeps
 *       the image's entrypoint and takes {@code args} in place of its {@code Cmd}
 *       (kubernetes/kubernetes {@code pkg/kubelet/container/helpers.go}, {@code
 *       ExpandContainerCommandAndArgs}; the image's entrypoint and command as the CRI runtime
 *       combines them);
 *   <li>the environment is the image's {@code Env} and then the container's {@code env}, the
 *       container's winning (containerd's CRI plugin, {@code container_create.go}: the image
 *       config's env, then the container's), downward-API fields resolved from this pod ({@code
 *       pkg/kubelet/kubelet_pods.go}, {@code makeEnvironmentVariables} and {@code
 *       podFieldSelectorRuntimeValue}), plus {@code KUBERNETES_MASTER} pointing at the stand-in API
 *       and the token file as mounted (a pod would have its service account's host, port and CA
 *       instead), a private {@code HOME}, and a {@code PATH} with this JDK;
 *   <li>every volume is a directory: a ConfigMap volume filled from the rendered ConfigMap with the
 *       rendered modes ({@code pkg/volume/configmap/configmap.go}, {@code MakePayload}: an item's
 *       {@code mode}, else {@code defaultMode}), an {@code emptyDir} empty ({@code
 *       pkg/volume/emptydir/empty_dir.go}). A test cannot mount over {@code /etc}, so paths under a
 *       container's mount points, in arguments and probes, are rewritten to the directory behind
 *       the mount: the only change made to what jobc renders.
 * </ul>
 */
final class KubeletStandIn {
  private final ImageTar image;
  private final Path dir;
  private final Pod pod;
  private final Map<String, ConfigMap> configMaps = new HashMap<>();
  private final String apiUrl;

  /**
   * @param image the jobc-sidecar image, opened
   * @param dir this pod's own scratch directory
   * @param pod the pod as the API would hold it: name, namespace, spec and {@code status.podIP}
   * @param apiUrl where the API stand-in listens
   */
  KubeletStandIn(ImageTar image, Path dir, Pod pod, List<ConfigMap> configMaps, String apiUrl)
      throws IOException {
    this.image = image;
    this.dir = dir;
    this.pod = pod;
    configMaps.forEach(c -> this.configMaps.put(c.getMetadata().getName(), c));
    Files.createDirectories(dir.resolve("home"));
    for (Volume v : pod.getSpec().getVolumes()) {
      mount(v);
    }
    this.apiUrl = apiUrl;
  }

  /** The directory of volume {@code name}. */
  Path volume(String name) {
    return dir.resolve("volumes").resolve(name);
  }

  /** Where {@code path}, as container {@code container} sees it, is on this machine. */
  Path hostPath(String container, String path) {
    return Path.of(rewrite(container(container), path));
  }

  /** Starts the container; its standard output and error go to {@code log}. */
  Process start(String container, Path log) throws IOException {
    return start(container, log, null);
  }

  /**
   * Starts the container inside {@code limits} (a control group with the container's CPU and memory
   * limits), as kubelet runs it; without limits when {@code null}.
   */
  Process start(String container, Path log, CgroupLimits limits) throws IOException {
    Container c = container(container);
    if (c.getCommand() != null && !c.getCommand().isEmpty()) {
      throw new IllegalArgumentException(container + " replaces the image's entrypoint");
    }
    List<String> command = image.hostCommand(image.entrypoint(), dir.resolve("image"));
    for (String arg : c.getArgs()) {
      command.add(rewrite(c, arg));
    }
    ProcessBuilder pb =
        new ProcessBuilder(limits == null ? command : limits.wrap(command))
            .redirectErrorStream(true);
    pb.redirectOutput(log.toFile());
    Map<String, String> env = pb.environment();
    env.clear();
    env.putAll(image.env());
    env.put("PATH", ImageTar.hostPath());
    env.put("HOME", dir.resolve("home").toString());
    // In place of the in-cluster configuration (KUBERNETES_SERVICE_HOST, and the service account's
    // CA at its fixed path): the stand-in's plain-HTTP URL, and the token as mounted for the
    // container (the stand-in checks no token).
    env.put("KUBERNETES_MASTER", apiUrl);
    String token = rewrite(c, ApiConnection.SERVICE_ACCOUNT.resolve("token").toString());
    if (!token.startsWith(ApiConnection.SERVICE_ACCOUNT.toString())) {
      env.put("KUBERNETES_AUTH_SERVICEACCOUNT_TOKEN", token);
    }
    env.putAll(environment(c));
    return pb.start();
  }

  /** Runs the container's startup probe once, as kubelet's exec probe does: true on exit 0. */
  boolean startupProbePasses(String container) throws IOException, InterruptedException {
    Container c = container(container);
    List<String> command = new ArrayList<>();
    for (String part : c.getStartupProbe().getExec().getCommand()) {
      command.add(rewrite(c, part));
    }
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    p.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
    if (!p.waitFor(1, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("probe " + command + " did not finish");
    }
    return p.exitValue() == 0;
  }

  /**
   * A control group with the container's rendered {@code limits.cpu} and {@code limits.memory}, as
   * kubelet gives it.
   */
  CgroupLimits limits(String container) {
    Container c = container(container);
    return CgroupLimits.create(RenderedSidecar.milliCpu(c), RenderedSidecar.memoryBytes(c));
  }

  /** The container's environment as kubelet sets it (values and downward-API fields). */
  Map<String, String> environment(Container c) {
    Map<String, String> out = new TreeMap<>();
    for (EnvVar e : c.getEnv()) {
      if (e.getValueFrom() == null) {
        out.put(e.getName(), e.getValue() == null ? "" : e.getValue());
        continue;
      }
      if (e.getValueFrom().getFieldRef() == null) {
        throw new IllegalArgumentException("no stand-in for " + e);
      }
      String field = e.getValueFrom().getFieldRef().getFieldPath();
      out.put(
          e.getName(),
          switch (field) {
            case "metadata.name" -> pod.getMetadata().getName();
            case "metadata.namespace" -> pod.getMetadata().getNamespace();
            case "status.podIP" -> pod.getStatus().getPodIP();
            default -> throw new IllegalArgumentException("no stand-in for field " + field);
          });
    }
    return out;
  }

  Container container(String name) {
    return Stream.concat(
            pod.getSpec().getInitContainers().stream(), pod.getSpec().getContainers().stream())
        .filter(c -> c.getName().equals(name))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no container " + name));
  }

  /** {@code value} with a leading mount path of {@code c} replaced by the volume's directory. */
  private String rewrite(Container c, String value) {
    VolumeMount best = null;
    for (VolumeMount m : c.getVolumeMounts()) {
      String at = m.getMountPath();
      if ((value.equals(at) || value.startsWith(at + "/"))
          && (best == null || at.length() > best.getMountPath().length())) {
        best = m;
      }
    }
    if (best == null) {
      return value;
    }
    Path target = volume(best.getName());
    if (best.getSubPath() != null && !best.getSubPath().isEmpty()) {
      target = target.resolve(best.getSubPath());
    }
    return target + value.substring(best.getMountPath().length());
  }

  private void mount(Volume v) throws IOException {
    Path to = volume(v.getName());
    Files.createDirectories(to);
    if (v.getEmptyDir() != null) {
      return;
    }
    if (v.getProjected() != null) {
      // A ServiceAccount token, the CA, the namespace: the token is sent and the stand-in checks
      // none, so the files only have to exist.
      Files.writeString(to.resolve("token"), "stand-in\n");
      Files.writeString(to.resolve("namespace"), pod.getMetadata().getNamespace());
      return;
    }
    if (v.getConfigMap() == null) {
      throw new IllegalArgumentException("no stand-in for volume " + v.getName());
    }
    ConfigMap source = configMaps.get(v.getConfigMap().getName());
    if (source == null) {
      throw new IllegalArgumentException("no rendered ConfigMap " + v.getConfigMap().getName());
    }
    Integer defaultMode = v.getConfigMap().getDefaultMode();
    List<KeyToPath> items = v.getConfigMap().getItems();
    if (items == null || items.isEmpty()) {
      items = new ArrayList<>();
      for (String key : source.getData().keySet()) {
        items.add(new KeyToPath(key, null, key));
      }
    }
    for (KeyToPath item : items) {
      Path file = to.resolve(item.getPath());
      Files.createDirectories(file.getParent());
      Files.writeString(file, source.getData().get(item.getKey()));
      Integer mode = item.getMode() != null ? item.getMode() : defaultMode;
      Files.setPosixFilePermissions(file, permissions(mode == null ? 0644 : mode));
    }
  }

  private static Set<PosixFilePermission> permissions(int mode) {
    Set<PosixFilePermission> out = EnumSet.noneOf(PosixFilePermission.class);
    PosixFilePermission[] bits = PosixFilePermission.values(); // OWNER_READ .. OTHERS_EXECUTE
    for (int i = 0; i < 9; i++) {
      if ((mode & (0400 >> i)) != 0) {
        out.add(bits[i]);
      }
    }
    return out;
  }
}
