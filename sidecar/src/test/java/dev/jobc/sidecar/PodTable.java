package dev.jobc.sidecar;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * The pods of one namespace for the benchmark at thousands of workers, where fabric8's CRUD mock
 * (every request a scan and a parse of every stored object) stalls its event loop for seconds: pods
 * kept as their JSON, by name; get, list (equality label selectors, a {@code metadata.name} field
 * selector, {@code limit} and {@code continue}), watch (a WebSocket, replaying the changes after
 * the given resource version) and delete over HTTP; changes made in-process by the stand-in with a
 * resource version of their own, sent to every matching watch.
 */
final class PodTable {
  private final KubernetesSerialization json = new KubernetesSerialization();
  private final TreeMap<String, Entry> pods = new TreeMap<>();
  private final List<Change> history = new ArrayList<>();
  private final List<Watch> watches = new ArrayList<>();
  private long version;

  private record Entry(String json, Map<String, String> labels) {}

  private record Change(long version, String event, String name, Map<String, String> labels) {}

  private record Watch(WebSocket socket, Map<String, String> labels, String name) {}

  /** Creates or replaces {@code pod}; returns it as stored. */
  synchronized Pod put(Pod pod) {
    String name = pod.getMetadata().getName();
    pod.getMetadata().setResourceVersion(Long.toString(++version));
    if (pod.getMetadata().getUid() == null) {
      pod.getMetadata().setUid("uid-" + name);
    }
    String text = json.asJson(pod);
    Map<String, String> labels =
        pod.getMetadata().getLabels() == null
            ? Map.of()
            : Map.copyOf(pod.getMetadata().getLabels());
    Entry before = pods.put(name, new Entry(text, labels));
    publish(before == null ? "ADDED" : "MODIFIED", name, labels, text);
    return pod;
  }

  /** Changes pod {@code name} by {@code change}; fails when there is none. */
  synchronized void edit(String name, UnaryOperator<Pod> change) {
    Pod pod = get(name);
    if (pod == null) {
      throw new IllegalArgumentException("no pod " + name);
    }
    put(change.apply(pod));
  }

  synchronized Pod get(String name) {
    Entry e = pods.get(name);
    return e == null ? null : json.unmarshal(e.json(), Pod.class);
  }

  synchronized void delete(String name) {
    Entry e = pods.remove(name);
    if (e != null) {
      version++;
      publish("DELETED", name, e.labels(), e.json());
    }
  }

  private void publish(String type, String name, Map<String, String> labels, String object) {
    String event = "{\"type\":\"" + type + "\",\"object\":" + object + "}";
    history.add(new Change(version, event, name, labels));
    for (Watch w : watches) {
      if (matches(w.labels(), w.name(), name, labels)) {
        w.socket().send(event);
      }
    }
  }

  private static boolean matches(
      Map<String, String> selector, String selectedName, String name, Map<String, String> labels) {
    return (selectedName == null || selectedName.equals(name))
        && labels.entrySet().containsAll(selector.entrySet());
  }

  /** Whether the table answers {@code path}: the pods of the namespace, or one of them. */
  static boolean serves(String path) {
    return path.matches("/api/v1/namespaces/[^/]+/pods(/[^/?]+)?(\\?.*)?");
  }

  synchronized MockResponse answer(RecordedRequest request) {
    String path = request.getPath();
    int q = path.indexOf('?');
    String[] parts = (q < 0 ? path : path.substring(0, q)).split("/");
    String name = parts.length > 6 ? parts[6] : null;
    Map<String, String> query = query(q < 0 ? "" : path.substring(q + 1));
    if (name != null) {
      Entry e = pods.get(name);
      if (e == null) {
        return ApiStandIn.status(404, "NotFound", "pods \\\"" + name + "\\\" not found");
      }
      if ("DELETE".equals(request.getMethod())) {
        delete(name);
      } else if (!"GET".equals(request.getMethod())) {
        return ApiStandIn.status(
            405, "MethodNotAllowed", "the benchmark's pods are changed in-process");
      }
      return new MockResponse().setResponseCode(200).setBody(e.json());
    }
    Map<String, String> labels = selector(query.get("labelSelector"));
    String field = query.get("fieldSelector");
    String selectedName =
        field != null && field.startsWith("metadata.name=")
            ? field.substring("metadata.name=".length())
            : null;
    if ("true".equals(query.get("watch"))) {
      long from =
          query.containsKey("resourceVersion")
              ? Long.parseLong(query.get("resourceVersion"))
              : version;
      return new MockResponse()
          .withWebSocketUpgrade(
              new WebSocketListener() {
                @Override
                public void onOpen(WebSocket ws, Response response) {
                  synchronized (PodTable.this) {
                    for (Change c : history) {
                      if (c.version() > from
                          && matches(labels, selectedName, c.name(), c.labels())) {
                        ws.send(c.event());
                      }
                    }
                    watches.add(new Watch(ws, labels, selectedName));
                  }
                  Eventually.changed();
                }

                @Override
                public void onClosing(WebSocket ws, int code, String reason) {
                  forget(ws);
                }

                @Override
                public void onClosed(WebSocket ws, int code, String reason) {
                  forget(ws);
                }

                @Override
                public void onFailure(WebSocket ws, Throwable error, Response response) {
                  forget(ws);
                }
              });
    }
    int limit =
        query.containsKey("limit") ? Integer.parseInt(query.get("limit")) : Integer.MAX_VALUE;
    String after = query.get("continue");
    StringBuilder items = new StringBuilder();
    int n = 0;
    String last = null;
    for (var e : (after == null ? pods : pods.tailMap(after, false)).entrySet()) {
      if (!matches(labels, selectedName, e.getKey(), e.getValue().labels())) {
        continue;
      }
      if (n == limit) {
        break;
      }
      items.append(n == 0 ? "" : ",").append(e.getValue().json());
      last = e.getKey();
      n++;
    }
    boolean more =
        last != null
            && pods.tailMap(last, false).entrySet().stream()
                .anyMatch(e -> matches(labels, selectedName, e.getKey(), e.getValue().labels()));
    return new MockResponse()
        .setResponseCode(200)
        .setBody(
            "{\"apiVersion\":\"v1\",\"kind\":\"PodList\",\"metadata\":{\"resourceVersion\":\""
                + version
                + "\""
                + (more ? ",\"continue\":\"" + last + "\"" : "")
                + "},\"items\":["
                + items
                + "]}");
  }

  private synchronized void forget(WebSocket ws) {
    watches.removeIf(w -> w.socket() == ws);
    Eventually.changed();
  }

  synchronized int openWatches() {
    return watches.size();
  }

  private static Map<String, String> query(String query) {
    Map<String, String> out = new HashMap<>();
    for (String param : query.split("&")) {
      int eq = param.indexOf('=');
      if (eq > 0) {
        out.put(
            param.substring(0, eq),
            URLDecoder.decode(param.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  private static Map<String, String> selector(String selector) {
    Map<String, String> out = new HashMap<>();
    if (selector != null && !selector.isEmpty()) {
      for (String term : selector.split(",")) {
        String[] kv = term.split("=", 2);
        out.put(kv[0], kv[1]);
      }
    }
    return out;
  }
}
