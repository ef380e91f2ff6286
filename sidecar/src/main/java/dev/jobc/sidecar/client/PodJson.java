package dev.jobc.sidecar.client;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStateRunning;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStateWaiting;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodSchedulingGate;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatus;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Pods read from the API's JSON with Jackson's streaming parser, straight into the {@linkplain
 * ReducedPods reduced} form: the fields the sidecar reads are picked out and everything else is
 * skipped unparsed, so a page of realistic pods never exists as objects (no data binding, whose
 * classes alone cost the sidecar megabytes of metaspace).
 */
public final class PodJson {
  private static final JsonFactory JSON = new JsonFactory();

  private PodJson() {}

  /** One page of a list: its objects, the list's resource version and its continue token. */
  public record Page<T>(List<T> items, String resourceVersion, String continueToken) {}

  /**
   * One watch event: its type and either an object (ADDED, MODIFIED, DELETED, BOOKMARK: one with a
   * resource version only) or, for ERROR, the Status' code and message.
   */
  public record Event<T>(String type, T object, int code, String message) {}

  /** Reads one object; the parser is at its START_OBJECT and is left at its END_OBJECT. */
  public interface Reader<T> {
    T read(JsonParser p) throws IOException;
  }

  public static JsonParser parser(byte[] json) throws IOException {
    return JSON.createParser(json);
  }

  /** A pod's JSON (a GET's answer), reduced. */
  public static Pod pod(byte[] json) throws IOException {
    try (JsonParser p = JSON.createParser(json)) {
      expect(p.nextToken(), JsonToken.START_OBJECT);
      return pod(p);
    }
  }

  /** The pod the parser is at, reduced. */
  public static Pod pod(JsonParser p) throws IOException {
    return pod(p, null);
  }

  public static <T> Page<T> page(byte[] json, Reader<T> reader) throws IOException {
    try (JsonParser p = JSON.createParser(json)) {
      expect(p.nextToken(), JsonToken.START_OBJECT);
      List<T> items = new ArrayList<>();
      String rv = null;
      String cont = null;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken t = p.nextToken();
        if ("metadata".equals(field) && t == JsonToken.START_OBJECT) {
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            p.nextToken();
            switch (f) {
              case "resourceVersion" -> rv = text(p);
              case "continue" -> cont = text(p);
              default -> p.skipChildren();
            }
          }
        } else if ("items".equals(field) && t == JsonToken.START_ARRAY) {
          while (nextObject(p)) {
            items.add(reader.read(p));
          }
        } else {
          p.skipChildren();
        }
      }
      return new Page<>(items, rv, cont == null || cont.isEmpty() ? null : cont);
    }
  }

  /**
   * A watch event. Its type is looked up first (the API server writes it first, but JSON does not
   * promise it), so that an ERROR's object is read as the Status it is.
   */
  public static <T> Event<T> event(byte[] json, Reader<T> reader) throws IOException {
    String type = null;
    try (JsonParser p = JSON.createParser(json)) {
      expect(p.nextToken(), JsonToken.START_OBJECT);
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        p.nextToken();
        if ("type".equals(field)) {
          type = text(p);
        } else {
          p.skipChildren();
        }
      }
    }
    if (type == null) {
      throw new IOException("a watch event without a type");
    }
    try (JsonParser p = JSON.createParser(json)) {
      expect(p.nextToken(), JsonToken.START_OBJECT);
      T object = null;
      int[] code = {0};
      String[] message = {null};
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken t = p.nextToken();
        if ("object".equals(field) && t == JsonToken.START_OBJECT) {
          if ("ERROR".equals(type)) {
            pod(p, new StatusFields(code, message)); // a Status: only its code and message
          } else {
            object = reader.read(p);
          }
        } else {
          p.skipChildren();
        }
      }
      return new Event<>(type, object, code[0], message[0]);
    }
  }

  /** Where a Status' own fields go when the object read is one (a watch's ERROR event). */
  private record StatusFields(int[] code, String[] message) {}

  /** Reads the object the parser is at the start of (current token START_OBJECT). */
  private static Pod pod(JsonParser p, StatusFields status) throws IOException {
    Pod pod = new Pod();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      JsonToken t = p.nextToken();
      switch (field) {
        case "apiVersion" -> pod.setApiVersion(text(p));
        case "kind" -> pod.setKind(text(p));
        case "metadata" -> {
          if (t == JsonToken.START_OBJECT) {
            pod.setMetadata(metadata(p));
          } else {
            p.skipChildren();
          }
        }
        case "spec" -> {
          if (t == JsonToken.START_OBJECT) {
            pod.setSpec(spec(p));
          } else {
            p.skipChildren();
          }
        }
        case "status" -> {
          if (t == JsonToken.START_OBJECT) {
            pod.setStatus(status(p));
          } else {
            p.skipChildren();
          }
        }
        case "code" -> {
          if (status != null && t == JsonToken.VALUE_NUMBER_INT) {
            status.code()[0] = p.getIntValue();
          } else {
            p.skipChildren();
          }
        }
        case "message" -> {
          if (status != null) {
            status.message()[0] = text(p);
          } else {
            p.skipChildren();
          }
        }
        default -> p.skipChildren();
      }
    }
    return pod;
  }

  private static ObjectMeta metadata(JsonParser p) throws IOException {
    ObjectMeta meta = new ObjectMeta();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      JsonToken t = p.nextToken();
      switch (field) {
        case "name" -> meta.setName(text(p));
        case "namespace" -> meta.setNamespace(text(p));
        case "uid" -> meta.setUid(text(p));
        case "resourceVersion" -> meta.setResourceVersion(text(p));
        case "deletionTimestamp" -> meta.setDeletionTimestamp(text(p));
        case "labels" -> {
          if (t == JsonToken.START_OBJECT) {
            // Keys and most values repeat from pod to pod (job, role, operator): one copy of each.
            Map<String, String> labels = new LinkedHashMap<>();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
              String key = p.currentName().intern();
              p.nextToken();
              String value = text(p);
              labels.put(key, value == null ? null : value.intern());
            }
            meta.setLabels(labels);
          } else {
            p.skipChildren();
          }
        }
        case "ownerReferences" -> {
          if (t == JsonToken.START_ARRAY) {
            List<OwnerReference> owners = new ArrayList<>(1);
            while (nextObject(p)) {
              OwnerReference o = owner(p);
              if ("Job".equals(o.getKind())) {
                owners.add(o); // a worker's StatefulSet says nothing the sidecar uses
              }
            }
            meta.setOwnerReferences(owners);
          } else {
            p.skipChildren();
          }
        }
        default -> p.skipChildren();
      }
    }
    return meta;
  }

  private static OwnerReference owner(JsonParser p) throws IOException {
    OwnerReference o = new OwnerReference();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      JsonToken t = p.nextToken();
      switch (field) {
        case "apiVersion" -> o.setApiVersion(text(p));
        case "kind" -> o.setKind(text(p));
        case "name" -> o.setName(text(p));
        case "uid" -> o.setUid(text(p));
        case "controller" -> o.setController(bool(p, t));
        default -> p.skipChildren();
      }
    }
    return o;
  }

  private static PodSpec spec(JsonParser p) throws IOException {
    PodSpec spec = new PodSpec();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      JsonToken t = p.nextToken();
      switch (field) {
        case "restartPolicy" -> spec.setRestartPolicy(text(p));
        case "schedulingGates" -> {
          // Their names: what the DGL wait removes jobc's from (WorkerStart).
          if (t == JsonToken.START_ARRAY) {
            List<PodSchedulingGate> gates = new ArrayList<>(1);
            while (nextObject(p)) {
              PodSchedulingGate g = new PodSchedulingGate();
              while (p.nextToken() == JsonToken.FIELD_NAME) {
                String f = p.currentName();
                p.nextToken();
                if ("name".equals(f)) {
                  g.setName(text(p));
                } else {
                  p.skipChildren();
                }
              }
              gates.add(g);
            }
            spec.setSchedulingGates(gates);
          } else {
            p.skipChildren();
          }
        }
        case "terminationGracePeriodSeconds" -> spec.setTerminationGracePeriodSeconds(number(p, t));
        default -> p.skipChildren();
      }
    }
    return spec;
  }

  private static PodStatus status(JsonParser p) throws IOException {
    PodStatus status = new PodStatus();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      JsonToken t = p.nextToken();
      switch (field) {
        case "phase" -> {
          String phase = text(p);
          status.setPhase(phase == null ? null : phase.intern());
        }
        case "podIP" -> status.setPodIP(text(p));
        case "conditions" -> {
          if (t == JsonToken.START_ARRAY) {
            List<PodCondition> conditions = new ArrayList<>(1);
            while (nextObject(p)) {
              PodCondition c = condition(p);
              if ("Ready".equals(c.getType())) {
                conditions.add(c);
              }
            }
            status.setConditions(conditions);
          } else {
            p.skipChildren();
          }
        }
        case "containerStatuses" -> status.setContainerStatuses(statuses(p, t));
        case "initContainerStatuses" -> status.setInitContainerStatuses(statuses(p, t));
        default -> p.skipChildren();
      }
    }
    return status;
  }

  private static PodCondition condition(JsonParser p) throws IOException {
    PodCondition c = new PodCondition();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      p.nextToken();
      switch (field) {
        case "type" -> {
          String type = text(p);
          c.setType(type == null ? null : type.intern());
        }
        case "status" -> {
          String s = text(p);
          c.setStatus(s == null ? null : s.intern());
        }
        default -> p.skipChildren();
      }
    }
    return c;
  }

  private static List<ContainerStatus> statuses(JsonParser p, JsonToken t) throws IOException {
    if (t != JsonToken.START_ARRAY) {
      p.skipChildren();
      return null;
    }
    List<ContainerStatus> out = new ArrayList<>(2);
    while (nextObject(p)) {
      ContainerStatus s = new ContainerStatus();
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken v = p.nextToken();
        switch (field) {
          case "name" -> s.setName(text(p));
          case "restartCount" -> {
            Long n = number(p, v);
            s.setRestartCount(n == null ? null : n.intValue());
          }
          case "ready" -> s.setReady(bool(p, v));
          case "started" -> s.setStarted(bool(p, v));
          case "state" -> {
            if (v == JsonToken.START_OBJECT) {
              s.setState(state(p));
            } else {
              p.skipChildren();
            }
          }
          default -> p.skipChildren();
        }
      }
      out.add(s);
    }
    return out;
  }

  private static ContainerState state(JsonParser p) throws IOException {
    ContainerState state = new ContainerState();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      JsonToken t = p.nextToken();
      if (t != JsonToken.START_OBJECT) {
        p.skipChildren();
        continue;
      }
      switch (field) {
        case "running" -> {
          p.skipChildren();
          state.setRunning(new ContainerStateRunning());
        }
        case "terminated" -> {
          ContainerStateTerminated term = new ContainerStateTerminated();
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            JsonToken v = p.nextToken();
            switch (f) {
              case "exitCode" -> {
                Long n = number(p, v);
                term.setExitCode(n == null ? null : n.intValue());
              }
              case "reason" -> term.setReason(text(p));
              default -> p.skipChildren();
            }
          }
          state.setTerminated(term);
        }
        case "waiting" -> {
          ContainerStateWaiting w = new ContainerStateWaiting();
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            p.nextToken();
            if ("reason".equals(f)) {
              w.setReason(text(p));
            } else {
              p.skipChildren();
            }
          }
          state.setWaiting(w);
        }
        default -> p.skipChildren();
      }
    }
    return state;
  }

  /** A string value, {@code null} for JSON null; any other value is skipped as {@code null}. */
  public static String text(JsonParser p) throws IOException {
    JsonToken t = p.currentToken();
    if (t == JsonToken.VALUE_STRING) {
      return p.getText();
    }
    p.skipChildren();
    return null;
  }

  public static Long number(JsonParser p, JsonToken t) throws IOException {
    if (t == JsonToken.VALUE_NUMBER_INT) {
      return p.getLongValue();
    }
    p.skipChildren();
    return null;
  }

  public static Boolean bool(JsonParser p, JsonToken t) throws IOException {
    if (t == JsonToken.VALUE_TRUE || t == JsonToken.VALUE_FALSE) {
      return t == JsonToken.VALUE_TRUE;
    }
    p.skipChildren();
    return null;
  }

  /**
   * Moves to the next object of the array the parser is in: true at its START_OBJECT, false at the
   * array's end; other elements (a null, say) are skipped.
   */
  private static boolean nextObject(JsonParser p) throws IOException {
    for (JsonToken t = p.nextToken(); t != null && t != JsonToken.END_ARRAY; t = p.nextToken()) {
      if (t == JsonToken.START_OBJECT) {
        return true;
      }
      p.skipChildren();
    }
    return false;
  }

  public static void expect(JsonToken actual, JsonToken expected) throws IOException {
    if (actual != expected) {
      throw new IOException("expected " + expected + " in the API's answer, found " + actual);
    }
  }
}
