package dev.jobc.sidecar;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.api.model.ListMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * The resident floor of the libraries a sidecar could be built on ({@code bench/sidecar-bench.sh
 * --floor}, not a unit test): each step a process of its own, under the JVM options the compiler
 * renders for a job of that many workers, doing what a pod watch must (20 lists of every worker,
 * then a watch stream of 2 changes per worker, the workers kept by name) with one more library than
 * the step before, on a classpath of Jackson, fabric8's model and picocli only (no fabric8 client).
 * Each prints its peak resident size ({@code VmHWM}). The pods are {@link SidecarBench#realistic},
 * served on loopback by the JDK's HTTP server in this process.
 *
 * <p>Steps: {@code jvm} (picocli parses the arguments, nothing else); {@code http-client} (the
 * JDK's {@code java.net.http} client reads the lists, unparsed); {@code http-client-tree} (and
 * Jackson reads them into trees); {@code http-client-model} (and binds them to fabric8's {@code
 * Pod}, as fabric8's client does); {@code url-connection} ({@code HttpURLConnection} reads them,
 * unparsed); {@code url-connection-stream} (and Jackson's streaming parser picks the names out,
 * skipping the rest).
 */
public final class ClientFloor {
  static final List<String> STEPS =
      List.of(
          "jvm",
          "http-client",
          "http-client-tree",
          "http-client-model",
          "url-connection",
          "url-connection-stream");

  /** The child's classpath: these libraries and the test classes, nothing else. */
  private static final Pattern LIBRARIES =
      Pattern.compile(
          ".*(test-classes|/(jackson-(core|databind|annotations)|kubernetes-model-(core|common)"
              + "|jobc-picocli)-[^/]*\\.jar|/picocli/target/classes)/?$");

  private static final int LISTS = 20;

  private ClientFloor() {}

  /** {@code workers [runs]}. */
  public static void main(String[] args) throws Exception {
    int workers = Integer.parseInt(args[0]);
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 1;
    KubernetesSerialization json = new KubernetesSerialization();
    List<Pod> pods = new ArrayList<>();
    for (int i = 0; i < workers; i++) {
      pods.add(
          SidecarBench.realistic(
              ApiStandIn.worker("pi", i, false, "10.0." + i / 250 + "." + i % 250)));
    }
    PodList list = new PodList();
    list.setMetadata(new ListMeta(null, null, "1000", null, null));
    list.setItems(pods);
    byte[] listJson = json.asJson(list).getBytes(StandardCharsets.UTF_8);
    StringBuilder events = new StringBuilder();
    for (int k = 0; k < 2 * workers; k++) {
      Pod p = pods.get(k % workers);
      p.getMetadata().setResourceVersion(String.valueOf(1001 + k));
      events.append("{\"type\":\"MODIFIED\",\"object\":").append(json.asJson(p)).append("}\n");
    }
    byte[] eventsJson = events.toString().getBytes(StandardCharsets.UTF_8);
    String jvmOptions = RenderedSidecar.javaToolOptions(RenderedSidecar.mpiRun(workers));
    String override = System.getenv("JOBC_BENCH_JAVA_TOOL_OPTIONS");
    if (override != null && !override.isBlank()) {
      jvmOptions = override;
    }
    List<String> classpath = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
      if (LIBRARIES.matcher(entry).matches()) {
        classpath.add(entry);
      }
    }
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/list", ex -> send(ex, listJson));
    server.createContext("/watch", ex -> send(ex, eventsJson));
    server.start();
    String url = "http://127.0.0.1:" + server.getAddress().getPort();
    System.out.printf(
        "%s; %d workers, %d bytes of JSON each; JAVA_TOOL_OPTIONS: %s%n",
        System.getProperty("java.vm.name") + " " + Runtime.version(),
        workers,
        listJson.length / Math.max(1, workers),
        jvmOptions);
    try {
      for (String step : STEPS) {
        List<String> peaks = new ArrayList<>();
        for (int r = 0; r < runs; r++) {
          peaks.add(run(step, url, jvmOptions, String.join(java.io.File.pathSeparator, classpath)));
        }
        System.out.printf(
            "%-22s peak RSS %s MiB (load %s)%n",
            step,
            String.join(", ", peaks),
            Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
      }
    } finally {
      server.stop(0);
    }
  }

  private static void send(HttpExchange ex, byte[] body) throws IOException {
    ex.getResponseHeaders().set("Content-Type", "application/json");
    ex.sendResponseHeaders(200, body.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(body);
    }
  }

  private static String run(String step, String url, String jvmOptions, String classpath)
      throws IOException, InterruptedException {
    ProcessBuilder pb =
        new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp",
            classpath,
            Step.class.getName(),
            step,
            url);
    pb.environment().put("JAVA_TOOL_OPTIONS", jvmOptions);
    pb.redirectErrorStream(true);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0 || !out.contains("VmHWM")) {
      throw new IllegalStateException(step + " failed:\n" + out);
    }
    String kib = out.replaceAll("(?s).*VmHWM:\\s*(\\d+) kB.*", "$1");
    return String.format("%.1f", Long.parseLong(kib) / 1024.0);
  }

  /**
   * One step, in a process of its own: a class apart, so that verifying it loads none of the
   * classes the parent uses.
   */
  static final class Step {
    private Step() {}

    @CommandLine.Command(name = "run")
    static final class Arguments implements Callable<Integer> {
      @CommandLine.Option(names = "--job")
      String job;

      @Override
      public Integer call() {
        return 0;
      }
    }

    public static void main(String[] args) throws Exception {
      step(args[0], args[1]);
    }

    private static void step(String step, String url) throws Exception {
      new CommandLine(new Arguments()).execute("--job", "pi");
      Map<String, Object> pods = new TreeMap<>();
      if (step.startsWith("http-client")) {
        HttpClient http = HttpClient.newHttpClient();
        ObjectMapper mapper =
            step.equals("http-client")
                ? null
                : new ObjectMapper()
                    .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
        for (int r = 0; r <= LISTS; r++) {
          String path = r < LISTS ? "/list" : "/watch";
          HttpResponse<InputStream> res =
              http.send(
                  HttpRequest.newBuilder(URI.create(url + path)).build(),
                  HttpResponse.BodyHandlers.ofInputStream());
          try (InputStream in = res.body()) {
            if (step.equals("http-client")) {
              in.transferTo(OutputStream.nullOutputStream());
            } else if (r < LISTS) {
              for (JsonNode pod : mapper.readTree(in).get("items")) {
                keep(pods, pod, step, mapper);
              }
            } else {
              BufferedReader lines =
                  new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
              for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                keep(pods, mapper.readTree(line).get("object"), step, mapper);
              }
            }
          }
        }
      } else if (step.startsWith("url-connection")) {
        JsonFactory factory = new JsonFactory();
        for (int r = 0; r <= LISTS; r++) {
          HttpURLConnection c =
              (HttpURLConnection)
                  URI.create(url + (r < LISTS ? "/list" : "/watch")).toURL().openConnection();
          try (InputStream in = c.getInputStream()) {
            if (step.equals("url-connection")) {
              in.transferTo(OutputStream.nullOutputStream());
              continue;
            }
            try (JsonParser p = factory.createParser(in)) {
              for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                if (t != JsonToken.FIELD_NAME) {
                  continue;
                }
                String field = p.currentName();
                p.nextToken();
                if (field.equals("managedFields") || field.equals("spec")) {
                  p.skipChildren();
                } else if (field.equals("name")
                    && "metadata".equals(p.getParsingContext().getParent().getCurrentName())) {
                  pods.put(p.getText(), Boolean.TRUE);
                }
              }
            }
          }
        }
      }
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmHWM")) {
          System.out.println(line + " (" + pods.size() + " pods)");
        }
      }
    }

    private static void keep(
        Map<String, Object> pods, JsonNode pod, String step, ObjectMapper mapper)
        throws IOException {
      String name = pod.get("metadata").get("name").asText();
      pods.put(
          name, step.endsWith("model") ? mapper.treeToValue(pod, Pod.class) : pod.get("status"));
    }
  }
}
