package dev.jobc.validate;

import static dev.jobc.diag.Finding.error;

import dev.jobc.diag.Code;
import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Finding;
import dev.jobc.diag.Quoting;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import java.util.List;
import java.util.Set;

/**
 * The volume names, init container names and main-container mount paths jobc adds to a user's pod
 * template. A template that already uses one would be silently replaced or rejected by the API
 * server (the operators appended theirs blindly), so each clash is reported where the user wrote
 * it.
 */
public record ReservedNames(Set<String> volumes, Set<String> initContainers, Set<String> mounts) {

  public void check(PodSpec pod, FieldPath podSpec, List<Finding> out) {
    if (pod.getVolumes() != null) {
      for (int i = 0; i < pod.getVolumes().size(); i++) {
        String name = pod.getVolumes().get(i).getName();
        if (name != null && volumes.contains(name)) { // Set.of rejects null
          out.add(
              error(
                  Code.DUPLICATE,
                  podSpec.child("volumes").index(i).child("name"),
                  "Duplicate value: "
                      + Quoting.quote(name)
                      + ": this volume name is reserved for jobc"));
        }
      }
    }
    if (pod.getInitContainers() != null) {
      for (int i = 0; i < pod.getInitContainers().size(); i++) {
        String name = pod.getInitContainers().get(i).getName();
        if (name != null && initContainers.contains(name)) {
          out.add(
              error(
                  Code.DUPLICATE,
                  podSpec.child("initContainers").index(i).child("name"),
                  "Duplicate value: "
                      + Quoting.quote(name)
                      + ": this init container name is reserved for jobc"));
        }
      }
    }
    Container main = pod.getContainers().get(0);
    if (main.getVolumeMounts() != null) {
      for (int i = 0; i < main.getVolumeMounts().size(); i++) {
        String path = main.getVolumeMounts().get(i).getMountPath();
        if (path != null && mounts.contains(path)) {
          out.add(
              error(
                  Code.DUPLICATE,
                  podSpec
                      .child("containers")
                      .index(0)
                      .child("volumeMounts")
                      .index(i)
                      .child("mountPath"),
                  "Duplicate value: " + Quoting.quote(path) + ": jobc mounts its own files here"));
        }
      }
    }
  }
}
