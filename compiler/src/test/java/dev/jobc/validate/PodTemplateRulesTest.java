package dev.jobc.validate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.jobc.bind.ObjectTrees;
import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Finding;
import dev.jobc.k8s.ApiLimits;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Each rule of {@link PodTemplateRules} on a template of its own, at the field it names: the pod
 * templates of the mpijob-error-pod-template-* golden cases (which pin the whole messages, with
 * positions), and the edges next to them, which pass. Messages that {@link NameFormats} and {@code
 * Dns} word are compared up to their value.
 */
class PodTemplateRulesTest {
  private static final YAMLMapper YAML = new YAMLMapper();
  private static final String CONTAINER = "spec:\n  containers:\n  - name: c\n    image: i\n";

  /** The findings for {@code yaml} (a pod template), as "path: message", sorted. */
  private static List<String> check(String yaml, String... addedVolumes) {
    PodTemplateSpec template;
    try {
      template = ObjectTrees.bind(YAML.readTree(yaml), PodTemplateSpec.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<Finding> out = new ArrayList<>();
    PodTemplateRules.check(template, FieldPath.of("template"), Set.of(addedVolumes), out);
    return out.stream().map(f -> f.path() + ": " + f.message()).sorted().toList();
  }

  /** Asserts that the sorted findings start with the sorted {@code expected}, one for one. */
  private static void assertFindings(List<String> findings, String... expected) {
    List<String> prefixes = Stream.of(expected).sorted().toList();
    assertThat(findings).hasSize(prefixes.size());
    for (int i = 0; i < prefixes.size(); i++) {
      assertThat(findings.get(i)).as("finding %d of %s", i, findings).startsWith(prefixes.get(i));
    }
  }

  /** A template of one container {@code c}, with {@code lines} (indented 4) added to it. */
  private static String container(String lines) {
    return CONTAINER + lines.indent(4);
  }

  @Test
  void aPlainTemplatePasses() {
    assertThat(check(CONTAINER)).isEmpty();
    assertThat(check("spec: {}\n")).isEmpty();
    assertThat(check("metadata: {}\n")).isEmpty();
  }

  @Test
  void labelsAndAnnotations() {
    assertFindings(
        check(
            """
            metadata:
              labels:
                app: launcher
                "bad key": x
                example.com/role: "not a value"
                empty: ""
              annotations:
                example.com/ok: fine
                two/slashes/here: x
                Example.COM/Upper: keys are checked in lower case
            """
                + CONTAINER),
        "template.metadata.annotations[two/slashes/here]: Invalid value: \"two/slashes/here\": ",
        "template.metadata.labels[bad key]: Invalid value: \"bad key\": ",
        "template.metadata.labels[example.com/role]: Invalid value: \"not a value\": ");
  }

  @Test
  void annotationsMayHold256KiBInAll() {
    // Keys and values count, in UTF-8 bytes: "k" and 262,143 bytes is the most.
    String most = "k: " + "a".repeat(PodTemplateRules.ANNOTATIONS_MAX_BYTES - 1);
    assertThat(check("metadata:\n  annotations:\n    " + most + "\n")).isEmpty();
    assertThat(check("metadata:\n  annotations:\n    " + most + "\n    x: \"\"\n"))
        .containsExactly(
            "template.metadata.annotations: Too long: may not be more than 262144 bytes");
    String twoByteChars = "k: " + "é".repeat(PodTemplateRules.ANNOTATIONS_MAX_BYTES / 2);
    assertThat(check("metadata:\n  annotations:\n    " + twoByteChars + "\n"))
        .containsExactly(
            "template.metadata.annotations: Too long: may not be more than 262144 bytes");
    assertThat(check("metadata:\n  annotations:\n    k: null\n")).isEmpty();
  }

  @Test
  void podSpecFields() {
    assertFindings(
        check(
            """
            spec:
              dnsPolicy: Cluster
              nodeSelector:
                kubernetes.io/os: linux
                "bad key": x
              serviceAccountName: Launcher_SA
              activeDeadlineSeconds: 0
              hostname: Host.Name
              subdomain: sub_domain
              priorityClassName: High
              containers:
              - name: c
                image: i
            """),
        "template.spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647,"
            + " inclusive",
        "template.spec.dnsPolicy: Unsupported value: \"Cluster\": ",
        "template.spec.hostname: Invalid value: \"Host.Name\": ",
        "template.spec.nodeSelector[bad key]: Invalid value: \"bad key\": ",
        "template.spec.priorityClassName: Invalid value: \"High\": ",
        "template.spec.serviceAccountName: Invalid value: \"Launcher_SA\": ",
        "template.spec.subdomain: Invalid value: \"sub_domain\": ");
    String good =
        """
        spec:
          dnsPolicy: ClusterFirst
          serviceAccountName: launcher.sa
          hostname: host
          subdomain: sub
          priorityClassName: high
          containers:
          - name: c
            image: i
        """;
    assertThat(check(good)).isEmpty();
    assertThat(check(good + "  activeDeadlineSeconds: 1\n")).isEmpty();
    assertThat(check(good + "  activeDeadlineSeconds: 2147483647\n")).isEmpty();
    assertThat(check(good + "  activeDeadlineSeconds: 2147483648\n"))
        .containsExactly(
            "template.spec.activeDeadlineSeconds: Invalid value: 2147483648: must be between 1"
                + " and 2147483647, inclusive");
    assertThat(check(good + "  hostname: \"\"\n  subdomain: \"\"\n  priorityClassName: \"\"\n"))
        .isEmpty();
  }

  @Test
  void containerNamesAndImages() {
    assertFindings(
        check(
            """
            spec:
              containers:
              - name: ""
                image: i
              - name: A
                image: i
              - name: twin
                image: i
              - name: twin
                image: i
              - name: no-image
              - name: empty-image
                image: ""
              initContainers:
              - name: twin
                image: i
              - name: ""
                image: i
              - name: init
                image: i
            """),
        "template.spec.containers[0].name: Required value",
        "template.spec.containers[1].name: Invalid value: \"A\": ",
        "template.spec.containers[3].name: Duplicate value: \"twin\"",
        "template.spec.containers[4].image: Required value",
        "template.spec.containers[5].image: Required value",
        "template.spec.initContainers[0].name: Duplicate value: \"twin\"",
        "template.spec.initContainers[1].name: Required value");
  }

  @Test
  void restartPoliciesProbesAndLifecycleOfContainersAndInitContainers() {
    String exec = "exec:\n  command: [\"true\"]\n";
    String probes =
        ("livenessProbe:\n"
                + exec.indent(2)
                + "readinessProbe:\n"
                + exec.indent(2)
                + "startupProbe:\n"
                + exec.indent(2)
                + "lifecycle:\n  preStop:\n"
                + exec.indent(4))
            .indent(4);
    assertFindings(
        check(
            """
            spec:
              containers:
              - name: c
                image: i
                imagePullPolicy: Sometimes
                terminationMessagePolicy: Stdout
                restartPolicy: Always
              initContainers:
              - name: setup
                image: i
                restartPolicy: OnFailure
            """
                + probes
                + "  - name: plain\n    image: i\n"
                + probes
                + "  - name: sidecar\n    image: i\n    restartPolicy: Always\n"
                + probes
                + "  - name: bad-sidecar\n    image: i\n    restartPolicy: Always\n"
                + "    livenessProbe:\n      periodSeconds: 5\n"
                + "    lifecycle:\n      postStart: {}\n"),
        "template.spec.containers[0].imagePullPolicy: Unsupported value: \"Sometimes\": ",
        "template.spec.containers[0].restartPolicy: Forbidden: may not be set for non-init"
            + " containers",
        "template.spec.containers[0].terminationMessagePolicy: Unsupported value: \"Stdout\": ",
        "template.spec.initContainers[0].lifecycle: Forbidden: may not be set for init containers"
            + " without restartPolicy=Always",
        "template.spec.initContainers[0].livenessProbe: Forbidden: may not be set for init"
            + " containers without restartPolicy=Always",
        "template.spec.initContainers[0].readinessProbe: Forbidden: ",
        "template.spec.initContainers[0].restartPolicy: Unsupported value: \"OnFailure\":"
            + " supported values: \"Always\"",
        "template.spec.initContainers[0].startupProbe: Forbidden: ",
        "template.spec.initContainers[1].lifecycle: Forbidden: ",
        "template.spec.initContainers[1].livenessProbe: Forbidden: ",
        "template.spec.initContainers[1].readinessProbe: Forbidden: ",
        "template.spec.initContainers[1].startupProbe: Forbidden: ",
        "template.spec.initContainers[3].lifecycle.postStart: Required value: must specify a"
            + " handler type",
        "template.spec.initContainers[3].livenessProbe: Required value: must specify a handler"
            + " type");
    // Regular containers check their probes and lifecycle as sidecars do.
    assertFindings(
        check(
            container(
                "livenessProbe:\n  periodSeconds: 5\nlifecycle:\n  preStop: {}\n  postStart: {}\n")),
        "template.spec.containers[0].lifecycle.postStart: Required value: must specify a handler",
        "template.spec.containers[0].lifecycle.preStop: Required value: must specify a handler",
        "template.spec.containers[0].livenessProbe: Required value: must specify a handler type");
  }

  @Test
  void ports() {
    assertFindings(
        check(
            container(
                    """
                ports:
                - containerPort: 0
                - containerPort: 70000
                  hostPort: 65536
                - name: customPort
                  containerPort: 80
                - name: http
                  containerPort: 85
                - name: http
                  containerPort: 86
                - containerPort: 87
                  protocol: HTTP
                - containerPort: 88
                  hostPort: 8080
                - containerPort: 89
                  hostPort: 8080
                  protocol: UDP
                - containerPort: 90
                  hostPort: 8081
                  hostIP: 10.0.0.1
                - containerPort: 91
                  hostPort: 8081
                  hostIP: 10.0.0.2
                - containerPort: 92
                  hostPort: 0
                - containerPort: 93
                  hostPort: 0
                - containerPort: 65535
                  hostPort: 1
                  protocol: ""
                """)
                + "  - name: other\n    image: i\n    ports:\n    - containerPort: 1\n"
                + "      hostPort: 8080\n      protocol: TCP\n"),
        "template.spec.containers[0].ports[0].containerPort: Required value",
        "template.spec.containers[0].ports[1].containerPort: Invalid value: 70000: must be"
            + " between 1 and 65535, inclusive",
        "template.spec.containers[0].ports[1].hostPort: Invalid value: 65536: must be between 1"
            + " and 65535, inclusive",
        "template.spec.containers[0].ports[2].name: Invalid value: \"customPort\": ",
        "template.spec.containers[0].ports[4].name: Duplicate value: \"http\"",
        "template.spec.containers[0].ports[5].protocol: Unsupported value: \"HTTP\": supported"
            + " values: \"SCTP\", \"TCP\", \"UDP\"",
        "template.spec.containers[1].ports[0].hostPort: Duplicate value: \"TCP//8080\"");
  }

  @Test
  void hostPortsOfInitContainersOnlyConflictWithinOne() {
    String twoPorts =
        "    ports:\n    - containerPort: 1\n      hostPort: 9\n"
            + "    - containerPort: 2\n      hostPort: 9\n";
    String onePort = "    ports:\n    - containerPort: 1\n      hostPort: 9\n";
    assertThat(
            check(
                CONTAINER
                    + "  initContainers:\n  - name: a\n    image: i\n"
                    + onePort
                    + "  - name: b\n    image: i\n"
                    + onePort))
        .isEmpty();
    assertThat(check(CONTAINER + "  initContainers:\n  - name: a\n    image: i\n" + twoPorts))
        .containsExactly(
            "template.spec.initContainers[0].ports[1].hostPort: Duplicate value: \"TCP//9\"");
  }

  @Test
  void env() {
    assertFindings(
        check(
            container(
                """
                env:
                - name: ""
                  value: x
                - name: A=B
                  value: x
                - name: my.env-name
                  value: x
                - name: NO_SOURCE
                  valueFrom: {}
                - name: BOTH
                  value: x
                  valueFrom:
                    fieldRef:
                      fieldPath: metadata.name
                - name: TWO_SOURCES
                  valueFrom:
                    fieldRef:
                      fieldPath: metadata.name
                    secretKeyRef:
                      name: s
                      key: k
                - name: EMPTY_VALUE
                  value: ""
                  valueFrom:
                    configMapKeyRef:
                      name: c
                      key: k
                """)),
        "template.spec.containers[0].env[0].name: Required value",
        "template.spec.containers[0].env[1].name: Invalid value: \"A=B\": ",
        "template.spec.containers[0].env[3].valueFrom: Invalid value: \"\": must specify one of:"
            + " `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`",
        "template.spec.containers[0].env[4].valueFrom: Invalid value: \"\": may not be specified"
            + " when `value` is not empty",
        "template.spec.containers[0].env[5].valueFrom: Invalid value: \"\": may not have more"
            + " than one field specified at a time");
  }

  @Test
  void anEnvironmentVariableMayHold128KiBWithItsNameAndEqualsSign() {
    String name = "LONG";
    String fits = "x".repeat(ApiLimits.ENV_STRING_BYTES - name.length() - 1);
    assertThat(check(container("env:\n- name: " + name + "\n  value: " + fits + "\n"))).isEmpty();
    assertThat(check(container("env:\n- name: " + name + "\n  value: " + fits + "y\n")))
        .containsExactly(
            "template.spec.containers[0].env[0].value: Too long: LONG=... would be 129 KiB, more"
                + " than the 128 KiB Linux passes to a process in one environment variable"
                + " (MAX_ARG_STRLEN): the container could not start; mount it from a ConfigMap"
                + " instead");
    // Counted in UTF-8 bytes: "é" is two.
    String half = "é".repeat((ApiLimits.ENV_STRING_BYTES - name.length() - 1) / 2);
    assertThat(check(container("env:\n- name: " + name + "\n  value: " + half + "\n"))).isEmpty();
    assertThat(check(container("env:\n- name: " + name + "\n  value: " + half + "é\n"))).hasSize(1);
  }

  @Test
  void envFrom() {
    assertFindings(
        check(
            container(
                """
                envFrom:
                - prefix: "BAD="
                  configMapRef:
                    name: c
                - prefix: OK_
                - configMapRef:
                    name: c
                  secretRef:
                    name: s
                - prefix: ""
                  secretRef:
                    name: s
                """)),
        "template.spec.containers[0].envFrom: Invalid value: \"\": may not have more than one"
            + " field specified at a time",
        "template.spec.containers[0].envFrom: Invalid value: \"\": must specify one of:"
            + " `configMapRef` or `secretRef`",
        "template.spec.containers[0].envFrom[0].prefix: Invalid value: \"BAD=\": ");
  }

  @Test
  void volumesAndMounts() {
    assertFindings(
        check(
            """
            spec:
              volumes:
              - name: data
                emptyDir: {}
              - name: two-types
                emptyDir: {}
                configMap:
                  name: c
              - name: no-type
              - name: ""
                emptyDir: {}
              - name: Bad_Name
                emptyDir: {}
              - name: data
                emptyDir: {}
              - emptyDir: {}
              containers:
              - name: c
                image: i
                volumeMounts:
                - name: data
                  mountPath: /data
                - name: missing
                  mountPath: /missing
                - name: added
                  mountPath: /data
                - name: ""
                  mountPath: ""
                - name: data
            """,
            "added"),
        "template.spec.containers[0].volumeMounts[1].name: Not found: \"missing\"",
        "template.spec.containers[0].volumeMounts[2].mountPath: Invalid value: \"/data\": must be"
            + " unique",
        "template.spec.containers[0].volumeMounts[3].mountPath: Required value",
        "template.spec.containers[0].volumeMounts[3].name: Not found: \"\"",
        "template.spec.containers[0].volumeMounts[3].name: Required value",
        "template.spec.volumes[1].configMap: Forbidden: may not specify more than 1 volume type",
        "template.spec.volumes[2]: Required value: must specify a volume type",
        "template.spec.volumes[3].name: Required value",
        "template.spec.volumes[4].name: Invalid value: \"Bad_Name\": ",
        "template.spec.volumes[5].name: Duplicate value: \"data\"");
  }

  @Test
  void resources() {
    assertFindings(
        check(
            container(
                """
                resources:
                  limits:
                    cpu: "1"
                    memory: 1Gi
                    ram: 1Gi
                    pods: "1"
                    example.com/gpu: "1"
                    example.com/fpga: "2"
                    hugepages-2Mi: 4Mi
                    requests.example.com/gpu: "1"
                    kubernetes.io/thing: "1"
                  requests:
                    cpu: "2"
                    memory: -1Gi
                    example.com/gpu: 500m
                    example.com/fpga: "1"
                    example.com/nic: "1"
                    hugepages-2Mi: 2Mi
                    ephemeral-storage: 1Gi
                """)),
        "template.spec.containers[0].resources.limits: Required value: Limit must be set for non"
            + " overcommitable resources",
        "template.spec.containers[0].resources.limits[pods]: Invalid value: \"pods\": must be a"
            + " standard resource for containers",
        "template.spec.containers[0].resources.limits[ram]: Invalid value: \"ram\": must be a"
            + " standard resource for containers",
        "template.spec.containers[0].resources.limits[ram]: Invalid value: \"ram\": must be a"
            + " standard resource type or fully qualified",
        "template.spec.containers[0].resources.limits[requests.example.com/gpu]: Invalid value:"
            + " \"requests.example.com/gpu\": doesn't follow extended resource name standard",
        "template.spec.containers[0].resources.requests: Invalid value: \"1\": must be equal to"
            + " example.com/fpga limit of 2",
        "template.spec.containers[0].resources.requests: Invalid value: \"2\": must be less than"
            + " or equal to cpu limit of 1",
        "template.spec.containers[0].resources.requests: Invalid value: \"2Mi\": must be equal to"
            + " hugepages-2Mi limit of 4Mi",
        "template.spec.containers[0].resources.requests: Invalid value: \"500m\": must be equal"
            + " to example.com/gpu limit of 1",
        "template.spec.containers[0].resources.requests[example.com/gpu]: Invalid value:"
            + " \"500m\": must be an integer",
        "template.spec.containers[0].resources.requests[memory]: Invalid value: \"-1Gi\": must be"
            + " greater than or equal to 0");
    // Equal requests and limits, a request below its limit, and requests without limits for
    // resources that may be overcommitted (kubernetes.io/ names are native, and named in full).
    assertThat(
            check(
                container(
                    """
                    resources:
                      limits:
                        cpu: "2"
                        memory: 1Gi
                        example.com/gpu: "1"
                        hugepages-2Mi: 4Mi
                      requests:
                        cpu: 1500m
                        memory: 1Gi
                        example.com/gpu: "1"
                        hugepages-2Mi: 4Mi
                        ephemeral-storage: 1Gi
                        kubernetes.io/thing: "0"
                    """)))
        .isEmpty();
  }

  @Test
  void aQuantityThatIsNoNumberIsNotComparedWithItsLimit() {
    // Bad syntax is the schema's to report, and a request that is no number asks for no limit.
    assertThat(
            check(
                container(
                    """
                    resources:
                      limits:
                        cpu: "1"
                      requests:
                        cpu: one
                        example.com/gpu: two
                    """)))
        .isEmpty();
    assertThat(check(container("resources:\n  requests:\n    cpu: \"1e1001\"\n")))
        .singleElement()
        .asString()
        .startsWith(
            "template.spec.containers[0].resources.requests[cpu]: Invalid value: \"1e1001\":"
                + " jobc reads quantities of at most");
  }

  @Test
  void probesAndHandlers() {
    assertFindings(
        check(
            """
            spec:
              containers:
              - name: c
                image: i
                livenessProbe:
                  periodSeconds: 10
                  successThreshold: 2
                readinessProbe:
                  exec:
                    command: ["true"]
                  httpGet:
                    port: 8080
                  terminationGracePeriodSeconds: 5
                  successThreshold: 3
                startupProbe:
                  httpGet:
                    port: 0
                    scheme: FTP
                  initialDelaySeconds: -1
                  terminationGracePeriodSeconds: 0
                lifecycle:
                  postStart:
                    exec: {}
                  preStop:
                    tcpSocket:
                      port: Not-A-Name
              - name: grpc
                image: i
                livenessProbe:
                  grpc:
                    port: 70000
                  failureThreshold: -3
                  timeoutSeconds: -1
                  successThreshold: -1
                startupProbe:
                  tcpSocket:
                    port: 0
                  terminationGracePeriodSeconds: -1
                  successThreshold: 0
              - name: fine
                image: i
                livenessProbe:
                  httpGet:
                    port: http
                    scheme: HTTPS
                  successThreshold: 1
                  terminationGracePeriodSeconds: 1
                  initialDelaySeconds: 0
                readinessProbe:
                  grpc:
                    port: 1
                  successThreshold: 5
                startupProbe:
                  tcpSocket:
                    port: 65535
                lifecycle:
                  preStop:
                    sleep:
                      seconds: 1
            """),
        "template.spec.containers[0].lifecycle.postStart.exec.command: Required value",
        "template.spec.containers[0].lifecycle.preStop.tcpSocket.port: Invalid value:"
            + " \"Not-A-Name\": ",
        "template.spec.containers[0].livenessProbe: Required value: must specify a handler type",
        "template.spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1",
        "template.spec.containers[0].readinessProbe.httpGet: Forbidden: may not specify more than"
            + " 1 handler type",
        "template.spec.containers[0].readinessProbe.terminationGracePeriodSeconds: Invalid value:"
            + " 5: must not be set for readinessProbes",
        "template.spec.containers[0].startupProbe.httpGet.port: Invalid value: 0: must be"
            + " between 1 and 65535, inclusive",
        "template.spec.containers[0].startupProbe.httpGet.scheme: Unsupported value: \"FTP\":"
            + " supported values: \"HTTP\", \"HTTPS\"",
        "template.spec.containers[0].startupProbe.initialDelaySeconds: Invalid value: -1: must"
            + " be greater than or equal to 0",
        "template.spec.containers[0].startupProbe.terminationGracePeriodSeconds: Invalid value: 0:"
            + " must be greater than 0",
        "template.spec.containers[1].livenessProbe.failureThreshold: Invalid value: -3: must be"
            + " greater than or equal to 0",
        "template.spec.containers[1].livenessProbe.grpc.port: Invalid value: 70000: must be"
            + " between 1 and 65535, inclusive",
        "template.spec.containers[1].livenessProbe.successThreshold: Invalid value: -1: must be 1",
        "template.spec.containers[1].livenessProbe.successThreshold: Invalid value: -1: must be"
            + " greater than or equal to 0",
        "template.spec.containers[1].livenessProbe.timeoutSeconds: Invalid value: -1: must be"
            + " greater than or equal to 0",
        "template.spec.containers[1].startupProbe.tcpSocket.port: Invalid value: 0: must be"
            + " between 1 and 65535, inclusive",
        "template.spec.containers[1].startupProbe.terminationGracePeriodSeconds: Invalid value:"
            + " -1: must be greater than 0");
  }
}
