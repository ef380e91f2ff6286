package dev.jobc.sidecar.client;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.api.model.batch.v1.JobSpec;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatus;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicy;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyOnExitCodesRequirement;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyOnPodConditionsPattern;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyRule;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Jobs read from the API's JSON with Jackson's streaming parser into fabric8's model, with the
 * fields the sidecar reads ({@code JobOutcome}, {@code ReplicaStates}, {@code JobEvents}):
 * metadata's name, namespace, uid, resource version, labels and annotations; {@code spec.suspend},
 * {@code backoffLimit}, {@code completions}, {@code parallelism}, {@code podFailurePolicy} and the
 * template's {@code restartPolicy}; {@code status}' conditions and counts. A job has a few Jobs, so
 * they are read through a small tree of maps and lists first.
 */
public final class JobJson {
  private JobJson() {}

  /** A Job's JSON (a GET's answer). */
  public static Job job(byte[] json) throws IOException {
    try (JsonParser p = PodJson.parser(json)) {
      PodJson.expect(p.nextToken(), JsonToken.START_OBJECT);
      return job(p);
    }
  }

  /** The Job the parser is at. */
  public static Job job(JsonParser p) throws IOException {
    return of(object(p));
  }

  public static Job of(Map<String, Object> tree) {
    Job job = new Job();
    job.setApiVersion(string(tree, "apiVersion"));
    job.setKind(string(tree, "kind"));
    Map<String, Object> m = map(tree, "metadata");
    if (m != null) {
      ObjectMeta meta = new ObjectMeta();
      meta.setName(string(m, "name"));
      meta.setNamespace(string(m, "namespace"));
      meta.setUid(string(m, "uid"));
      meta.setResourceVersion(string(m, "resourceVersion"));
      meta.setDeletionTimestamp(string(m, "deletionTimestamp"));
      meta.setLabels(strings(map(m, "labels")));
      meta.setAnnotations(strings(map(m, "annotations")));
      job.setMetadata(meta);
    }
    Map<String, Object> s = map(tree, "spec");
    if (s != null) {
      JobSpec spec = new JobSpec();
      spec.setSuspend(bool(s, "suspend"));
      spec.setBackoffLimit(integer(s, "backoffLimit"));
      spec.setCompletions(integer(s, "completions"));
      spec.setParallelism(integer(s, "parallelism"));
      spec.setPodFailurePolicy(failurePolicy(map(s, "podFailurePolicy")));
      Map<String, Object> template = map(s, "template");
      Map<String, Object> podSpec = template == null ? null : map(template, "spec");
      if (podSpec != null) {
        PodSpec ps = new PodSpec();
        ps.setRestartPolicy(string(podSpec, "restartPolicy"));
        PodTemplateSpec t = new PodTemplateSpec();
        t.setSpec(ps);
        spec.setTemplate(t);
      }
      job.setSpec(spec);
    }
    Map<String, Object> st = map(tree, "status");
    if (st != null) {
      JobStatus status = new JobStatus();
      status.setActive(integer(st, "active"));
      status.setSucceeded(integer(st, "succeeded"));
      status.setFailed(integer(st, "failed"));
      status.setReady(integer(st, "ready"));
      List<JobCondition> conditions = new ArrayList<>();
      for (Map<String, Object> c : maps(st, "conditions")) {
        JobCondition condition = new JobCondition();
        condition.setType(string(c, "type"));
        condition.setStatus(string(c, "status"));
        condition.setReason(string(c, "reason"));
        condition.setMessage(string(c, "message"));
        conditions.add(condition);
      }
      status.setConditions(conditions);
      job.setStatus(status);
    }
    return job;
  }

  private static PodFailurePolicy failurePolicy(Map<String, Object> policy) {
    if (policy == null) {
      return null;
    }
    List<PodFailurePolicyRule> rules = new ArrayList<>();
    for (Map<String, Object> r : maps(policy, "rules")) {
      PodFailurePolicyRule rule = new PodFailurePolicyRule();
      rule.setAction(string(r, "action"));
      Map<String, Object> on = map(r, "onExitCodes");
      if (on != null) {
        PodFailurePolicyOnExitCodesRequirement codes = new PodFailurePolicyOnExitCodesRequirement();
        codes.setContainerName(string(on, "containerName"));
        codes.setOperator(string(on, "operator"));
        List<Integer> values = new ArrayList<>();
        if (on.get("values") instanceof List<?> l) {
          for (Object v : l) {
            if (v instanceof Long n) {
              values.add(n.intValue());
            }
          }
        }
        codes.setValues(values);
        rule.setOnExitCodes(codes);
      }
      List<PodFailurePolicyOnPodConditionsPattern> patterns = new ArrayList<>();
      for (Map<String, Object> c : maps(r, "onPodConditions")) {
        PodFailurePolicyOnPodConditionsPattern pattern =
            new PodFailurePolicyOnPodConditionsPattern();
        pattern.setType(string(c, "type"));
        pattern.setStatus(string(c, "status"));
        patterns.add(pattern);
      }
      rule.setOnPodConditions(patterns);
      rules.add(rule);
    }
    PodFailurePolicy out = new PodFailurePolicy();
    out.setRules(rules);
    return out;
  }

  /** A JSON object as a map of maps, lists, strings, longs, doubles, booleans and nulls. */
  public static Map<String, Object> object(JsonParser p) throws IOException {
    Map<String, Object> out = new LinkedHashMap<>();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      out.put(field, value(p, p.nextToken()));
    }
    return out;
  }

  private static Object value(JsonParser p, JsonToken t) throws IOException {
    return switch (t) {
      case START_OBJECT -> object(p);
      case START_ARRAY -> {
        List<Object> list = new ArrayList<>();
        for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
          list.add(value(p, e));
        }
        yield list;
      }
      case VALUE_STRING -> p.getText();
      case VALUE_NUMBER_INT -> p.getLongValue();
      case VALUE_NUMBER_FLOAT -> p.getDoubleValue();
      case VALUE_TRUE -> Boolean.TRUE;
      case VALUE_FALSE -> Boolean.FALSE;
      case VALUE_NULL -> null;
      default -> throw new IOException("unexpected " + t + " in the API's answer");
    };
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Map<String, Object> in, String key) {
    return in.get(key) instanceof Map<?, ?> m ? (Map<String, Object>) m : null;
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> maps(Map<String, Object> in, String key) {
    List<Map<String, Object>> out = new ArrayList<>();
    if (in.get(key) instanceof List<?> l) {
      for (Object o : l) {
        if (o instanceof Map<?, ?> m) {
          out.add((Map<String, Object>) m);
        }
      }
    }
    return out;
  }

  private static Map<String, String> strings(Map<String, Object> in) {
    Map<String, String> out = new LinkedHashMap<>();
    if (in != null) {
      in.forEach((k, v) -> out.put(k, v instanceof String s ? s : null));
    }
    return out;
  }

  private static String string(Map<String, Object> in, String key) {
    return in.get(key) instanceof String s ? s : null;
  }

  private static Integer integer(Map<String, Object> in, String key) {
    return in.get(key) instanceof Long n ? Integer.valueOf(n.intValue()) : null;
  }

  private static Boolean bool(Map<String, Object> in, String key) {
    return in.get(key) instanceof Boolean b ? b : null;
  }
}
