package dev.jobc.sidecar;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The API access is one package, {@code dev.jobc.sidecar.client}: the only one that speaks HTTP or
 * TLS, and one that needs nothing of the run-time logic around it.
 */
class ClientPackageTest {
  private static final String CLIENT = "dev.jobc.sidecar.client";

  private static final JavaClasses SIDECAR =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages(SidecarApiCalls.PACKAGE);

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
        .resideInAPackage(SidecarApiCalls.PACKAGE)
        .check(SIDECAR);
  }
}
