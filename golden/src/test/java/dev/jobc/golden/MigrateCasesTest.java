package dev.jobc.golden;

import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs every case of {@code golden/migrate-cases} through {@code jobc migrate}, the entry point of
 * the command line, as {@link GoldenCasesTest} runs golden/cases through {@code jobc render}: the
 * output byte for byte, twice the same, and the canonical writer a fixed point of {@code
 * expected.yaml}. System properties {@code golden.migrate.dir} (set by golden/pom.xml), {@code
 * golden.migrate.case} and {@code golden.migrate.update}.
 */
class MigrateCasesTest {
  @TestFactory
  Stream<DynamicTest> cases() {
    return GoldenCasesTest.cases("golden.migrate", GoldenCase.MIGRATE);
  }
}
