package dev.jobc;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import dev.jobc.conventions.Naming;
import java.net.URL;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The compiler's layers, lowest first: shared values; the steps that parse, check, bind and write
 * YAML; what every kind shares; the kinds; their migration to Trainer v2; the pipeline that runs
 * them. Every class of the compiler sits in one of them, an import may only run down this list,
 * packages (the root one included) have no cycles, and no kind imports another, so a new kind is
 * one package plus its registration in {@link ManifestCompiler}, which is where the kinds' packages
 * are taken from.
 */
class ArchitectureTest {
  /** Every registered kind's package. */
  private static final List<String> KINDS =
      new ManifestCompiler()
          .kinds().stream().map(k -> k.getClass().getPackageName() + "..").distinct().toList();

  /** The layers, highest first: each may import only the ones after it. */
  private static final Map<String, List<String>> LAYERS = layers();

  private static Map<String, List<String>> layers() {
    Map<String, List<String>> layers = new LinkedHashMap<>();
    layers.put("Pipeline", List.of("dev.jobc"));
    // jobc migrate: from the v1 kinds' models to Trainer v2's objects.
    layers.put("Migrate", List.of("dev.jobc.migrate.."));
    layers.put("Kinds", KINDS);
    layers.put(
        "Shared",
        List.of(
            "dev.jobc.kind..",
            "dev.jobc.k8s..",
            "dev.jobc.validate..",
            "dev.jobc.replica..",
            "dev.jobc.jobset.."));
    layers.put("Render", List.of("dev.jobc.render.."));
    layers.put("Bind", List.of("dev.jobc.bind.."));
    layers.put("Schema", List.of("dev.jobc.schema.."));
    layers.put("Load", List.of("dev.jobc.load.."));
    layers.put(
        "Values",
        List.of(
            "dev.jobc.diag..", "dev.jobc.model..", "dev.jobc.options..", "dev.jobc.conventions.."));
    return layers;
  }

  /** The compiler's own classes and the conventions it shares with the sidecar; no tests. */
  private static final JavaClasses CLASSES =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importUrls(List.of(location(ManifestCompiler.class), location(Naming.class)));

  private static URL location(Class<?> c) {
    return c.getProtectionDomain().getCodeSource().getLocation();
  }

  @Test
  void theCompilerAndTheConventionsAreImported() {
    assertThat(CLASSES.contain(ManifestCompiler.class)).isTrue();
    assertThat(CLASSES.contain(Naming.class)).isTrue();
    assertThat(KINDS).contains("dev.jobc.mpi..", "dev.jobc.dgl..", "dev.jobc.tf..");
  }

  /**
   * A package outside every layer would be outside every rule below: through it a kind could reach
   * the pipeline.
   */
  @Test
  void everyClassSitsInALayer() {
    classes()
        .should()
        .resideInAnyPackage(LAYERS.values().stream().flatMap(List::stream).toArray(String[]::new))
        .as("every class of the compiler sits in a layer of ArchitectureTest")
        .check(CLASSES);
  }

  @Test
  void importsRunDownTheLayers() {
    LayeredArchitecture layered = layeredArchitecture().consideringOnlyDependenciesInLayers();
    List<String> names = List.copyOf(LAYERS.keySet());
    for (String name : names) {
      layered = layered.layer(name).definedBy(LAYERS.get(name).toArray(String[]::new));
    }
    layered = layered.whereLayer(names.get(0)).mayNotBeAccessedByAnyLayer();
    for (int i = 1; i < names.size(); i++) {
      layered =
          layered
              .whereLayer(names.get(i))
              .mayOnlyBeAccessedByLayers(names.subList(0, i).toArray(String[]::new));
    }
    layered.check(CLASSES);
  }

  /** Each package one slice, the root package ({@link ManifestCompiler}'s) too. */
  @Test
  void packagesHaveNoCycles() {
    slices()
        .assignedFrom(
            new SliceAssignment() {
              @Override
              public SliceIdentifier getIdentifierOf(JavaClass c) {
                return SliceIdentifier.of(c.getPackageName());
              }

              @Override
              public String getDescription() {
                return "packages of dev.jobc";
              }
            })
        .should()
        .beFreeOfCycles()
        .check(CLASSES);
  }

  @Test
  void noKindImportsAnother() {
    for (String kind : KINDS) {
      for (String other : KINDS) {
        if (!kind.equals(other)) {
          noClasses()
              .that()
              .resideInAPackage(kind)
              .should()
              .dependOnClassesThat()
              .resideInAPackage(other)
              .check(CLASSES);
        }
      }
    }
  }

  @Test
  void onlyTheSchemaPackageUsesTheSchemaLibrary() {
    noClasses()
        .that()
        .resideOutsideOfPackage("dev.jobc.schema..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("com.networknt..")
        .check(CLASSES);
  }

  /** SnakeYAML (the parser under Jackson YAML, used directly) reads input in the load step only. */
  @Test
  void onlyTheLoadPackageUsesSnakeYaml() {
    noClasses()
        .that()
        .resideOutsideOfPackage("dev.jobc.load..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("org.yaml.snakeyaml..")
        .check(CLASSES);
  }
}
