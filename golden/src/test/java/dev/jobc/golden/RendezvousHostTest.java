package dev.jobc.golden;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobc.conventions.ReplicaLabels;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Every host the training-operator family's pods are told to meet at (PyTorch's {@code
 * MASTER_ADDR}, {@code PET_MASTER_ADDR} and {@code PET_RDZV_ENDPOINT}, XGBoost's {@code
 * MASTER_ADDR} and {@code WORKER_ADDRS}, JAX's {@code COORDINATOR_ADDRESS}, Paddle's {@code
 * PADDLE_MASTER}, TF_CONFIG's cluster) reaches exactly one pod through the cluster's DNS, and that
 * pod, and no other, takes the host for its own, as torchrun decides which node hosts the c10d
 * rendezvous store: the endpoint's host equals the machine's host name or its canonical name
 * ({@code pytorch torch/distributed/elastic/rendezvous/utils.py _matches_machine_hostname}, called
 * by {@code c10d_rendezvous_backend.py _create_tcp_store}). TF_CONFIG names Services ({@code
 * <host>.<ns>.svc}, training-operator v1.9.0 {@code tensorflow/tensorflow.go genClusterSpec}): its
 * hosts are compared by their first label. Checked over every golden case, rendered afresh, in each
 * carrier: bare Pods, Jobs and JobSets.
 */
class RendezvousHostTest {

  /** The variables naming one host each (after an optional port). */
  static final Set<String> ONE_HOST =
      Set.of(
          "MASTER_ADDR",
          "PET_MASTER_ADDR",
          "PET_RDZV_ENDPOINT",
          "COORDINATOR_ADDRESS",
          "PADDLE_MASTER");

  /** XGBoost's list of worker hosts. */
  static final String HOST_LIST = "WORKER_ADDRS";

  static final String TF_CONFIG = "TF_CONFIG";

  static final String DEFAULT_DOMAIN = "cluster.local";

  /**
   * A pod that a rendered object makes at run time.
   *
   * @param carrier what makes it: {@code Pod}, {@code Job}, {@code StatefulSet} or {@code JobSet}
   * @param hostname its host name, or {@code null} where it is the pod's random name
   * @param subdomain {@code spec.subdomain} as the pod gets it, or {@code null}
   */
  record RunPod(
      String object,
      String carrier,
      String namespace,
      String hostname,
      String subdomain,
      Map<String, String> labels,
      JsonNode spec) {

    /**
     * The canonical name: the first name of the pod's own line of /etc/hosts, {@code
     * <hostname>.<subdomain>.<ns>.svc.<domain>} with a subdomain, else the host name ({@code
     * kubernetes pkg/kubelet/kubelet_pods.go GeneratePodHostNameAndDomain}, {@code
     * managedHostsFileContent}).
     */
    String fqdn(String domain) {
      return subdomain == null
          ? hostname
          : hostname + "." + subdomain + "." + namespace + ".svc." + domain;
    }

    /** torchrun's {@code _matches_machine_hostname}, by name. */
    boolean answersTo(String host, String domain) {
      return hostname != null && (host.equals(hostname) || host.equals(fqdn(domain)));
    }
  }

  /** A Service: its selector picks the pods its name reaches. */
  record Svc(String name, String namespace, Map<String, String> selector) {
    boolean selects(RunPod pod) {
      return !selector.isEmpty()
          && pod.namespace().equals(namespace)
          && pod.labels().entrySet().containsAll(selector.entrySet());
    }
  }

  /** What the check found in one case. */
  record Findings(List<String> failures, Set<String> checked) {}

  @Test
  void everyRendezvousHostIsTheHostNameOfThePodItReaches() {
    List<String> failures = new ArrayList<>();
    Set<String> checked = new TreeSet<>();
    for (Path dir : RenderedPods.renderingCases()) {
      if (dir.getFileName().toString().contains("-render-defaults-")) {
        // Pinned to earlier render defaults, which named no replica host: they render what those
        // releases did, rendezvous host included (docs/gitops.md).
        continue;
      }
      Findings f = check(RenderedPods.documents(dir), domain(dir));
      f.failures().forEach(m -> failures.add(dir.getFileName() + ": " + m));
      checked.addAll(f.checked());
    }
    assertThat(failures).isEmpty();
    // Not vacuous: each kind in each carrier it has golden cases for.
    assertThat(checked)
        .contains(
            "pytorchjob-controller in Job",
            "pytorchjob-controller in Pod",
            "pytorchjob-controller in JobSet",
            "tfjob-controller in Job",
            "tfjob-controller in Pod",
            "tfjob-controller in JobSet",
            "xgboostjob-controller in Job",
            "xgboostjob-controller in JobSet",
            "jaxjob-controller in Job",
            "jaxjob-controller in JobSet",
            "paddlejob-controller in Job",
            "paddlejob-controller in JobSet");
  }

  /**
   * The check fails where a Job's pod has no host name of its own (jobc before this rule): the
   * pod's name is {@code <job>-<random>}, which torchrun never finds in {@code MASTER_ADDR}.
   */
  @Test
  void aJobsPodWithoutAHostNameFails() {
    for (String name : List.of("pytorchjob-simple", "pytorchjob-jobset", "tfjob-simple")) {
      Path dir =
          RenderedPods.renderingCases().stream()
              .filter(d -> d.getFileName().toString().equals(name))
              .findFirst()
              .orElseThrow();
      List<JsonNode> docs = new ArrayList<>();
      for (JsonNode doc : RenderedPods.documents(dir)) {
        JsonNode copy = doc.deepCopy();
        copy.findParents("hostname").forEach(p -> ((ObjectNode) p).remove("hostname"));
        docs.add(copy);
      }
      assertThat(check(RenderedPods.documents(dir), domain(dir)).failures()).as(name).isEmpty();
      assertThat(check(docs, domain(dir)).failures())
          .as(name)
          .isNotEmpty()
          .allMatch(m -> m.contains("no pod takes it for its own"));
    }
  }

  /** The DNS model on its own: a Service's name, a pod's host under its subdomain, and neither. */
  @Test
  void resolvesServicesAndPodHostsAsTheClusterDns() throws IOException {
    ObjectMapper json = new ObjectMapper();
    RunPod a =
        new RunPod("Pod a", "Pod", "ns", "a", "s", Map.of("app", "x"), json.createObjectNode());
    RunPod b =
        new RunPod("Pod b", "Pod", "ns", "b", null, Map.of("app", "y"), json.createObjectNode());
    List<RunPod> pods = List.of(a, b);
    List<Svc> services =
        List.of(new Svc("s", "ns", Map.of("app", "x")), new Svc("t", "ns", Map.of("app", "y")));
    assertThat(resolve("s", "ns", pods, services)).containsExactly(a);
    assertThat(resolve("t.ns.svc", "ns", pods, services)).containsExactly(b);
    assertThat(resolve("t.ns.svc.cluster.local", "other", pods, services)).containsExactly(b);
    assertThat(resolve("a.s", "ns", pods, services)).containsExactly(a);
    assertThat(resolve("a.s.ns.svc.cluster.local", "ns", pods, services)).containsExactly(a);
    // b has no subdomain: no record under t.
    assertThat(resolve("b.t", "ns", pods, services)).isEmpty();
    assertThat(resolve("s", "elsewhere", pods, services)).isEmpty();
    assertThat(a.answersTo("a", DEFAULT_DOMAIN)).isTrue();
    assertThat(a.answersTo("a.s.ns.svc.cluster.local", DEFAULT_DOMAIN)).isTrue();
    assertThat(a.answersTo("s", DEFAULT_DOMAIN)).isFalse();
    assertThat(b.answersTo("b", DEFAULT_DOMAIN)).isTrue();
  }

  /** Every rendezvous host of every pod in {@code docs}, one case's output. */
  static Findings check(List<JsonNode> docs, String domain) {
    List<RunPod> pods = new ArrayList<>();
    List<Svc> services = new ArrayList<>();
    List<Svc> controllers = new ArrayList<>();
    for (JsonNode root : docs) {
      collect(root, pods, services, controllers);
    }
    // The JobSet controller makes its headless Service only when none of that name exists
    // (jobset v0.12.0 pkg/controllers/jobset_controller.go createHeadlessSvcIfNecessary).
    for (Svc svc : controllers) {
      if (services.stream()
          .noneMatch(o -> o.name().equals(svc.name()) && o.namespace().equals(svc.namespace()))) {
        services.add(svc);
      }
    }
    List<String> failures = new ArrayList<>();
    Set<String> checked = new TreeSet<>();
    for (RunPod pod : pods) {
      String operator = pod.labels().get(ReplicaLabels.OPERATOR_NAME);
      for (JsonNode c : pod.spec().path("containers")) {
        if (RenderedPods.addedByJobc(c)) {
          continue;
        }
        Map<String, String> env = new LinkedHashMap<>();
        for (String kv : RunTimeEnv.of(c.path("env"), false)) {
          int eq = kv.indexOf('=');
          env.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
        env.forEach(
            (name, value) -> {
              List<String> hosts = new ArrayList<>();
              boolean byFirstLabel = false;
              if (ONE_HOST.contains(name)) {
                hosts.add(host(value));
              } else if (HOST_LIST.equals(name)) {
                for (String h : value.split(",")) {
                  hosts.add(host(h));
                }
              } else if (TF_CONFIG.equals(name)) {
                hosts.addAll(tfConfigHosts(value));
                byFirstLabel = true;
              }
              if ("PET_MASTER_ADDR".equals(name) && env.containsKey("PET_NODE_RANK")) {
                // Static rendezvous (a TrainJob's torch plugin, kubeflow/trainer v2.3.0
                // plugins/torch/torch.go: <js>-node-0-0.<js>): the store is hosted by node rank 0
                // (pytorch torch/distributed/elastic/rendezvous/static_tcp_rendezvous.py), not by
                // a host name match; the name must still reach the pod whose host name it starts
                // with.
                byFirstLabel = true;
              }
              for (String h : hosts) {
                if (h == null) {
                  continue;
                }
                checked.add(operator + " in " + pod.carrier());
                String where = pod.object() + " " + name + " names " + h;
                List<RunPod> reached = resolve(h, pod.namespace(), pods, services);
                if (reached.size() != 1) {
                  failures.add(where + ": DNS reaches " + reached.size() + " pods, not one");
                  continue;
                }
                final boolean first = byFirstLabel;
                List<RunPod> claim =
                    pods.stream()
                        .filter(
                            p ->
                                first
                                    ? p.hostname() != null
                                        && p.hostname().equals(h.split("\\.", 2)[0])
                                        && p.namespace().equals(reached.get(0).namespace())
                                    : p.answersTo(h, domain))
                        .toList();
                if (claim.isEmpty()) {
                  failures.add(
                      where
                          + ": DNS reaches "
                          + reached.get(0).object()
                          + " (host name "
                          + reached.get(0).hostname()
                          + "), but no pod takes it for its own");
                } else if (!claim.equals(reached)) {
                  failures.add(
                      where
                          + ": DNS reaches "
                          + reached.get(0).object()
                          + ", but "
                          + claim.stream().map(RunPod::object).toList()
                          + " take it for their own");
                }
              }
            });
      }
    }
    return new Findings(failures, checked);
  }

  /**
   * The pods {@code root} makes and the Service it is: a bare Pod; a Job's pods ({@code
   * parallelism} of them, or one per completion index, whose host name the Job controller sets to
   * {@code <job>-<index>}: {@code kubernetes pkg/controller/job/job_controller.go manageJob}); a
   * StatefulSet's ({@code <sts>-<i>} under {@code serviceName}: {@code
   * pkg/controller/statefulset/stateful_set_utils.go updateIdentity}); a JobSet's child Jobs {@code
   * <jobset>-<replicatedJob>-<i>}, labelled with the JobSet's and replicated Job's names and, with
   * {@code network.enableDNSHostnames}, under the JobSet's subdomain ({@code jobset v0.12.0
   * pkg/controllers/jobset_controller.go constructJob, labelAndAnnotateObject}).
   */
  static void collect(JsonNode root, List<RunPod> pods, List<Svc> services, List<Svc> controllers) {
    String kind = root.path("kind").asText();
    String name = root.path("metadata").path("name").asText();
    String ns = root.path("metadata").path("namespace").asText("default");
    JsonNode spec = root.path("spec");
    switch (kind) {
      case "Service" -> services.add(new Svc(name, ns, strings(spec.path("selector"))));
      case "Pod" ->
          pods.add(
              new RunPod(
                  kind + " " + name,
                  kind,
                  ns,
                  text(spec, "hostname", name),
                  text(spec, "subdomain", null),
                  strings(root.path("metadata").path("labels")),
                  spec));
      case "Job" -> jobPods(kind + " " + name, kind, ns, name, spec, Map.of(), null, pods);
      case "StatefulSet" -> {
        JsonNode template = spec.path("template");
        for (int i = 0; i < spec.path("replicas").asInt(1); i++) {
          pods.add(
              new RunPod(
                  kind + " " + name + " pod " + i,
                  kind,
                  ns,
                  name + "-" + i,
                  text(spec, "serviceName", null),
                  strings(template.path("metadata").path("labels")),
                  template.path("spec")));
        }
      }
      case "JobSet" -> {
        JsonNode network = spec.path("network");
        // Unset, enableDNSHostnames is true (jobset v0.12.0 pkg/webhooks/jobset_webhook.go
        // Default), and the controller serves the subdomain with a headless Service selecting the
        // JobSet's pods.
        String subdomain =
            network.path("enableDNSHostnames").asBoolean(true)
                ? text(network, "subdomain", name)
                : null;
        if (subdomain != null) {
          controllers.add(new Svc(subdomain, ns, Map.of("jobset.sigs.k8s.io/jobset-name", name)));
        }
        for (JsonNode rj : spec.path("replicatedJobs")) {
          String rjName = rj.path("name").asText();
          for (int j = 0; j < rj.path("replicas").asInt(1); j++) {
            String job = name + "-" + rjName + "-" + j;
            Map<String, String> labels = new LinkedHashMap<>();
            labels.put("jobset.sigs.k8s.io/jobset-name", name);
            labels.put("jobset.sigs.k8s.io/replicatedjob-name", rjName);
            labels.put("jobset.sigs.k8s.io/job-index", Integer.toString(j));
            jobPods(
                kind + " " + name + " Job " + job,
                kind,
                ns,
                job,
                rj.path("template").path("spec"),
                labels,
                subdomain,
                pods);
          }
        }
      }
      default -> {}
    }
  }

  private static void jobPods(
      String object,
      String carrier,
      String ns,
      String job,
      JsonNode jobSpec,
      Map<String, String> extraLabels,
      String forcedSubdomain,
      List<RunPod> pods) {
    JsonNode template = jobSpec.path("template");
    JsonNode spec = template.path("spec");
    Map<String, String> labels =
        new LinkedHashMap<>(strings(template.path("metadata").path("labels")));
    labels.putAll(extraLabels);
    String subdomain = forcedSubdomain != null ? forcedSubdomain : text(spec, "subdomain", null);
    int parallelism = jobSpec.path("parallelism").asInt(1);
    // A JobSet's child Job is Indexed unless its template says otherwise (jobset v0.12.0
    // jobset_webhook.go Default); a plain Job is NonIndexed unless it says Indexed.
    String mode = jobSpec.path("completionMode").asText(carrier.equals("JobSet") ? "Indexed" : "");
    if ("Indexed".equals(mode)) {
      for (int i = 0; i < jobSpec.path("completions").asInt(parallelism); i++) {
        pods.add(
            new RunPod(
                object + " index " + i, carrier, ns, job + "-" + i, subdomain, labels, spec));
      }
    } else {
      for (int i = 0; i < parallelism; i++) {
        pods.add(
            new RunPod(
                object + (parallelism > 1 ? " pod " + i : ""),
                carrier,
                ns,
                text(spec, "hostname", null),
                subdomain,
                labels,
                spec));
      }
    }
  }

  /**
   * The pods the cluster's DNS answers {@code host} with, asked from namespace {@code ns}: a
   * Service's name ({@code <svc>}, {@code <svc>.<ns>.svc[.<domain>]}) reaches the pods its selector
   * picks; {@code <host>.<sub>} (through the pod's search path {@code <ns>.svc.<domain>}) or {@code
   * <host>.<sub>.<ns>.svc[.<domain>]} the pod of that host name whose subdomain is the headless
   * Service {@code <sub>} that selects it ({@code kubernetes pkg/controller/endpointslice}: an
   * endpoint's host name is the pod's when its subdomain is the Service's name).
   */
  static List<RunPod> resolve(String host, String ns, List<RunPod> pods, List<Svc> services) {
    String[] labels = host.split("\\.");
    int svc = List.of(labels).indexOf("svc");
    if (svc == 2) {
      return service(labels[0], labels[1], pods, services);
    }
    if (svc == 3) {
      return podHost(labels[0], labels[1], labels[2], pods, services);
    }
    if (svc >= 0) {
      return List.of();
    }
    if (labels.length == 1) {
      return service(host, ns, pods, services);
    }
    if (labels.length == 2) {
      List<RunPod> out = podHost(labels[0], labels[1], ns, pods, services);
      return out.isEmpty() ? service(labels[0], labels[1], pods, services) : out;
    }
    return List.of();
  }

  private static List<RunPod> service(
      String name, String ns, List<RunPod> pods, List<Svc> services) {
    return services.stream()
        .filter(s -> s.name().equals(name) && s.namespace().equals(ns))
        .flatMap(s -> pods.stream().filter(s::selects))
        .toList();
  }

  private static List<RunPod> podHost(
      String hostname, String sub, String ns, List<RunPod> pods, List<Svc> services) {
    return service(sub, ns, pods, services).stream()
        .filter(p -> hostname.equals(p.hostname()) && sub.equals(p.subdomain()))
        .toList();
  }

  /** The host of {@code host[:port]}; {@code null} for what names no DNS host (a pod's IP). */
  static String host(String value) {
    if (value.startsWith("<from") || value.contains("$(") || value.startsWith("[")) {
      return null;
    }
    int colon = value.lastIndexOf(':');
    String host = colon < 0 ? value : value.substring(0, colon);
    return host.isEmpty() || host.matches("[0-9.]+") || host.equals("localhost") ? null : host;
  }

  private static List<String> tfConfigHosts(String value) {
    List<String> out = new ArrayList<>();
    try {
      new ObjectMapper()
          .readTree(value)
          .path("cluster")
          .forEach(type -> type.forEach(a -> out.add(host(a.asText()))));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /** The case's {@code cluster-domain} option, else Kubernetes' default. */
  static String domain(Path dir) {
    Path options = dir.resolve(GoldenCase.OPTIONS);
    if (!Files.exists(options)) {
      return DEFAULT_DOMAIN;
    }
    try {
      for (String line : Files.readAllLines(options)) {
        if (line.startsWith("cluster-domain:")) {
          return line.substring(line.indexOf(':') + 1).trim();
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return DEFAULT_DOMAIN;
  }

  private static Map<String, String> strings(JsonNode map) {
    Map<String, String> out = new LinkedHashMap<>();
    map.properties().forEach(e -> out.put(e.getKey(), e.getValue().asText()));
    return out;
  }

  private static String text(JsonNode node, String field, String otherwise) {
    JsonNode v = node.path(field);
    return v.isTextual() && !v.asText().isEmpty() ? v.asText() : otherwise;
  }
}
