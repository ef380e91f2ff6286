package dev.jobc.golden;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The golden cases of one kind (the cases whose names start with {@link #prefix}), each rendered
 * once and compared with its expectation: what mutation testing runs against the compiler's classes
 * (profile {@code mutation}, DEVELOPERS.md). Split by kind, a mutant of the TFJob validator makes
 * PIT run the TFJob cases, not all of them.
 *
 * <p>PIT starts a process for each mutated class, and there its JUnit 5 plugin lists the tests of
 * each test class by running the whole class (PIT 1.30.2, {@code MutationTestMinion
 * .findTestsForTestClasses}; pitest-junit5-plugin 1.2.3, {@code JUnit5TestUnitFinder}), before any
 * mutant is in place and without looking at the outcome. Called from there, only the first case
 * runs, which loads and warms up the compiler before PIT times each mutant's tests; the others
 * return at once, where running them would cost every such process seconds. Anywhere else (PIT's
 * coverage run, each mutant's run, surefire) every case is compared.
 *
 * <p>Surefire does not run these classes (their names do not end in {@code Test}): {@link
 * GoldenCasesTest} runs every case, twice, and checks the writer's fixed point, which a change to
 * the compiler cannot break. {@link KindCasesTest} checks that every case has its kind here.
 */
abstract class KindCases {
  /** One instance of each class, in the order of their prefixes. */
  static final List<KindCases> ALL =
      List.of(
          new DglJobCases(),
          new InputCases(),
          new JaxJobCases(),
          new MpiJobCases(),
          new PaddleJobCases(),
          new PassthroughCases(),
          new PyTorchJobCases(),
          new TfJobCases(),
          new TrainJobCases(),
          new XGBoostJobCases());

  /** The caller that lists a mutation process's tests, named as in PIT 1.30.2. */
  private static final String LISTER_CLASS = "org.pitest.mutationtest.execute.MutationTestMinion";

  private static final String LISTER_METHOD = "findTestsForTestClasses";

  /**
   * The cases, found once per JVM: PIT runs one dynamic test by calling the factory, which would
   * otherwise list every case directory again for each mutant and case.
   */
  private static List<GoldenCase> cases;

  /** Whether the listing has run its one case (see the class comment). */
  private static final AtomicBoolean WARMED_UP = new AtomicBoolean();

  private final String prefix;

  KindCases(String prefix) {
    this.prefix = prefix;
  }

  /** The start of the names of this kind's cases, such as {@code "tfjob-"}. */
  final String prefix() {
    return prefix;
  }

  @TestFactory
  Stream<DynamicTest> cases() {
    return discovered().stream()
        .filter(c -> c.name().startsWith(prefix))
        .map(
            c ->
                DynamicTest.dynamicTest(
                    c.name(),
                    () -> {
                      if (!calledByLister() || WARMED_UP.compareAndSet(false, true)) {
                        GoldenCasesTest.compare(c);
                      }
                    }));
  }

  private static synchronized List<GoldenCase> discovered() {
    if (cases == null) {
      cases = GoldenCase.discover(GoldenCasesTest.casesDir(), false);
    }
    return cases;
  }

  /** Whether PIT's mutation process is listing tests (see the class comment). */
  static boolean calledByLister() {
    return StackWalker.getInstance()
        .walk(
            frames ->
                frames.anyMatch(
                    f ->
                        f.getClassName().equals(LISTER_CLASS)
                            && f.getMethodName().equals(LISTER_METHOD)));
  }
}
