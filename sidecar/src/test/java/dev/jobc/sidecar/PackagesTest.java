package dev.jobc.sidecar;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The sidecar's packages and their layers, each depending only on those below it: the API access
 * ({@code client}, the only package that speaks HTTP or TLS, needing nothing of the run-time logic
 * around it), what every command is built from ({@code base}), one package per run-time concern
 * (MPI's launcher and scaler, DGL's waits and release, the training-operator family's outcome),
 * none of which needs another, and {@link Main}, the jar's entry point, which alone knows them all.
 */
class PackagesTest {
  private static final String CLIENT = SidecarApiCalls.CLIENT;
  private static final String BASE = SidecarApiCalls.PACKAGE + ".base";

  /** One package per run-time concern. */
  static final List<String> CONCERNS =
      List.of(
          SidecarApiCalls.PACKAGE + ".mpi",
          SidecarApiCalls.PACKAGE + ".dgl",
          SidecarApiCalls.PACKAGE + ".replicas");

  private static final JavaClasses SIDECAR =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages(SidecarApiCalls.PACKAGE);

  @Test
  void eachLayerNeedsOnlyTheLayersBelowIt() {
    layeredArchitecture()
        .consideringOnlyDependenciesInLayers()
        .layer("Main")
        .definedBy(SidecarApiCalls.PACKAGE)
        .layer("Concerns")
        .definedBy(CONCERNS.stream().map(c -> c + "..").toArray(String[]::new))
        .layer("Base")
        .definedBy(BASE + "..")
        .layer("Client")
        .definedBy(CLIENT + "..")
        .whereLayer("Main")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("Concerns")
        .mayOnlyBeAccessedByLayers("Main")
        .whereLayer("Base")
        .mayOnlyBeAccessedByLayers("Concerns", "Main")
        .whereLayer("Client")
        .mayOnlyBeAccessedByLayers("Base", "Concerns", "Main")
        .check(SIDECAR);
  }

  @Test
  void noConcernNeedsAnother() {
    for (String concern : CONCERNS) {
      noClasses()
          .that()
          .resideInAPackage(concern + "..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              CONCERNS.stream()
                  .filter(c -> !c.equals(concern))
                  .map(c -> c + "..")
                  .toArray(String[]::new))
          .check(SIDECAR);
    }
  }

  /** A new package is a new layer or concern, named here: none escapes the rules above. */
  @Test
  void everyClassIsInALayer() {
    List<String> packages = new java.util.ArrayList<>(List.of(runTime()));
    packages.add(CLIENT + "..");
    classes().should().resideInAnyPackage(packages.toArray(String[]::new)).check(SIDECAR);
    classes()
        .that()
        .resideInAPackage(SidecarApiCalls.PACKAGE)
        .should()
        .haveNameMatching(
            java.util.regex.Pattern.quote(Main.class.getName()) + "(\\$.*)?|.*\\.package-info")
        .because("the root package is the entry point alone")
        .check(SIDECAR);
  }

  @Test
  void onlyTheClientSpeaksHttpOrTls() {
    noClasses()
        .that()
        .resideOutsideOfPackage(CLIENT + "..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("java.net.http..", "javax.net..", "com.sun.net.httpserver..")
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("java.net.HttpURLConnection")
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("java.net.URLConnection")
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("java.net.Socket")
        .check(SIDECAR);
  }

  /**
   * The JDK's client completes every {@code sendAsync} on the common fork-join pool ({@link
   * OwnThread} says why): no sidecar code, and no test that runs one, may park a thread of that
   * pool, so nothing is started there.
   */
  @Test
  void nothingRunsOnTheCommonPoolTheClientCompletesOn() {
    noClasses()
        .should()
        .callMethod(CompletableFuture.class, "supplyAsync", Supplier.class)
        .orShould()
        .callMethod(CompletableFuture.class, "runAsync", Runnable.class)
        .orShould()
        .callMethod(ForkJoinPool.class, "commonPool")
        .check(new ClassFileImporter().importPackages(SidecarApiCalls.PACKAGE));
  }

  @Test
  void theClientNeedsNothingOfTheRunTime() {
    noClasses()
        .that()
        .resideInAPackage(CLIENT + "..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(runTime())
        .check(SIDECAR);
  }

  /** Every package but the client's. */
  private static String[] runTime() {
    List<String> out = new java.util.ArrayList<>(List.of(SidecarApiCalls.PACKAGE, BASE + ".."));
    CONCERNS.forEach(c -> out.add(c + ".."));
    return out.toArray(String[]::new);
  }
}
