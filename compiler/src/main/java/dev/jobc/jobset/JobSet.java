package dev.jobc.jobset;

import dev.jobc.bind.ObjectTrees;
import dev.jobc.conventions.JobSetNames;
import dev.jobc.k8s.Metadata;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.batch.v1.JobTemplateSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One job as a JobSet (kubernetes-sigs/jobset v0.12.0, {@code api/jobset/v1alpha2/jobset_types.go}
 * {@code JobSetSpec}), written with every field jobc decides set explicitly, so what Git holds is
 * what runs whatever the webhook's defaults are.
 *
 * @param labels the JobSet's labels: jobc's, and the job's {@code kueue.x-k8s.io/*} labels, which
 *     make Kueue admit the JobSet as one Workload
 * @param replicatedJobs in order: a replicated Job may only depend on an earlier one
 * @param dnsHostnames {@code network.enableDNSHostnames}: the controller gives the pods host names
 *     under the subdomain (the JobSet's name) and creates the headless Service of that name
 * @param publishNotReadyAddresses {@code network.publishNotReadyAddresses}: that Service publishes
 *     a pod's name before the pod is Ready
 * @param successTargets the replicated Jobs whose Jobs must all succeed for the JobSet to succeed
 *     ({@code successPolicy: {operator: All, targetReplicatedJobs}}); once they have, the
 *     controller deletes the Jobs still running
 * @param suspend {@code spec.suspend}: no child Job runs until it is false
 * @param ttlSecondsAfterFinished deletes the finished JobSet, or {@code null}
 * @param anySucceeds {@code successPolicy.operator: Any}: the first of {@code successTargets}' Jobs
 *     to succeed completes the JobSet ({@code success_policy.go numJobsExpectedToSucceed}), rather
 *     than the last ({@code All})
 */
public record JobSet(
    String name,
    String namespace,
    Map<String, String> labels,
    Map<String, String> annotations,
    List<ReplicatedJob> replicatedJobs,
    boolean dnsHostnames,
    boolean publishNotReadyAddresses,
    List<String> successTargets,
    boolean suspend,
    Integer ttlSecondsAfterFinished,
    boolean anySucceeds) {

  public JobSet {
    replicatedJobs = List.copyOf(replicatedJobs);
    successTargets = List.copyOf(successTargets);
  }

  /**
   * The JobSet's annotations: {@code objectAnnotations} (jobc's, on every object) and the job's
   * annotations that Kueue reads from the object it admits, which is the JobSet here: {@code
   * provreq.kueue.x-k8s.io/*}, the ProvisioningRequest parameters (kueue v0.19.2 {@code
   * pkg/controller/jobframework/utils.go}, {@code provReqAnnotationsFromObject} reading {@code
   * job.Object().GetAnnotations()}), and every {@code kueue.x-k8s.io/*} one.
   */
  public static Map<String, String> annotations(
      Map<String, String> objectAnnotations, Map<String, String> jobAnnotations) {
    Map<String, String> out = new LinkedHashMap<>(objectAnnotations);
    if (jobAnnotations != null) {
      jobAnnotations.forEach(
          (k, v) -> {
            if (k.startsWith("provreq.kueue.x-k8s.io/") || k.startsWith("kueue.x-k8s.io/")) {
              out.put(k, v == null ? "" : v);
            }
          });
    }
    return out;
  }

  /**
   * The object. There is no failure policy: without one the controller fails the JobSet as soon as
   * one child Job has failed ({@code pkg/controllers/failure_policy.go}), and then, as on success,
   * deletes the child Jobs still running.
   */
  public GenericKubernetesResource resource() {
    Map<String, Object> spec = new LinkedHashMap<>();
    List<Object> jobs = new ArrayList<>(replicatedJobs.size());
    for (ReplicatedJob r : replicatedJobs) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("name", r.name());
      if (r.dependsOn() != null) {
        Map<String, Object> dependency = new LinkedHashMap<>();
        dependency.put("name", r.dependsOn());
        dependency.put("status", r.dependsOnStatus());
        entry.put("dependsOn", List.of(dependency));
      }
      entry.put("replicas", 1);
      JobTemplateSpec template = new JobTemplateSpec();
      template.setSpec(r.spec());
      entry.put("template", ObjectTrees.tree(template));
      jobs.add(entry);
    }
    spec.put("replicatedJobs", jobs);
    Map<String, Object> network = new LinkedHashMap<>();
    network.put("enableDNSHostnames", dnsHostnames);
    if (dnsHostnames) {
      network.put("publishNotReadyAddresses", publishNotReadyAddresses);
    }
    spec.put("network", network);
    Map<String, Object> success = new LinkedHashMap<>();
    success.put("operator", anySucceeds ? "Any" : "All");
    success.put("targetReplicatedJobs", successTargets);
    spec.put("successPolicy", success);
    // A queued JobSet's suspend is Kueue's (JobSetRules.queuedSuspend): none in Git.
    if (suspend && !JobSetRules.queued(labels)) {
      spec.put("suspend", true);
    }
    if (ttlSecondsAfterFinished != null) {
      spec.put("ttlSecondsAfterFinished", ttlSecondsAfterFinished);
    }
    GenericKubernetesResource jobSet = new GenericKubernetesResource();
    jobSet.setApiVersion(JobSetNames.API_VERSION);
    jobSet.setKind(JobSetNames.KIND);
    jobSet.setMetadata(Metadata.of(name, namespace, labels, annotations));
    jobSet.setAdditionalProperty("spec", spec);
    return jobSet;
  }
}
