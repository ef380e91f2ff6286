package dev.jobc;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The compiler's layers, lowest first: shared values; the steps that parse, check, bind and write
 * YAML; what every kind shares; the kinds; the pipeline that runs them. An import may only run down
 * this list, packages have no cycles, and no kind imports another, so a new kind is one package
 * plus its registration in {@link ManifestCompiler}.
 */
class ArchitectureTest {
  /** Every kind's package; a new kind adds its own. */
  private static final List<String> KINDS =
      List.of("dev.jobc.mpi..", "dev.jobc.dgl..", "dev.jobc.tf..");

  private static final JavaClasses CLASSES =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.jobc");

  @Test
  void importsRunDownTheLayers() {
    layeredArchitecture()
        .consideringOnlyDependenciesInLayers()
        .layer("Pipeline")
        .definedBy("dev.jobc")
        .layer("Kinds")
        .definedBy(KINDS.toArray(String[]::new))
        .layer("Shared")
        .definedBy("dev.jobc.kind..", "dev.jobc.k8s..", "dev.jobc.validate..")
        .layer("Render")
        .definedBy("dev.jobc.render..")
        .layer("Bind")
        .definedBy("dev.jobc.bind..")
        .layer("Schema")
        .definedBy("dev.jobc.schema..")
        .layer("Load")
        .definedBy("dev.jobc.load..")
        .layer("Values")
        .definedBy(
            "dev.jobc.diag..", "dev.jobc.model..", "dev.jobc.options..", "dev.jobc.conventions..")
        .whereLayer("Pipeline")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("Kinds")
        .mayOnlyBeAccessedByLayers("Pipeline")
        .whereLayer("Shared")
        .mayOnlyBeAccessedByLayers("Pipeline", "Kinds")
        .whereLayer("Render")
        .mayOnlyBeAccessedByLayers("Pipeline", "Kinds", "Shared")
        .whereLayer("Bind")
        .mayOnlyBeAccessedByLayers("Pipeline", "Kinds", "Shared", "Render")
        .whereLayer("Schema")
        .mayOnlyBeAccessedByLayers("Pipeline", "Kinds", "Shared", "Render", "Bind")
        .whereLayer("Load")
        .mayOnlyBeAccessedByLayers("Pipeline", "Kinds", "Shared", "Render", "Bind", "Schema")
        .check(CLASSES);
  }

  @Test
  void packagesHaveNoCycles() {
    slices().matching("dev.jobc.(*)..").should().beFreeOfCycles().check(CLASSES);
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
}
