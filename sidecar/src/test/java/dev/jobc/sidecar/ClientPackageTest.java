package dev.jobc.sidecar;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
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
