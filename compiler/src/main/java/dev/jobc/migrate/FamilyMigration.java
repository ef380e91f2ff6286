package dev.jobc.migrate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobc.diag.Code;
import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Finding;
import dev.jobc.diag.Quoting;
import dev.jobc.replica.Framework;
import dev.jobc.replica.ReplicaJob;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A PyTorchJob, JAXJob or XGBoostJob (training-operator v1.9.0) becomes a TrainJob whose trainer
 * runs every replica as one node of the runtime's {@code node} Job: the Master (if any) is node 0,
 * Worker {@code i} node {@code i} plus the Masters. The kind's container becomes {@code node}; the
 * operator's environment is kept under its names ({@link MlPolicySource#operatorEnv}).
 *
 * <p>A job whose pod is nothing but that container, restarted {@code OnFailure}, references the
 * ClusterTrainingRuntime Trainer installs for the policy, the container's image, command, args, env
 * and resources in the TrainJob's trainer; any other job gets a TrainingRuntime {@code
 * <job>-runtime} holding its pod template.
 */
final class FamilyMigration {
  /** What a container may hold for the Trainer's default runtime to run it unchanged. */
  private static final Set<String> TRAINER_FIELDS =
      Set.of("name", "image", "command", "args", "env", "resources", "ports");

  /** JobSet's webhook default for a pod template without one (jobset_webhook.go Default). */
  private static final String JOBSET_RESTART_POLICY = "OnFailure";

  private FamilyMigration() {}

  static Migration migrate(JsonNode root, ReplicaJob job, MlPolicySource source) {
    List<Finding> findings = new ArrayList<>();
    findings.addAll(source.refusals(root));
    Framework fw = job.framework();
    FieldPath specsPath = fw.replicaSpecsPath();
    int nodes = job.totalReplicas();
    findings.addAll(
        TrainerObjects.checkJobSet(
            job.name(), Map.of(TrainerObjects.NODE, nodes), root, job.options()));
    JobPolicy policy = JobPolicy.of(root, job.options(), nodes);
    findings.addAll(policy.findings());

    // Trainer v2 runs one pod template on every node of the trainer's Job.
    ReplicaJob.Replica first = null;
    ObjectNode template = null;
    for (ReplicaJob.Replica r : job.each()) {
      FieldPath at = specsPath.key(r.key());
      findings.addAll(RestartPolicies.check(r.spec().restartPolicy(), at.child("restartPolicy")));
      if (r.count() < 1) {
        continue; // no pod runs it
      }
      ObjectNode t = TrainerObjects.podTemplate(root, at.child("template"), findings);
      RestartPolicies.replaceTemplatePolicy(
          t, r.spec().restartPolicy(), at.child("template"), findings);
      if (first == null) {
        first = r;
        template = t;
        continue;
      }
      findings.addAll(sameNode(first, template, r, t, at));
    }
    if (first == null) {
      // no golden case: the v1 validators refuse a job without a pod before this runs.
      return new Migration(List.of(), findings);
    }
    FieldPath templatePath = specsPath.key(first.key()).child("template");
    ObjectNode pod = template;
    ObjectNode podSpec = Trees.object(pod, "spec");
    ArrayNode containers =
        podSpec.path("containers").isArray()
            ? (ArrayNode) podSpec.get("containers")
            : Trees.NODES.arrayNode();
    ObjectNode main = null;
    List<String> others = new ArrayList<>();
    for (int i = 0; i < containers.size(); i++) {
      ObjectNode c = (ObjectNode) containers.get(i);
      String name = c.path("name").asText();
      if (name.equals(fw.container())) {
        main = c;
      } else if (name.equals(TrainerObjects.NODE)) {
        findings.add(nodeTaken(templatePath.child("spec").child("containers").index(i)));
      } else {
        others.add(name);
      }
    }
    if (main == null || findings.stream().anyMatch(Finding::isError)) {
      // The v1 validators require the kind's container.
      return new Migration(List.of(), findings);
    }
    String restartPolicy = first.spec().restartPolicy();
    List<ObjectNode> operatorEnv = source.operatorEnv(job);
    ObjectNode trainer = Trees.NODES.objectNode();
    trainer.put("numNodes", nodes);
    Integer procs = source.numProcPerNode(root);
    if (procs != null) {
      trainer.put("numProcPerNode", procs);
    }
    if (fitsDefault(pod, main, fw, restartPolicy, policy)) {
      for (String f : List.of("image", "command", "args")) {
        if (main.has(f)) {
          trainer.set(f, main.get(f));
        }
      }
      ObjectNode withEnv = Trees.NODES.objectNode();
      withEnv.set("env", main.path("env").isArray() ? main.get("env") : Trees.NODES.arrayNode());
      Trees.upsertEnv(withEnv, operatorEnv);
      if (!withEnv.get("env").isEmpty()) {
        trainer.set("env", withEnv.get("env"));
      }
      if (main.has("resources")) {
        trainer.set("resourcesPerNode", main.get("resources"));
      }
      ObjectNode trainJob =
          TrainerObjects.trainJob(
              root,
              job.namespace(),
              TrainerObjects.clusterRuntimeRef(source.defaultRuntime()),
              trainer,
              policy);
      return new Migration(List.of(trainJob), findings);
    }
    main.put("name", TrainerObjects.NODE);
    if (policy.schedulerName() != null) {
      podSpec.put("schedulerName", policy.schedulerName());
    }
    for (JsonNode c : containers) {
      if (c != main) {
        // The v1 operator gave every container its variables; the plugin gives the node's.
        Trees.upsertEnv((ObjectNode) c, operatorEnv);
      }
    }
    if (!operatorEnv.isEmpty()) {
      ArrayNode env = trainer.putArray("env");
      operatorEnv.forEach(env::add);
    }
    ObjectNode mlPolicy = Trees.NODES.objectNode();
    mlPolicy.put("numNodes", nodes);
    mlPolicy.set(source.name(), source.settings(others));
    ArrayNode jobs = Trees.NODES.arrayNode();
    // As jobc render's Job per replica: Never fails at the first failed pod, the others retry up
    // to runPolicy.backoffLimit (ReplicaJobGenerator).
    Integer backoffLimit =
        RestartPolicies.NEVER.equals(restartPolicy) ? Integer.valueOf(0) : policy.backoffLimit();
    jobs.add(
        TrainerObjects.replicatedJob(
            TrainerObjects.NODE, null, true, backoffLimit, restartPolicy, pod));
    ObjectNode runtime =
        TrainerObjects.runtime(
            root, job.namespace(), source.name(), mlPolicy, policy, Trees.NODES.objectNode(), jobs);
    ObjectNode trainJob =
        TrainerObjects.trainJob(
            root, job.namespace(), TrainerObjects.ownRuntimeRef(job.name()), trainer, policy);
    return new Migration(List.of(trainJob, runtime), findings);
  }

  /**
   * Errors where replica {@code r} (template {@code t}, at {@code at}) would not run the same pod
   * as {@code first} (template {@code template}): a template or restart policy of its own.
   */
  private static List<Finding> sameNode(
      ReplicaJob.Replica first, JsonNode template, ReplicaJob.Replica r, JsonNode t, FieldPath at) {
    List<Finding> out = new ArrayList<>();
    Trees.Difference diff = Trees.firstDifference(template, t, at.child("template"));
    if (diff != null) {
      String what =
          diff.lacks() == null
              ? "differs from the " + first.type() + "'s template"
              : "has no " + diff.lacks() + ", which the " + first.type() + "'s template sets";
      out.add(
          Finding.error(
              Code.INVALID,
              diff.path(),
              "Invalid value: "
                  + what
                  + ": a TrainJob runs one pod template on every node (the runtime's trainer"
                  + " Job); make the templates equal"));
    }
    String policy = r.spec().restartPolicy();
    String firstPolicy = first.spec().restartPolicy();
    if (!policy.equals(firstPolicy)
        && RestartPolicies.kept(policy)
        && RestartPolicies.kept(firstPolicy)) {
      out.add(
          Finding.error(
              Code.INVALID,
              at.child("restartPolicy"),
              "Invalid value: "
                  + Quoting.quote(policy)
                  + ": differs from the "
                  + first.type()
                  + "'s "
                  + Quoting.quote(firstPolicy)
                  + ": a TrainJob's nodes share one restart policy"));
    }
    return out;
  }

  /**
   * Whether the Trainer's default runtime for the policy runs this pod as v1 did: the kind's
   * container alone, holding only what a TrainJob's trainer sets (its port, the v1 operator's
   * Services', aside), restarted {@code OnFailure}, with no backoff limit or gang policy.
   */
  private static boolean fitsDefault(
      ObjectNode pod, ObjectNode main, Framework fw, String restartPolicy, JobPolicy policy) {
    if (policy.needsRuntime() || !JOBSET_RESTART_POLICY.equals(restartPolicy)) {
      return false;
    }
    for (String f : (Iterable<String>) pod::fieldNames) {
      if (!f.equals("spec") && !(f.equals("metadata") && pod.get(f).isEmpty())) {
        return false;
      }
    }
    JsonNode spec = pod.path("spec");
    for (String f : (Iterable<String>) spec::fieldNames) {
      if (!f.equals("containers")) {
        return false;
      }
    }
    if (spec.path("containers").size() != 1) {
      return false;
    }
    for (String f : (Iterable<String>) main::fieldNames) {
      if (!TRAINER_FIELDS.contains(f)) {
        return false;
      }
    }
    for (JsonNode port : main.path("ports")) {
      if (!fw.portName().equals(port.path("name").asText())) {
        return false;
      }
    }
    return true;
  }

  /** The error for a container of the user's already named {@code node}. */
  static Finding nodeTaken(FieldPath container) {
    return Finding.error(
        Code.INVALID,
        container.child("name"),
        "Invalid value: \"node\": Trainer v2 names the trainer's container node (constants.Node);"
            + " rename this one");
  }
}
