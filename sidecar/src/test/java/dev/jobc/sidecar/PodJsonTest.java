package dev.jobc.sidecar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import dev.jobc.sidecar.client.PodJson;
import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodSchedulingGate;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatus;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Pods, pod lists and watch events as the API server writes them, read by {@link PodJson}: what is
 * kept of a realistic worker pod, and what is skipped.
 */
class PodJsonTest {
  /**
   * A worker pod as the API server returns it (a StatefulSet's, owned by the launcher's Job too),
   * with managed fields, annotations, containers, volumes and every kind of container state.
   */
  static final String WORKER =
      """
      {
        "kind": "Pod",
        "apiVersion": "v1",
        "metadata": {
          "name": "pi-worker-3",
          "generateName": "pi-worker-",
          "namespace": "team",
          "uid": "5e1b7c0a-7d1e-4c55-9d2a-0c6f7e3b9a10",
          "resourceVersion": "48213",
          "generation": 1,
          "creationTimestamp": "2024-05-01T10:00:00Z",
          "deletionTimestamp": "2024-05-01T11:00:30Z",
          "deletionGracePeriodSeconds": 30,
          "labels": {
            "jobc.dev/job": "pi",
            "jobc.dev/role": "worker",
            "apps.kubernetes.io/pod-index": "3",
            "controller-revision-hash": "pi-worker-6d4cf56db9"
          },
          "annotations": {
            "kubectl.kubernetes.io/restartedAt": "2024-05-01T09:59:00Z",
            "jobc.dev/config": "{\\"hosts\\": [\\"a\\", \\"b\\"], \\"slots\\": 4}"
          },
          "ownerReferences": [
            {"apiVersion": "apps/v1", "kind": "StatefulSet", "name": "pi-worker",
             "uid": "0b7c3a1e-statefulset", "controller": true, "blockOwnerDeletion": true},
            {"apiVersion": "batch/v1", "kind": "Job", "name": "pi-launcher",
             "uid": "9f2d4e6a-job", "controller": false}
          ],
          "finalizers": ["jobc.dev/cleanup"],
          "managedFields": [
            {"manager": "kube-controller-manager", "operation": "Update", "apiVersion": "v1",
             "time": "2024-05-01T10:00:00Z", "fieldsType": "FieldsV1",
             "fieldsV1": {"f:metadata": {"f:labels": {".": {}, "f:jobc.dev/job": {}}},
                          "f:spec": {"f:containers": {"k:{\\"name\\":\\"worker\\"}": {".": {}}}}}},
            {"manager": "kubelet", "operation": "Update", "apiVersion": "v1",
             "subresource": "status", "fieldsType": "FieldsV1", "fieldsV1": {"f:status": {}}}
          ]
        },
        "spec": {
          "volumes": [
            {"name": "hosts", "emptyDir": {"medium": "Memory", "sizeLimit": "1Mi"}},
            {"name": "kube-api-access", "projected": {"defaultMode": 420, "sources": [
              {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
              {"configMap": {"name": "kube-root-ca.crt", "items": [{"key": "ca.crt", "path": "ca.crt"}]}}
            ]}}
          ],
          "initContainers": [
            {"name": "fetch", "image": "busybox:1.36", "command": ["sh", "-c", "true"],
             "resources": {}, "imagePullPolicy": "IfNotPresent"}
          ],
          "containers": [
            {"name": "worker", "image": "registry.example/pi:1.0", "args": ["--rank", "3"],
             "ports": [{"name": "ssh", "containerPort": 2222, "protocol": "TCP"}],
             "env": [{"name": "RANK", "value": "3"},
                     {"name": "POD_IP", "valueFrom": {"fieldRef": {"apiVersion": "v1",
                      "fieldPath": "status.podIP"}}}],
             "resources": {"limits": {"cpu": "2", "memory": "4Gi"}, "requests": {"cpu": 1.5}},
             "volumeMounts": [{"name": "hosts", "mountPath": "/etc/jobc"},
                              {"name": "kube-api-access", "readOnly": true,
                               "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount"}]},
            {"name": "sidecar", "image": "registry.example/jobc-sidecar:0.1",
             "env": [{"name": "POD_NAME", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}],
             "securityContext": {"runAsNonRoot": true, "capabilities": {"drop": ["ALL"]}}},
            {"name": "exporter", "image": "registry.example/exporter:2", "stdin": false}
          ],
          "restartPolicy": "Always",
          "terminationGracePeriodSeconds": 45,
          "dnsPolicy": "ClusterFirst",
          "nodeName": "node-a",
          "hostname": "pi-worker-3",
          "subdomain": "pi",
          "affinity": null,
          "tolerations": [{"key": "node.kubernetes.io/not-ready", "operator": "Exists",
                           "effect": "NoExecute", "tolerationSeconds": 300}],
          "schedulingGates": [{"name": "jobc.dev/dgl"}, {"name": "example.com/quota"}],
          "priority": 0,
          "enableServiceLinks": true
        },
        "status": {
          "phase": "Running",
          "conditions": [
            {"type": "Initialized", "status": "True", "lastProbeTime": null,
             "lastTransitionTime": "2024-05-01T10:00:05Z"},
            {"type": "Ready", "status": "True", "lastProbeTime": null,
             "lastTransitionTime": "2024-05-01T10:00:20Z"},
            {"type": "PodScheduled", "status": "True", "lastProbeTime": null,
             "lastTransitionTime": "2024-05-01T10:00:01Z"}
          ],
          "hostIP": "192.168.1.10",
          "hostIPs": [{"ip": "192.168.1.10"}],
          "podIP": "10.0.0.3",
          "podIPs": [{"ip": "10.0.0.3"}, {"ip": "fd00::3"}],
          "startTime": "2024-05-01T10:00:01Z",
          "initContainerStatuses": [
            {"name": "fetch", "state": {"terminated": {"exitCode": 0, "reason": "Completed",
              "startedAt": "2024-05-01T10:00:02Z", "finishedAt": "2024-05-01T10:00:04Z",
              "containerID": "containerd://aa"}},
             "lastState": {}, "ready": true, "restartCount": 0, "image": "busybox:1.36",
             "imageID": "docker.io/library/busybox@sha256:01", "containerID": "containerd://aa",
             "started": false}
          ],
          "containerStatuses": [
            {"name": "worker", "state": {"running": {"startedAt": "2024-05-01T10:00:10Z"}},
             "lastState": {"terminated": {"exitCode": 137, "reason": "OOMKilled"}},
             "ready": true, "restartCount": 2, "image": "registry.example/pi:1.0",
             "imageID": "registry.example/pi@sha256:02", "containerID": "containerd://bb",
             "started": true, "volumeMounts": [{"name": "hosts", "mountPath": "/etc/jobc"}]},
            {"name": "sidecar", "state": {"waiting": {"reason": "CrashLoopBackOff",
              "message": "back-off 5m0s restarting failed container"}},
             "lastState": {"terminated": {"exitCode": 1, "reason": "Error"}},
             "ready": false, "restartCount": 5, "image": "registry.example/jobc-sidecar:0.1",
             "imageID": "", "started": false},
            {"name": "exporter", "state": {"terminated": {"exitCode": 3, "reason": "Error",
              "signal": 0, "message": "exporter: no target", "finishedAt": "2024-05-01T10:30:00Z"}},
             "lastState": {}, "ready": false, "restartCount": 0,
             "image": "registry.example/exporter:2", "started": false}
          ],
          "qosClass": "Burstable"
        }
      }
      """;

  /**
   * Of a realistic worker, the fields the sidecar reads (identity, labels, the Job owner, restart
   * policy, grace period, scheduling gates, phase, IP, Ready, container states) and nothing else.
   */
  @Test
  void podKeepsTheFieldsTheSidecarReadsOnly() throws IOException {
    Pod pod = PodJson.pod(bytes(WORKER));

    ObjectMeta meta = pod.getMetadata();
    assertThat(meta.getName()).isEqualTo("pi-worker-3");
    assertThat(meta.getNamespace()).isEqualTo("team");
    assertThat(meta.getUid()).isEqualTo("5e1b7c0a-7d1e-4c55-9d2a-0c6f7e3b9a10");
    assertThat(meta.getResourceVersion()).isEqualTo("48213");
    assertThat(meta.getDeletionTimestamp()).isEqualTo("2024-05-01T11:00:30Z");
    assertThat(meta.getLabels())
        .containsExactly(
            entry("jobc.dev/job", "pi"),
            entry("jobc.dev/role", "worker"),
            entry("apps.kubernetes.io/pod-index", "3"),
            entry("controller-revision-hash", "pi-worker-6d4cf56db9"));
    assertThat(meta.getOwnerReferences()).hasSize(1);
    OwnerReference job = meta.getOwnerReferences().get(0);
    assertThat(job.getKind()).isEqualTo("Job");
    assertThat(job.getApiVersion()).isEqualTo("batch/v1");
    assertThat(job.getName()).isEqualTo("pi-launcher");
    assertThat(job.getUid()).isEqualTo("9f2d4e6a-job");
    assertThat(job.getController()).isFalse();
    assertThat(job.getBlockOwnerDeletion()).isNull();
    // Dropped:
    assertThat(meta.getAnnotations()).isEmpty();
    assertThat(meta.getManagedFields()).isEmpty();
    assertThat(meta.getFinalizers()).isEmpty();
    assertThat(meta.getGenerateName()).isNull();
    assertThat(meta.getGeneration()).isNull();
    assertThat(meta.getCreationTimestamp()).isNull();
    assertThat(meta.getDeletionGracePeriodSeconds()).isNull();

    PodSpec spec = pod.getSpec();
    assertThat(spec.getRestartPolicy()).isEqualTo("Always");
    assertThat(spec.getTerminationGracePeriodSeconds()).isEqualTo(45L);
    assertThat(spec.getSchedulingGates())
        .extracting(PodSchedulingGate::getName)
        .containsExactly("jobc.dev/dgl", "example.com/quota");
    assertThat(spec.getContainers()).isEmpty();
    assertThat(spec.getInitContainers()).isEmpty();
    assertThat(spec.getVolumes()).isEmpty();
    assertThat(spec.getTolerations()).isEmpty();
    assertThat(spec.getNodeName()).isNull();
    assertThat(spec.getHostname()).isNull();
    assertThat(spec.getDnsPolicy()).isNull();

    PodStatus status = pod.getStatus();
    assertThat(status.getPhase()).isEqualTo("Running");
    assertThat(status.getPodIP()).isEqualTo("10.0.0.3");
    assertThat(status.getConditions()).hasSize(1);
    PodCondition ready = status.getConditions().get(0);
    assertThat(ready.getType()).isEqualTo("Ready");
    assertThat(ready.getStatus()).isEqualTo("True");
    assertThat(ready.getLastTransitionTime()).isNull();
    assertThat(status.getHostIP()).isNull();
    assertThat(status.getHostIPs()).isEmpty();
    assertThat(status.getPodIPs()).isEmpty();
    assertThat(status.getStartTime()).isNull();
    assertThat(status.getQosClass()).isNull();

    List<ContainerStatus> containers = status.getContainerStatuses();
    assertThat(containers)
        .extracting(ContainerStatus::getName)
        .containsExactly("worker", "sidecar", "exporter");
    ContainerStatus worker = containers.get(0);
    assertThat(worker.getRestartCount()).isEqualTo(2);
    assertThat(worker.getReady()).isTrue();
    assertThat(worker.getStarted()).isTrue();
    assertThat(worker.getState().getRunning()).isNotNull();
    assertThat(worker.getState().getRunning().getStartedAt()).isNull();
    assertThat(worker.getState().getTerminated()).as("not lastState's").isNull();
    assertThat(worker.getState().getWaiting()).isNull();
    assertThat(worker.getLastState()).isNull();
    assertThat(worker.getImage()).isNull();
    assertThat(worker.getImageID()).isNull();
    assertThat(worker.getContainerID()).isNull();
    assertThat(worker.getVolumeMounts()).isEmpty();

    ContainerStatus sidecar = containers.get(1);
    assertThat(sidecar.getRestartCount()).isEqualTo(5);
    assertThat(sidecar.getReady()).isFalse();
    assertThat(sidecar.getStarted()).isFalse();
    assertThat(sidecar.getState().getWaiting().getReason()).isEqualTo("CrashLoopBackOff");
    assertThat(sidecar.getState().getWaiting().getMessage()).isNull();
    assertThat(sidecar.getState().getRunning()).isNull();
    assertThat(sidecar.getState().getTerminated()).isNull();

    ContainerState exporter = containers.get(2).getState();
    assertThat(exporter.getTerminated().getExitCode()).isEqualTo(3);
    assertThat(exporter.getTerminated().getReason()).isEqualTo("Error");
    assertThat(exporter.getTerminated().getMessage()).isNull();
    assertThat(exporter.getTerminated().getSignal()).isNull();
    assertThat(exporter.getTerminated().getFinishedAt()).isNull();

    assertThat(status.getInitContainerStatuses()).hasSize(1);
    ContainerStatus fetch = status.getInitContainerStatuses().get(0);
    assertThat(fetch.getName()).isEqualTo("fetch");
    assertThat(fetch.getRestartCount()).isZero();
    assertThat(fetch.getReady()).isTrue();
    assertThat(fetch.getStarted()).isFalse();
    assertThat(fetch.getState().getTerminated().getExitCode()).isZero();
    assertThat(fetch.getState().getTerminated().getReason()).isEqualTo("Completed");
    assertThat(fetch.getState().getTerminated().getContainerID()).isNull();
  }

  /** A list page: items, metadata.resourceVersion and continue (apimachinery ListMeta). */
  @Test
  void pageReadsItemsResourceVersionAndContinue() throws IOException {
    String json =
        """
        {"kind": "PodList", "apiVersion": "v1",
         "metadata": {"resourceVersion": "48300", "continue": "eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ",
                      "remainingItemCount": 17},
         "items": [%s, {"metadata": {"name": "pi-worker-4", "resourceVersion": "48299"}}]}
        """
            .formatted(WORKER);
    PodJson.Page<Pod> page = PodJson.page(bytes(json), PodJson::pod);
    assertThat(page.resourceVersion()).isEqualTo("48300");
    assertThat(page.continueToken()).isEqualTo("eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ");
    assertThat(page.items())
        .extracting(p -> p.getMetadata().getName())
        .containsExactly("pi-worker-3", "pi-worker-4");
    assertThat(page.items().get(0).getStatus().getPodIP()).isEqualTo("10.0.0.3");
    assertThat(page.items().get(1).getMetadata().getResourceVersion()).isEqualTo("48299");
  }

  /** The last page's continue is empty (or absent): no next page. Items may come first. */
  @Test
  void lastPageHasNoContinueToken() throws IOException {
    PodJson.Page<Pod> last =
        PodJson.page(
            bytes(
                """
                {"items": [{"metadata": {"name": "a"}}],
                 "metadata": {"resourceVersion": "7", "continue": ""}, "kind": "PodList"}
                """),
            PodJson::pod);
    assertThat(last.continueToken()).isNull();
    assertThat(last.resourceVersion()).isEqualTo("7");
    assertThat(last.items()).extracting(p -> p.getMetadata().getName()).containsExactly("a");

    PodJson.Page<Pod> empty =
        PodJson.page(
            bytes(
                "{\"kind\": \"PodList\", \"metadata\": {\"resourceVersion\": \"8\"}, \"items\": []}"),
            PodJson::pod);
    assertThat(empty.items()).isEmpty();
    assertThat(empty.continueToken()).isNull();
    assertThat(empty.resourceVersion()).isEqualTo("8");

    PodJson.Page<Pod> nullItems =
        PodJson.page(bytes("{\"metadata\": {}, \"items\": null}"), PodJson::pod);
    assertThat(nullItems.items()).isEmpty();
    assertThat(nullItems.resourceVersion()).isNull();
  }

  /** ADDED, MODIFIED and DELETED carry the object, read by the given reader. */
  @Test
  void eventsCarryTheirObject() throws IOException {
    for (String type : List.of("ADDED", "MODIFIED", "DELETED")) {
      PodJson.Event<Pod> e =
          PodJson.event(
              bytes("{\"type\": \"" + type + "\", \"object\": " + WORKER + "}"), PodJson::pod);
      assertThat(e.type()).isEqualTo(type);
      assertThat(e.object().getMetadata().getName()).isEqualTo("pi-worker-3");
      assertThat(e.object().getStatus().getConditions()).hasSize(1);
      assertThat(e.code()).isZero();
      assertThat(e.message()).isNull();
    }
  }

  /** A BOOKMARK's object is only a resource version (and an annotation; watch.go). */
  @Test
  void bookmarkCarriesItsResourceVersion() throws IOException {
    PodJson.Event<Pod> e =
        PodJson.event(
            bytes(
                """
                {"type": "BOOKMARK", "object": {"kind": "Pod", "apiVersion": "v1",
                  "metadata": {"resourceVersion": "50001", "creationTimestamp": null,
                    "annotations": {"k8s.io/initial-events-end": "true"}},
                  "spec": {"containers": null}, "status": {}}}
                """),
            PodJson::pod);
    assertThat(e.type()).isEqualTo("BOOKMARK");
    assertThat(e.object().getMetadata().getResourceVersion()).isEqualTo("50001");
    assertThat(e.object().getMetadata().getName()).isNull();
  }

  /** An ERROR's object is a Status: its code and message are the event's, no object is read. */
  @Test
  void errorEventGivesTheStatusCodeAndMessage() throws IOException {
    String status =
        """
        {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
         "message": "too old resource version: 40000 (48213)", "reason": "Expired",
         "details": {"causes": [{"message": "x"}], "retryAfterSeconds": 1}, "code": 410}
        """;
    PodJson.Reader<Pod> noReader =
        p -> {
          throw new AssertionError("an ERROR's Status is read as a Status, not by the reader");
        };
    for (String json :
        List.of(
            "{\"type\": \"ERROR\", \"object\": " + status + "}",
            "{\"object\": " + status + ", \"type\": \"ERROR\"}")) {
      PodJson.Event<Pod> e = PodJson.event(bytes(json), noReader);
      assertThat(e.type()).as(json).isEqualTo("ERROR");
      assertThat(e.code()).as(json).isEqualTo(410);
      assertThat(e.message()).as(json).isEqualTo("too old resource version: 40000 (48213)");
      assertThat(e.object()).as(json).isNull();
    }
  }

  /** An event without a type, or no JSON object at all, is an IOException (not a null event). */
  @Test
  void malformedEventsAreIoExceptions() {
    for (String json :
        List.of(
            "{\"object\": {\"metadata\": {\"name\": \"a\"}}}",
            "{\"type\": null, \"object\": {}}",
            "{\"type\": 3, \"object\": {}}",
            "[{\"type\": \"ADDED\", \"object\": {}}]",
            "\"ADDED\"",
            "")) {
      assertThatThrownBy(() -> PodJson.event(bytes(json), PodJson::pod))
          .as(json)
          .isInstanceOf(IOException.class);
    }
    assertThatThrownBy(() -> PodJson.pod(bytes("[]"))).isInstanceOf(IOException.class);
    assertThatThrownBy(() -> PodJson.page(bytes("null"), PodJson::pod))
        .isInstanceOf(IOException.class);
  }

  /**
   * Unknown fields, and known ones of an unexpected JSON type (nested objects and arrays, nulls,
   * numbers for strings, strings for numbers), are skipped whole: the fields after them still read.
   */
  @Test
  void unknownAndMistypedFieldsAreSkipped() throws IOException {
    Pod pod =
        PodJson.pod(
            bytes(
                """
                {"extra": {"nested": [1, {"a": null, "b": [[], {}]}, [true, 2.5e3]]},
                 "kind": ["Pod"], "apiVersion": 1,
                 "metadata": {
                   "name": {"first": "pi", "rest": ["worker", 3]},
                   "uid": 12345,
                   "deletionTimestamp": null,
                   "resourceVersion": [1, 2],
                   "ownerReferences": {"kind": "Job"},
                   "extra": [[[{"deep": {"deeper": [null]}}]]],
                   "namespace": "team",
                   "labels": {"n": 5, "o": {"x": ["y"]}, "null": null, "s": "kept"}
                 },
                 "spec": {
                   "terminationGracePeriodSeconds": "30",
                   "schedulingGates": null,
                   "containers": [{"name": "worker", "env": [{"name": "A", "value": null}]}],
                   "restartPolicy": "Never"
                 },
                 "status": {
                   "conditions": {"type": "Ready", "status": "True"},
                   "containerStatuses": "none",
                   "podIP": 10,
                   "initContainerStatuses": [
                     {"name": "init", "restartCount": "3", "ready": "yes", "started": null,
                      "extra": {"a": [1, {"b": 2}]},
                      "state": {"running": null, "waiting": [],
                                "terminated": {"exitCode": "1", "reason": 5, "x": {}}}}
                   ],
                   "phase": "Pending"
                 },
                 "last": [{"a": 1}]}
                """));
    assertThat(pod.getKind()).isNull();
    assertThat(pod.getApiVersion()).isNull();
    ObjectMeta meta = pod.getMetadata();
    assertThat(meta.getName()).isNull();
    assertThat(meta.getUid()).isNull();
    assertThat(meta.getDeletionTimestamp()).isNull();
    assertThat(meta.getResourceVersion()).isNull();
    assertThat(meta.getOwnerReferences()).isEmpty();
    assertThat(meta.getNamespace()).isEqualTo("team");
    assertThat(meta.getLabels())
        .containsExactly(
            entry("n", null), entry("o", null), entry("null", null), entry("s", "kept"));
    assertThat(pod.getSpec().getTerminationGracePeriodSeconds()).isNull();
    assertThat(pod.getSpec().getSchedulingGates()).isEmpty();
    assertThat(pod.getSpec().getRestartPolicy()).isEqualTo("Never");
    PodStatus status = pod.getStatus();
    assertThat(status.getConditions()).isEmpty();
    assertThat(status.getContainerStatuses()).isNullOrEmpty();
    assertThat(status.getPodIP()).isNull();
    assertThat(status.getPhase()).isEqualTo("Pending");
    ContainerStatus init = status.getInitContainerStatuses().get(0);
    assertThat(init.getName()).isEqualTo("init");
    assertThat(init.getRestartCount()).isNull();
    assertThat(init.getReady()).isNull();
    assertThat(init.getStarted()).isNull();
    assertThat(init.getState().getRunning()).isNull();
    assertThat(init.getState().getWaiting()).isNull();
    assertThat(init.getState().getTerminated().getExitCode()).isNull();
    assertThat(init.getState().getTerminated().getReason()).isNull();
  }

  /**
   * A field named like a Status' own ({@code code}, {@code message}) is skipped whole in a pod too,
   * whatever its value: only an ERROR event's Status reads them.
   */
  @Test
  void statusFieldNamesInAPodAreSkippedWhole() throws IOException {
    Pod pod =
        PodJson.pod(
            bytes(
                """
                {"code": {"metadata": {"name": "not-this"}, "n": [1, 2]},
                 "message": {"status": {"phase": "Failed"}},
                 "metadata": {"name": "pi-worker-0"},
                 "status": {"phase": "Running"}}
                """));
    assertThat(pod.getMetadata()).isNotNull();
    assertThat(pod.getMetadata().getName()).isEqualTo("pi-worker-0");
    assertThat(pod.getStatus().getPhase()).isEqualTo("Running");

    PodJson.Event<Pod> e =
        PodJson.event(
            bytes(
                """
                {"type": "ADDED", "object": {"code": [410], "metadata": {"name": "pi-worker-1"}}}
                """),
            PodJson::pod);
    assertThat(e.object().getMetadata().getName()).isEqualTo("pi-worker-1");
    assertThat(e.code()).isZero();
  }

  private static byte[] bytes(String json) {
    return json.getBytes(StandardCharsets.UTF_8);
  }
}
