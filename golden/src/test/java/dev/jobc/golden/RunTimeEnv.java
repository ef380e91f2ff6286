package dev.jobc.golden;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a container's process finds in its environment, from the {@code env} list of its template:
 * each variable in order, a literal value with the kubelet's {@code $(VAR)} expansion of earlier
 * variables applied ({@code kubernetes pkg/kubelet/kubelet_pods.go makeEnvironmentVariables},
 * {@code third_party/forked/golang/expansion}), a value from elsewhere as its source; and in a pod
 * of an Indexed Job the {@code JOB_COMPLETION_INDEX} the Job controller adds ({@code
 * pkg/controller/job/indexed_job_utils.go addCompletionIndexEnvVariable}) unless the container
 * names one.
 */
final class RunTimeEnv {
  static final String COMPLETION_INDEX = "JOB_COMPLETION_INDEX";

  private RunTimeEnv() {}

  /** {@code name=value} per variable in order (a later duplicate replaces the earlier value). */
  static List<String> of(JsonNode env, boolean indexed) {
    Map<String, String> values = new LinkedHashMap<>();
    for (JsonNode e : env) {
      String name = e.path("name").asText();
      String value =
          e.has("valueFrom")
              ? "<from " + e.get("valueFrom") + ">"
              : expand(e.path("value").asText(""), values);
      values.put(name, value);
    }
    if (indexed && !values.containsKey(COMPLETION_INDEX)) {
      values.put(
          COMPLETION_INDEX,
          "<from metadata.annotations['batch.kubernetes.io/job-completion-index']>");
    }
    List<String> out = new ArrayList<>(values.size());
    values.forEach((k, v) -> out.add(k + "=" + v));
    return out;
  }

  /** {@code $(NAME)} of a defined variable becomes its value; {@code $$} is one {@code $}. */
  static String expand(String value, Map<String, String> defined) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c != '$' || i + 1 >= value.length()) {
        out.append(c);
        continue;
      }
      char next = value.charAt(i + 1);
      if (next == '$') {
        out.append('$');
        i++;
      } else if (next == '(') {
        int end = value.indexOf(')', i + 2);
        String ref = end < 0 ? null : value.substring(i + 2, end);
        if (ref != null && defined.containsKey(ref)) {
          out.append(defined.get(ref));
          i = end;
        } else {
          out.append(c);
        }
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
