package dev.jobc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobc.bind.ObjectTrees;
import dev.jobc.dgl.DglJobKind;
import dev.jobc.diag.Code;
import dev.jobc.diag.Diagnostic;
import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Finding;
import dev.jobc.diag.Position;
import dev.jobc.diag.Quoting;
import dev.jobc.jax.JaxJobKind;
import dev.jobc.k8s.ApiLimits;
import dev.jobc.k8s.OutputSize;
import dev.jobc.kind.JobKind;
import dev.jobc.kind.KindSpelling;
import dev.jobc.load.Document;
import dev.jobc.load.LoadResult;
import dev.jobc.load.NodeBudget;
import dev.jobc.load.YamlLimits;
import dev.jobc.load.YamlLoader;
import dev.jobc.migrate.Migration;
import dev.jobc.migrate.TrainJobMigration;
import dev.jobc.model.Budget;
import dev.jobc.model.CompileResult;
import dev.jobc.model.OutputObject;
import dev.jobc.model.Source;
import dev.jobc.mpi.MpiJobKind;
import dev.jobc.options.CompileOptions;
import dev.jobc.paddle.PaddleJobKind;
import dev.jobc.pytorch.PyTorchJobKind;
import dev.jobc.render.Ordering;
import dev.jobc.render.Templates;
import dev.jobc.render.YamlWriter;
import dev.jobc.schema.SchemaValidator;
import dev.jobc.tf.TfJobKind;
import dev.jobc.trainer.TrainJobKind;
import dev.jobc.validate.ObjectIdentity;
import dev.jobc.xgboost.XGBoostJobKind;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Compiles job specs into Kubernetes objects. Instances are immutable and thread-safe; create one
 * and reuse it (it holds the compiled schemas and templates).
 *
 * <p>The pipeline runs in {@link #compile} and nowhere else, in this order: parse → schema check of
 * the raw tree → bind → defaults → validate → (stop if any error) → plan → generate → serialize →
 * order. Every diagnostic of the run is collected; none stops the others from being found. Steps
 * that take one source or one job at a time share the processors (see {@code each}).
 */
public final class ManifestCompiler {
  private static final FieldPath NAME = FieldPath.of("metadata", "name");
  private static final FieldPath NAMESPACE = FieldPath.of("metadata", "namespace");
  private static final FieldPath QUEUE_NAME =
      FieldPath.of("metadata", "labels").key("kueue.x-k8s.io/queue-name");

  private final YamlLoader loader;
  private final long runNodes;
  private final long runOutputChars;
  private final SchemaValidator schemas;
  private final YamlWriter writer;

  /** Each kind's {@link JobKind#referencedDefaults} as documents, once loaded. */
  private final Map<JobKind<?, ?, ?>, List<Document>> referencedDefaults =
      new java.util.concurrent.ConcurrentHashMap<>();

  /** Every accepted job kind; a document is one of them when kind and API group match. */
  private final List<JobKind<?, ?, ?>> kinds;

  public ManifestCompiler() {
    this(YamlLimits.defaults(), Budget.RUN_NODES, Budget.RUN_OUTPUT_CHARS);
  }

  /**
   * @param limits the loader's limits for each source
   * @param runNodes the YAML nodes all sources of one {@link #compile} may make together
   * @param runOutputChars the characters of YAML one {@link #compile} may render
   */
  public ManifestCompiler(YamlLimits limits, long runNodes, long runOutputChars) {
    this.loader = new YamlLoader(limits);
    this.runNodes = runNodes;
    this.runOutputChars = runOutputChars;
    this.schemas = SchemaValidator.load();
    this.writer = new YamlWriter();
    Templates templates = new Templates();
    this.kinds =
        List.of(
            new MpiJobKind(templates),
            new DglJobKind(templates),
            new TfJobKind(),
            new PyTorchJobKind(),
            new XGBoostJobKind(),
            new JaxJobKind(),
            new PaddleJobKind(),
            new TrainJobKind());
  }

  /**
   * Runs the whole pipeline over every document of every source and returns all objects (in output
   * order) or all diagnostics. Never throws for bad input.
   */
  public CompileResult compile(List<Source> sources, CompileOptions options) {
    List<Diagnostic> diagnostics = new ArrayList<>();

    // 1-2. Parse, classify, and check job documents against their schema before binding.
    Sorted sorted = parseAndSort(sources, diagnostics);
    List<Document> passThrough = new ArrayList<>(sorted.passThrough());
    List<Document> jobs = sorted.jobs();
    List<Document> references = sorted.references();

    // 3-5. Bind, default, validate. Each value flows back only into the kind that made it.
    List<Accepted> ready = new ArrayList<>();
    for (Checked job : each(jobs, doc -> check(doc, references, options))) {
      Document doc = job.doc();
      if (job.unbound() != null) {
        // The schema check has already said why (a value of the wrong type).
        if (diagnostics.stream()
            .noneMatch(d -> d.isError() && d.file().equals(doc.source().name()))) {
          // no golden case: a tree the schema accepts and binding refuses is a defect of jobc.
          diagnostics.add(
              locate(doc, Finding.error(Code.SCHEMA, FieldPath.root(), firstLine(job.unbound()))));
        }
        continue;
      }
      if (job.notOurs() != null) {
        // Another controller runs this job (MultiKueue, say); rendering it would run it twice.
        diagnostics.add(locate(doc, job.notOurs()));
        ObjectIdentity.passThrough(doc.root()).forEach(f -> diagnostics.add(locate(doc, f)));
        passThrough.add(doc);
        continue;
      }
      for (Finding f : job.findings()) {
        diagnostics.add(locate(doc, f));
      }
      ready.add(new Accepted(job.kind(), job.model(), doc));
    }
    sortDistinct(diagnostics);
    if (diagnostics.stream().anyMatch(Diagnostic::isError)) {
      return new CompileResult(List.of(), diagnostics);
    }

    // 6. Refuse jobs that would render more than the run may, before building any of them.
    Diagnostic tooMuch = plannedOutput(ready);
    if (tooMuch != null) {
      diagnostics.add(tooMuch);
      sortDistinct(diagnostics);
      return new CompileResult(List.of(), diagnostics);
    }

    // 6-7, 9. Plan, generate and serialize, a job at a time: generated objects in canonical key
    // order, others as written, one by one with what the output budget has left (block YAML can be
    // far longer than its source: every line repeats its indentation).
    List<Rendered> rendered = new ArrayList<>();
    long written = 0;
    for (List<Rendered> objects : each(ready, this::generate)) {
      rendered.addAll(objects);
      for (Rendered r : objects) {
        written += r.yaml().length();
      }
    }
    for (Document doc : passThrough) {
      // An object this long as YAML is far past what the API server stores as JSON: refused
      // without writing the rest of it.
      long objectCap = 4L * ApiLimits.OBJECT_BYTES;
      long left = Math.max(0, runOutputChars - written);
      String yaml;
      try {
        yaml = writer.write(doc.root(), false, Math.min(left, objectCap));
      } catch (YamlWriter.TooLong e) {
        JsonNode root = doc.root();
        diagnostics.add(
            locate(
                doc,
                Finding.error(
                    Code.LIMIT,
                    FieldPath.root(),
                    e.limit() < left
                        ? "the "
                            + root.path("kind").asText()
                            + " "
                            + root.path("metadata").path("name").asText()
                            + " is longer than "
                            + ApiLimits.mib(objectCap)
                            + " written out, far more than the "
                            + ApiLimits.mib(ApiLimits.OBJECT_BYTES)
                            + " the API server stores in one object"
                        : "written out, the objects up to this one are longer than "
                            + runOutputChars
                            + " characters together, the limit for one run; render fewer files"
                            + " at a time")));
        sortDistinct(diagnostics);
        return new CompileResult(List.of(), diagnostics);
      }
      written += yaml.length();
      rendered.add(Rendered.of(doc.root(), false, doc, yaml));
    }
    for (Rendered r : rendered) {
      if (r.tooLarge() != null) {
        diagnostics.add(
            locate(
                r.origin(),
                r.canonical()
                    ? Finding.error(Code.LIMIT, NAME, r.tooLarge())
                    : Finding.warning(FieldPath.root(), r.tooLarge())));
      }
    }

    // 8. Order, and refuse two objects with one identity (they would overwrite each other).
    List<OutputObject> objects = new ArrayList<>(rendered.size());
    Map<String, Document> seen = new HashMap<>();
    // Clashes per (later document, earlier document), reported once per pair.
    Map<Document, Map<Document, List<String>>> clashes = new LinkedHashMap<>();
    for (Rendered r : rendered) {
      Position at = r.origin().positions().at(NAME);
      OutputObject o =
          new OutputObject(
              r.apiVersion(),
              r.kind(),
              r.namespace(),
              r.name(),
              r.yaml(),
              new OutputObject.Origin(r.origin().source().name(), at.line(), at.column()));
      String identity =
          group(o.apiVersion()) + "/" + o.kind() + "/" + o.namespace() + "/" + o.name();
      Document first = seen.putIfAbsent(identity, r.origin());
      if (first != null) {
        clashes
            .computeIfAbsent(r.origin(), d -> new LinkedHashMap<>())
            .computeIfAbsent(first, d -> new ArrayList<>())
            .add(o.kind() + " " + (o.namespace().isEmpty() ? "" : o.namespace() + "/") + o.name());
      }
      objects.add(o);
    }
    clashes.forEach(
        (later, byEarlier) ->
            byEarlier.forEach(
                (earlier, names) ->
                    diagnostics.add(
                        locate(
                            later,
                            Finding.error(
                                Code.DUPLICATE,
                                // At the later document's name: renaming it is the usual fix.
                                NAME,
                                "Duplicate value: "
                                    + names.stream().sorted().collect(Collectors.joining(", "))
                                    + (names.size() == 1 ? " is" : " are")
                                    + " also produced by the document at "
                                    + Quoting.fileName(earlier.source().name())
                                    + ":"
                                    + earlier.positions().documentStart().line())))));
    diagnostics.addAll(fluxSubstitutionWarnings(rendered, objects));
    sortDistinct(diagnostics);
    if (diagnostics.stream().anyMatch(Diagnostic::isError)) {
      return new CompileResult(List.of(), diagnostics);
    }
    objects.sort(Ordering.ORDER);
    return new CompileResult(objects, diagnostics);
  }

  /**
   * Steps 1 and 2 of every run: parses the sources within the run's node budget, classifies each
   * document, and checks job documents and the documents they refer to against their schema. A
   * referenced document with a schema error is not offered to the jobs: they would read it wrongly,
   * and the error already stops the run.
   */
  private Sorted parseAndSort(List<Source> sources, List<Diagnostic> diagnostics) {
    List<Document> documents = new ArrayList<>();
    for (LoadResult loaded : loadAll(sources)) {
      documents.addAll(loaded.documents());
      diagnostics.addAll(loaded.diagnostics());
    }
    List<Document> passThrough = new ArrayList<>();
    List<Document> jobs = new ArrayList<>();
    List<Document> referenced = new ArrayList<>();
    for (Document doc : documents) {
      switch (classify(doc, diagnostics)) {
        case JOB -> jobs.add(doc);
        case REFERENCED -> referenced.add(doc);
        case PASS_THROUGH -> passThrough.add(doc);
        case REJECTED -> {}
      }
    }
    List<Document> checked = new ArrayList<>(jobs);
    checked.addAll(referenced);
    each(checked, doc -> schemas.validate(doc, apiVersion(doc), kindName(doc)))
        .forEach(diagnostics::addAll);
    List<Document> references =
        referenced.stream()
            .filter(
                doc ->
                    diagnostics.stream()
                        .noneMatch(d -> d.isError() && d.file().equals(doc.source().name())))
            .toList();
    return new Sorted(jobs, references, passThrough);
  }

  /** The documents of a run after steps 1 and 2, each list in input order. */
  private record Sorted(
      List<Document> jobs, List<Document> references, List<Document> passThrough) {}

  /**
   * {@code jobc migrate}: every training-operator v1 job (PyTorchJob, JAXJob, XGBoostJob) and
   * MPIJob {@code v2beta1} of the sources, checked as {@link #compile} checks it (steps 1 to 5),
   * becomes a Kubeflow Trainer v2.3.0 TrainJob and the TrainingRuntime it needs ({@link
   * TrainJobMigration}). A job kind Trainer has no runtime for is an error; TrainJobs, runtimes and
   * other documents are left out. Returns the objects in output order, or every diagnostic.
   */
  public CompileResult migrate(List<Source> sources, CompileOptions options) {
    List<Diagnostic> diagnostics = new ArrayList<>();
    Sorted sorted = parseAndSort(sources, diagnostics);
    List<Document> jobs = new ArrayList<>();
    for (Document doc : sorted.jobs()) {
      Finding refused = TrainJobMigration.refusal(apiVersion(doc), kindName(doc));
      if (refused != null) {
        diagnostics.add(locate(doc, refused));
      } else if (!(find(kindName(doc), group(apiVersion(doc))) instanceof TrainJobKind)) {
        jobs.add(doc);
      }
    }
    List<Migrated> migrated =
        each(
            jobs,
            doc -> {
              boolean schemaError =
                  diagnostics.stream()
                      .anyMatch(d -> d.isError() && d.file().equals(doc.source().name()));
              Checked job = check(doc, sorted.references(), options);
              if (job.unbound() != null) {
                // The schema check has already said why (a value of the wrong type); else:
                // no golden case: a tree the schema accepts and binding refuses is a defect.
                return new Migrated(
                    doc,
                    schemaError
                        ? List.of()
                        : List.of(
                            Finding.error(Code.SCHEMA, FieldPath.root(), firstLine(job.unbound()))),
                    List.of());
              }
              // Render's warnings are about what render writes, not about the TrainJob; a job
              // another controller runs (MultiKueue) has no checks, as in render.
              List<Finding> findings =
                  new ArrayList<>(
                      job.findings().stream()
                          .filter(Finding::isError)
                          .filter(f -> !aboutRendersShape(f))
                          .toList());
              if (schemaError || findings.stream().anyMatch(Finding::isError)) {
                return new Migrated(doc, findings, List.of()); // an invalid job does not migrate
              }
              Migration m = TrainJobMigration.of(doc.root(), job.model());
              findings.addAll(m.findings());
              return new Migrated(doc, findings, m.objects());
            });
    List<OutputObject> objects = new ArrayList<>();
    Map<String, Document> seen = new HashMap<>();
    for (Migrated m : migrated) {
      m.findings().forEach(f -> diagnostics.add(locate(m.doc(), f)));
      Position at = m.doc().positions().at(NAME);
      for (ObjectNode tree : m.objects()) {
        JsonNode meta = tree.path("metadata");
        OutputObject o =
            new OutputObject(
                tree.path("apiVersion").asText(),
                tree.path("kind").asText(),
                meta.path("namespace").asText(""),
                meta.path("name").asText(),
                writer.write(tree, true),
                new OutputObject.Origin(m.doc().source().name(), at.line(), at.column()));
        Document first = seen.putIfAbsent(o.kind() + "/" + o.namespace() + "/" + o.name(), m.doc());
        if (first != null) {
          diagnostics.add(
              locate(
                  m.doc(),
                  Finding.error(
                      Code.DUPLICATE,
                      NAME,
                      "Duplicate value: "
                          + o.kind()
                          + " "
                          + (o.namespace().isEmpty() ? "" : o.namespace() + "/")
                          + o.name()
                          + " is also migrated from the document at "
                          + Quoting.fileName(first.source().name())
                          + ":"
                          + first.positions().documentStart().line())));
        }
        objects.add(o);
      }
    }
    sortDistinct(diagnostics);
    if (diagnostics.stream().anyMatch(Diagnostic::isError)) {
      return new CompileResult(List.of(), diagnostics);
    }
    objects.sort(Ordering.ORDER);
    return new CompileResult(objects, diagnostics);
  }

  /**
   * Whether a check's error is about the objects render writes for a v1 job rather than about the
   * job: render needs a namespace for host names and RBAC subjects (a TrainJob's host names name
   * none, and a job without one becomes a TrainJob without one), and a Kueue queue name for a shape
   * Kueue admits as one Workload (a TrainJob is one; its own shape is checked by the migration).
   */
  private static boolean aboutRendersShape(Finding f) {
    return f.code() == Code.REQUIRED && f.path().equals(NAMESPACE)
        || f.code() == Code.FORBIDDEN && f.path().equals(QUEUE_NAME);
  }

  /** One job document: what its checks and its migration found, and the objects it became. */
  private record Migrated(Document doc, List<Finding> findings, List<ObjectNode> objects) {}

  /**
   * Loads every source, taking their nodes from one budget for the run, with the result a run that
   * loads them one by one in order would have: where the budget ran out, and which sources are not
   * read after it, never depends on which thread got there first. Sources load on several threads
   * sharing the budget; if it ran out, the sources from the first one it ran out on are loaded
   * again one by one, each with exactly what those before it left, and none after the one that runs
   * out. Sources loaded on several threads together never hold more than the budget's nodes.
   */
  private List<LoadResult> loadAll(List<Source> sources) {
    NodeBudget shared = new NodeBudget(runNodes);
    List<LoadResult> results = new ArrayList<>(each(sources, s -> loader.load(s, shared)));
    long left = runNodes;
    for (int i = 0; i < results.size(); i++) {
      LoadResult r = results.get(i);
      if (!r.outOfBudget() && r.nodes() <= left) {
        left -= r.nodes();
        continue;
      }
      results.subList(i, results.size()).clear();
      for (int j = i; j < sources.size(); j++) {
        // no golden case: a case is one input file, and one source stops at its own limit
        // (Budget.SOURCE_NODES), half the run's; BudgetTest holds this with smaller limits.
        LoadResult again = loader.load(sources.get(j), new NodeBudget(runNodes, left));
        results.add(again);
        if (again.outOfBudget()) {
          break; // what comes after is not read, as with too many characters (InputFiles)
        }
        left -= again.nodes();
      }
      break;
    }
    return results;
  }

  /**
   * Warns about every input field that makes Flux's post-build substitution change an output object
   * (an unset variable becomes the empty string), unless the object opts out with Flux's annotation
   * or label: generated objects carry it with {@code --disable-flux-substitution}, passed-through
   * ones only when their author wrote it. One warning per field; {@code rendered} and {@code
   * objects} are parallel lists.
   */
  private static List<Diagnostic> fluxSubstitutionWarnings(
      List<Rendered> rendered, List<OutputObject> objects) {
    Map<Document, List<String>> jobs = new LinkedHashMap<>();
    List<Document> passedThrough = new ArrayList<>();
    for (int i = 0; i < rendered.size(); i++) {
      Rendered r = rendered.get(i);
      OutputObject o = objects.get(i);
      if (r.fluxDisabled() || !FluxSubstitution.substitutes(o.yaml())) {
        continue;
      }
      if (r.canonical()) {
        jobs.computeIfAbsent(r.origin(), d -> new ArrayList<>()).add(o.kind() + " " + o.name());
      } else {
        passedThrough.add(r.origin());
      }
    }
    List<Diagnostic> warnings = new ArrayList<>();
    String flux = "Flux post-build substitution would replace it; if Flux applies this output, ";
    String jobRemedy = flux + "render with --disable-flux-substitution (or write $${VAR})";
    jobs.forEach(
        (doc, names) -> {
          List<FieldPath> fields = FluxSubstitution.fields(doc.root());
          if (fields.isEmpty()) {
            // The "${" is not the input's: jobc's own scripts avoid it (TemplatesTest), but the
            // Trainer's Flux Framework scripts, which a Flux TrainJob's ConfigMap carries unchanged
            // (kubeflow/trainer plugins/flux/templates), are shell full of ${...}.
            warnings.add(
                locate(
                    doc,
                    Finding.warning(
                        FieldPath.root(),
                        String.join(", ", names)
                            + (names.size() == 1 ? " contains" : " contain")
                            + " \"${\" that no field of the input holds; "
                            + flux
                            + "render with --disable-flux-substitution")));
          }
          for (FieldPath field : fields) {
            warnings.add(locate(doc, Finding.warning(field, "contains \"${\"; " + jobRemedy)));
          }
        });
    String passThroughRemedy =
        flux
            + "write $${VAR}, or annotate the object "
            + CompileOptions.FLUX_SUBSTITUTE_ANNOTATION
            + ": disabled (--disable-flux-substitution annotates generated objects only)";
    for (Document doc : passedThrough) {
      for (FieldPath field : FluxSubstitution.fields(doc.root())) {
        warnings.add(locate(doc, Finding.warning(field, "contains \"${\"; " + passThroughRemedy)));
      }
    }
    return warnings;
  }

  /** Steps 3-5 for one job document; {@link #compile} turns the outcome into diagnostics. */
  private Checked check(Document doc, List<Document> referenced, CompileOptions options) {
    JobKind<Object, Object, Object> kind = kindOf(doc);
    Object bound;
    try {
      bound = kind.bind(doc.root());
    } catch (IllegalArgumentException e) {
      return new Checked(doc, kind, e, null, null, List.of());
    }
    bound = withReferences(kind, bound, referenced);
    Object model = kind.defaults(bound, options);
    Finding notOurs = kind.renderedElsewhere(model);
    if (notOurs != null) {
      return new Checked(doc, kind, null, model, notOurs, List.of());
    }
    return new Checked(doc, kind, null, model, null, kind.validate(model));
  }

  /**
   * {@code bound} given the documents of {@code kind}'s referenced kinds among {@code documents}
   * and its referenced defaults ({@link JobKind#withReferences}); as it is for a kind that refers
   * to none.
   */
  <J> J withReferences(JobKind<J, ?, ?> kind, J bound, List<Document> documents) {
    if (kind.referencedKinds().isEmpty()) {
      return bound;
    }
    return kind.withReferences(bound, referencedBy(kind, documents), referencedDefaults(kind));
  }

  /** The documents of {@code kind}'s referenced kinds among {@code documents}, in their order. */
  private static List<Document> referencedBy(JobKind<?, ?, ?> kind, List<Document> documents) {
    return documents.stream()
        .filter(
            d ->
                kind.group().equals(group(apiVersion(d)))
                    && kind.referencedKinds().contains(kindName(d)))
        .toList();
  }

  /** {@code kind}'s {@link JobKind#referencedDefaults}, loaded on first use and kept. */
  private List<Document> referencedDefaults(JobKind<?, ?, ?> kind) {
    return referencedDefaults.computeIfAbsent(
        kind,
        k -> {
          List<Document> loaded = new ArrayList<>();
          for (Source s : k.referencedDefaults()) {
            // no golden case: jobc's own files, which load without a finding (TrainJobKindTest).
            loaded.addAll(loader.load(s).documents());
          }
          return List.copyOf(loaded);
        });
  }

  /**
   * The first job, in input order, at which the jobs' estimated output passes the run's budget,
   * located at what makes it so large; null when all of them fit.
   */
  private Diagnostic plannedOutput(List<Accepted> ready) {
    long planned = 0;
    for (Accepted job : ready) {
      OutputSize.Estimate e = job.kind().outputSize(job.model());
      planned = OutputSize.plus(planned, e.chars());
      if (planned > runOutputChars) {
        String budget = "the " + ApiLimits.mib(runOutputChars) + " jobc renders in one run";
        return locate(
            job.doc(),
            Finding.error(
                Code.LIMIT,
                e.cause(),
                e.chars() > runOutputChars
                    ? "this job would render about "
                        + ApiLimits.mib(e.chars())
                        + " ("
                        + e.detail()
                        + "), more than "
                        + budget
                    : "the jobs up to this one would render about "
                        + ApiLimits.mib(planned)
                        + " together (this one "
                        + ApiLimits.mib(e.chars())
                        + "), more than "
                        + budget
                        + "; render fewer jobs at a time"));
      }
    }
    return null;
  }

  /**
   * Steps 6, 7 and 9 for one job: its objects as text, written straight from the objects where the
   * writer can ({@link YamlWriter#writeObject}), else from their trees.
   */
  private List<Rendered> generate(Accepted job) {
    List<Rendered> objects = new ArrayList<>();
    for (HasMetadata object : job.kind().generate(job.kind().plan(job.model()))) {
      String yaml = writer.writeObject(object);
      if (yaml != null) {
        objects.add(Rendered.of(object, job.doc(), yaml));
      } else {
        ObjectNode tree = ObjectTrees.tree(object);
        objects.add(Rendered.of(tree, true, job.doc(), writer.write(tree, true)));
      }
    }
    return objects;
  }

  /**
   * {@code step} applied to each item, results in the items' order. Jobs don't depend on each other
   * until the output is ordered, so with several items the common pool's threads share them; what
   * each returns is the same on any thread, and callers merge results in order, so the output does
   * not depend on the schedule.
   */
  private static <T, R> List<R> each(List<T> items, Function<T, R> step) {
    return (items.size() < 2 ? items.stream() : items.parallelStream()).map(step).toList();
  }

  /**
   * Sorts {@code diagnostics} in {@link Diagnostic#ORDER} and drops repeats: two checks that find
   * the same problem (the schema's required field, a kind's own rule) print it once.
   */
  private static void sortDistinct(List<Diagnostic> diagnostics) {
    diagnostics.sort(Diagnostic.ORDER);
    int kept = 0;
    for (int i = 0; i < diagnostics.size(); i++) {
      Diagnostic d = diagnostics.get(i);
      if (kept == 0 || !d.equals(diagnostics.get(kept - 1))) {
        diagnostics.set(kept++, d);
      }
    }
    diagnostics.subList(kept, diagnostics.size()).clear();
  }

  /** The JSON Schema text used for an input kind, or {@code null} when the kind is not accepted. */
  public String schema(String apiVersion, String kind) {
    return schemas.supports(apiVersion, kind) ? schemas.schemaText(apiVersion, kind) : null;
  }

  /**
   * The registered kinds, in registration order: tests that run each kind's steps one by one take
   * them from here, so a kind added to the list above is checked without being named again.
   */
  List<JobKind<?, ?, ?>> kinds() {
    return kinds;
  }

  /** Every accepted (apiVersion, kind), for help texts: {@code kubeflow.org/v2beta1 MPIJob}. */
  public List<String> acceptedKinds() {
    return kinds.stream()
        .flatMap(k -> k.apiVersions().stream().map(v -> v + " " + k.kind()))
        .toList();
  }

  /**
   * Every (apiVersion, kind) with a schema: the accepted kinds, then the documents they refer to (a
   * TrainJob's runtimes), each of the referring kind's API versions.
   */
  public List<String> schemaKinds() {
    List<String> out = new ArrayList<>(acceptedKinds());
    for (JobKind<?, ?, ?> k : kinds) {
      for (String referenced : k.referencedKinds()) {
        for (String v : k.apiVersions()) {
          out.add(v + " " + referenced);
        }
      }
    }
    return out;
  }

  /** What becomes of one document: compiled as a job, passed through, or refused. */
  public enum Disposition {
    JOB,
    /** Read by the jobs that refer to it (a TrainJob's runtime), not written out. */
    REFERENCED,
    PASS_THROUGH,
    REJECTED
  }

  /**
   * One document's disposition and the findings behind it (field paths, no positions): the one
   * judgement every channel makes on a document before compiling it, so that {@code jobc krm}
   * refuses exactly what {@code jobc render} refuses.
   */
  public record Screening(Disposition disposition, List<Finding> findings) {}

  /** A job that passed bind and defaults: its kind and model, for plan and generate. */
  private record Accepted(JobKind<Object, Object, Object> kind, Object model, Document doc) {}

  /**
   * One output object: its identity, whether Flux may substitute in it, its text, and why the API
   * server would refuse it for its size ({@code tooLarge}, null when it would not).
   */
  private record Rendered(
      String apiVersion,
      String kind,
      String namespace,
      String name,
      boolean fluxDisabled,
      boolean canonical,
      Document origin,
      String yaml,
      String tooLarge) {

    static Rendered of(JsonNode tree, boolean canonical, Document origin, String yaml) {
      JsonNode meta = tree.path("metadata");
      String kind = tree.path("kind").asText();
      String name = meta.path("name").asText();
      long configMap =
          isConfigMap(tree.path("apiVersion").asText(), kind)
              ? textBytes(tree.path("data")) + textBytes(tree.path("binaryData")) * 3 / 4
              : 0;
      return new Rendered(
          tree.path("apiVersion").asText(),
          kind,
          meta.path("namespace").asText(""),
          name,
          FluxSubstitution.disabled(tree),
          canonical,
          origin,
          yaml,
          ApiLimits.problem(kind, name, yaml, textBytes(meta.path("annotations")), configMap));
    }

    /** A generated object written without a tree: the same fields, read from the object. */
    static Rendered of(HasMetadata object, Document origin, String yaml) {
      ObjectMeta meta = object.getMetadata();
      String kind = Objects.toString(object.getKind(), "");
      String name = meta == null ? "" : Objects.toString(meta.getName(), "");
      long configMap =
          object instanceof ConfigMap c
              ? ApiLimits.bytes(c.getData()) + binaryBytes(c.getBinaryData())
              : 0;
      return new Rendered(
          Objects.toString(object.getApiVersion(), ""),
          kind,
          meta == null ? "" : Objects.toString(meta.getNamespace(), ""),
          name,
          meta != null && FluxSubstitution.disabled(meta.getAnnotations(), meta.getLabels()),
          true,
          origin,
          yaml,
          ApiLimits.problem(
              kind,
              name,
              yaml,
              meta == null ? 0 : ApiLimits.bytes(meta.getAnnotations()),
              configMap));
    }

    private static boolean isConfigMap(String apiVersion, String kind) {
      return apiVersion.equals("v1") && kind.equals("ConfigMap");
    }

    /** Keys and text values of a mapping in UTF-8 bytes (base64 counts as text here). */
    private static long textBytes(JsonNode map) {
      long n = 0;
      for (var e : map.properties()) {
        n += ApiLimits.bytes(e.getKey()) + ApiLimits.bytes(e.getValue().asText());
      }
      return n;
    }

    private static long binaryBytes(Map<String, String> base64) {
      return base64 == null ? 0 : ApiLimits.bytes(base64) * 3 / 4;
    }
  }

  /** A job document after bind, defaults and validation; see {@link #check}. */
  private record Checked(
      Document doc,
      JobKind<Object, Object, Object> kind,
      IllegalArgumentException unbound,
      Object model,
      Finding notOurs,
      List<Finding> findings) {}

  /** The kind of an accepted job document ({@link #classify} returned {@code JOB}). */
  @SuppressWarnings("unchecked") // the kind's values only ever flow back into that kind
  private JobKind<Object, Object, Object> kindOf(Document doc) {
    return (JobKind<Object, Object, Object>) find(kindName(doc), group(apiVersion(doc)));
  }

  private JobKind<?, ?, ?> find(String kind, String group) {
    for (JobKind<?, ?, ?> k : kinds) {
      if (k.kind().equals(kind) && k.group().equals(group)) {
        return k;
      }
    }
    return null;
  }

  private Disposition classify(Document doc, List<Diagnostic> diagnostics) {
    Screening screening = screen(doc.root());
    screening.findings().forEach(f -> diagnostics.add(locate(doc, f)));
    return screening.disposition();
  }

  /**
   * Judges one document's root: a job of a registered kind, an object to pass through, or neither.
   */
  public Screening screen(JsonNode root) {
    List<Finding> header = ObjectIdentity.header(root);
    if (!header.isEmpty()) {
      List<Finding> findings = new ArrayList<>(header);
      String kind = root.path("kind").asText();
      if (root.isObject() && kinds.stream().noneMatch(k -> k.kind().equals(kind))) {
        // Not a job either way: say all that is wrong with it as a passed-through document.
        findings.addAll(ObjectIdentity.passThrough(root));
      }
      return new Screening(Disposition.REJECTED, findings);
    }
    String kind = root.path("kind").asText();
    String apiVersion = root.path("apiVersion").asText();
    JobKind<?, ?, ?> jobKind = find(kind, group(apiVersion));
    if (jobKind != null) {
      if (schemas.supports(apiVersion, kind) && jobKind.apiVersions().contains(apiVersion)) {
        return new Screening(Disposition.JOB, List.of());
      }
      return new Screening(
          Disposition.REJECTED,
          List.of(unsupportedVersion(apiVersion, kind, jobKind.apiVersions())));
    }
    for (JobKind<?, ?, ?> k : kinds) {
      if (k.group().equals(group(apiVersion)) && k.referencedKinds().contains(kind)) {
        if (schemas.supports(apiVersion, kind)) {
          return new Screening(Disposition.REFERENCED, List.of());
        }
        return new Screening(
            Disposition.REJECTED, List.of(unsupportedVersion(apiVersion, kind, k.apiVersions())));
      }
    }
    // A near miss of a job kind is an error: passed through, the job would never run.
    List<Finding> misspelt = KindSpelling.check(kinds, apiVersion, kind);
    if (!misspelt.isEmpty()) {
      return new Screening(Disposition.REJECTED, misspelt);
    }
    List<Finding> identity = ObjectIdentity.passThrough(root);
    if (!identity.isEmpty()) {
      return new Screening(Disposition.REJECTED, identity);
    }
    return new Screening(Disposition.PASS_THROUGH, List.of());
  }

  /** A known kind in an API version jobc does not read. */
  private static Finding unsupportedVersion(String apiVersion, String kind, List<String> versions) {
    return Finding.error(
        Code.NOT_SUPPORTED,
        FieldPath.of("apiVersion"),
        "Unsupported value: "
            + Quoting.quote(apiVersion)
            + ": supported values for "
            + kind
            + ": "
            + versions.stream().map(Quoting::quote).collect(Collectors.joining(", ")));
  }

  private static String kindName(Document doc) {
    return doc.root().path("kind").asText();
  }

  private static String apiVersion(Document doc) {
    return doc.root().path("apiVersion").asText();
  }

  /** The API group of an apiVersion: {@code kubeflow.org/v1} → {@code kubeflow.org}, core → "". */
  private static String group(String apiVersion) {
    int slash = apiVersion.indexOf('/');
    return slash < 0 ? "" : apiVersion.substring(0, slash);
  }

  /** Places a finding: at the field's key when it names a field, at the value for bad values. */
  private static Diagnostic locate(Document doc, Finding f) {
    Position at =
        f.code() == Code.INVALID || f.code() == Code.NOT_SUPPORTED || f.code() == Code.SCHEMA
            ? doc.positions().valueAt(f.path())
            : doc.positions().at(f.path());
    return new Diagnostic(
        f.severity(),
        f.code(),
        doc.source().name(),
        at.line(),
        at.column(),
        f.path().toString(),
        f.message());
  }

  private static String firstLine(Exception e) {
    String m = String.valueOf(e.getMessage());
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }
}
