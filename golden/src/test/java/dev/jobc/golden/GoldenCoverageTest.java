package dev.jobc.golden;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.AccessTarget.CodeUnitAccessTarget;
import com.tngtech.archunit.core.domain.AccessTarget.CodeUnitCallTarget;
import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaCodeUnitReference;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.SourceCodeLocation;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import dev.jobc.ManifestCompiler;
import dev.jobc.diag.Diagnostic;
import dev.jobc.diag.Finding;
import dev.jobc.diag.Origins;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Every rule of the compiler has a golden case: each place in the code that makes a finding or a
 * diagnostic, directly or through a helper, made one while the golden cases (golden/cases, and
 * golden/migrate-cases for {@code jobc migrate}) ran.
 *
 * <p>The places are read from the compiler's class files: every call of a method or constructor
 * that makes a {@link Finding} or {@link Diagnostic} (found transitively, so a call of a shared
 * helper such as {@code FieldRules.oneOf} is a rule of its caller), with its source line. The
 * places that did make one are the source lines on the stack as each was made ({@link Origins}, on
 * in this module's tests). A new validator, kind or package is found without being named here.
 *
 * <p>A rule no input can reach (a defect of jobc, say) carries the comment {@value #EXEMPT} and
 * why, on the lines just above its statement; such a rule that a case does reach fails too.
 */
class GoldenCoverageTest {
  static final String EXEMPT = "// no golden case:";

  /**
   * The package of the finding and diagnostic factories (before {@link #RULES}, which reads it).
   */
  private static final String DIAG = Finding.class.getPackageName();

  /** The compiler's sources, to quote a rule and read its exemption. */
  private static final Path SOURCES =
      Path.of(System.getProperty("golden.dir", "cases"))
          .toAbsolutePath()
          .resolve("../../compiler/src/main/java")
          .normalize();

  /** A call that makes a finding: its {@code package/File.java:line} and where it is. */
  record Rule(String line, String method, String target) {}

  /** The rules of the compiler on the class path, found once for both tests. */
  private static final Map<String, Rule> RULES = rules(compilerClasses());

  @Test
  void everyRuleOfTheCompilerHasAGoldenCase() {
    assertThat(Origins.recording())
        .as("golden/pom.xml runs the tests with -Djobc.diag.origins=true")
        .isTrue();
    Map<String, Rule> rules = RULES;
    assertThat(rules).as("rules found in the compiler's class files").hasSizeGreaterThan(100);

    Set<String> made = madeByTheGoldenCases();
    List<String> missing = new ArrayList<>();
    List<String> staleExemptions = new ArrayList<>();
    for (Rule rule : rules.values()) {
      boolean exempt = exempt(rule);
      boolean covered = made.contains(rule.line());
      if (!covered && !exempt) {
        missing.add(describe(rule));
      } else if (covered && exempt) {
        staleExemptions.add(describe(rule));
      }
    }
    assertThat(missing)
        .as(
            "rules no golden case reaches (add a case under golden/cases, checked against upstream,"
                + " or mark the rule \"%s why\" when no input can reach it)",
            EXEMPT)
        .isEmpty();
    assertThat(staleExemptions)
        .as("rules marked \"%s\" that a golden case reaches: remove the mark", EXEMPT)
        .isEmpty();
  }

  /** The checker itself: it finds rules of every kind and helper, and knows where they are. */
  @Test
  void rulesAreFoundThroughHelpersAndLambdas() {
    Map<String, Rule> rules = RULES;
    List<String> files =
        rules.keySet().stream().map(line -> line.substring(0, line.lastIndexOf(':'))).toList();
    assertThat(files)
        .contains(
            "dev/jobc/ManifestCompiler.java",
            "dev/jobc/load/YamlLoader.java",
            "dev/jobc/mpi/MpiJobValidator.java",
            "dev/jobc/dgl/DglJobValidator.java",
            "dev/jobc/tf/TfJobValidator.java",
            "dev/jobc/validate/FieldRules.java");
    // A helper's callers are rules of their own: the validators call FieldRules.
    assertThat(rules.values())
        .filteredOn(r -> r.target().startsWith("dev.jobc.validate.FieldRules."))
        .extracting(r -> r.line().substring(0, r.line().indexOf('/', "dev/jobc/".length())))
        .contains("dev/jobc/mpi", "dev/jobc/tf", "dev/jobc/dgl");
    for (Rule rule : rules.values()) {
      assertThat(source(rule.line())).as(rule.toString()).isNotBlank();
    }
  }

  /**
   * Runs every golden case as {@link GoldenCasesTest} and {@link MigrateCasesTest} do and returns
   * the lines that made one.
   */
  private static Set<String> madeByTheGoldenCases() {
    String dir = System.getProperty("golden.dir");
    assertThat(dir).as("golden.dir (set by golden/pom.xml)").isNotBlank();
    Origins.clear();
    List<GoldenCase> cases = new ArrayList<>(GoldenCase.discover(Path.of(dir), false));
    String migrate = System.getProperty("golden.migrate.dir");
    assertThat(migrate).as("golden.migrate.dir (set by golden/pom.xml)").isNotBlank();
    cases.addAll(GoldenCase.discover(Path.of(migrate), false, GoldenCase.MIGRATE));
    for (GoldenCase c : cases) {
      GoldenCasesTest.Run run = GoldenCasesTest.run(c.dir(), c.arguments());
      assertThat(run.crash()).as(c.name()).isEmpty();
    }
    return Origins.lines();
  }

  private static JavaClasses compilerClasses() {
    return new ClassFileImporter()
        .importUrl(ManifestCompiler.class.getProtectionDomain().getCodeSource().getLocation());
  }

  /**
   * The rules of the compiler's classes, by source line: each call that decides to make a finding
   * or a diagnostic. A code unit makes one when it constructs one, calls a code unit that does, or
   * calls an abstract one that an implementation (or a method reference of the same parameters)
   * makes one in. A call of such a unit is a rule when the message is decided there: a call of the
   * {@code diag} factories, of another class's helper ({@code FieldRules.oneOf}), or of one of its
   * own class's that takes the message and makes one finding ({@code error(code, path, message)});
   * a call of its own class's plumbing ({@code attach(node)}, {@code number(text)}) is not, the
   * rules inside it are.
   */
  static Map<String, Rule> rules(JavaClasses classes) {
    Makers makers = new Makers();
    for (JavaClass c : classes) {
      if (c.isEquivalentTo(Finding.class) || c.isEquivalentTo(Diagnostic.class)) {
        c.getConstructors().forEach(makers::add);
      }
    }
    for (boolean grew = true; grew; ) {
      grew = false;
      for (JavaClass c : classes) {
        for (JavaCodeUnit unit : c.getCodeUnits()) {
          for (JavaCodeUnitReference<?> ref : unit.getCodeUnitReferencesFromSelf()) {
            if (makers.makes(ref.getTarget())) {
              grew |= makers.referenced(ref.getTarget());
            }
          }
          if (!makers.contains(unit)
              && unit.getCallsFromSelf().stream()
                  .anyMatch(call -> makers.makes(call.getTarget()))) {
            makers.add(unit);
            grew = true;
          }
        }
      }
    }
    Map<String, Rule> rules = new TreeMap<>();
    for (JavaClass c : classes) {
      if (c.getPackageName().equals(DIAG)) {
        continue; // the factories themselves
      }
      for (JavaCodeUnit unit : c.getCodeUnits()) {
        for (JavaCall<?> call : unit.getCallsFromSelf()) {
          CodeUnitCallTarget target = call.getTarget();
          if (makers.makes(target) && decidesTheMessage(c, target, makers)) {
            String line = line(call.getSourceCodeLocation());
            rules.putIfAbsent(line, new Rule(line, unit.getFullName(), target.getFullName()));
          }
        }
      }
    }
    return rules;
  }

  private static boolean decidesTheMessage(
      JavaClass caller, CodeUnitCallTarget target, Makers makers) {
    JavaClass callee = target.getOwner();
    if (callee.getPackageName().equals(DIAG) || !topLevel(callee).equals(topLevel(caller))) {
      return true;
    }
    // An abstract one (ScalarTyping.Problems.fail) is a factory handed in.
    return target.getRawParameterTypes().stream().anyMatch(t -> t.isEquivalentTo(String.class))
        && target
            .resolveMember()
            .map(
                m ->
                    m.getModifiers().contains(JavaModifier.ABSTRACT) || makingLines(m, makers) == 1)
            .orElse(false);
  }

  /** On how many source lines a code unit calls a maker. */
  private static long makingLines(JavaCodeUnit unit, Makers makers) {
    return unit.getCallsFromSelf().stream()
        .filter(call -> makers.makes(call.getTarget()))
        .map(call -> call.getSourceCodeLocation().getLineNumber())
        .distinct()
        .count();
  }

  private static JavaClass topLevel(JavaClass c) {
    JavaClass top = c;
    while (top.getEnclosingClass().isPresent()) {
      top = top.getEnclosingClass().get();
    }
    return top;
  }

  /** The code units known to make findings, by name; see {@link #rules}. */
  private static final class Makers {
    private final Set<JavaCodeUnit> units = new HashSet<>();
    private final Map<String, List<JavaCodeUnit>> byName = new HashMap<>();

    /** Parameter lists of makers that method references hand out as a functional interface. */
    private final Set<List<String>> referenced = new HashSet<>();

    void add(JavaCodeUnit unit) {
      units.add(unit);
      byName.computeIfAbsent(unit.getName(), n -> new ArrayList<>()).add(unit);
    }

    boolean contains(JavaCodeUnit unit) {
      return units.contains(unit);
    }

    /** Records a method reference to a maker; true when its parameter list is new. */
    boolean referenced(CodeUnitAccessTarget target) {
      return referenced.add(names(target.getRawParameterTypes()));
    }

    /** Targets known to make findings (a maker stays one as the set grows), by full name. */
    private final Set<String> known = new HashSet<>();

    boolean makes(CodeUnitAccessTarget target) {
      String key = target.getFullName();
      if (known.contains(key)) {
        return true;
      }
      List<JavaCodeUnit> candidates = byName.getOrDefault(target.getName(), List.of());
      List<String> parameters = names(target.getRawParameterTypes());
      boolean makes = false;
      for (JavaCodeUnit maker : candidates) {
        if (names(maker.getRawParameterTypes()).equals(parameters)
            && maker.getOwner().isAssignableTo(target.getOwner().getName())) {
          makes = true;
          break;
        }
      }
      makes =
          makes
              || referenced.contains(parameters)
                  && target.getOwner().isInterface()
                  && target
                      .resolveMember()
                      .map(m -> m.getModifiers().contains(JavaModifier.ABSTRACT))
                      .orElse(false);
      if (makes) {
        known.add(key);
      }
      return makes;
    }
  }

  private static List<String> names(List<JavaClass> types) {
    return types.stream().map(JavaClass::getName).toList();
  }

  /** {@code package/File.java:line}, as {@link Origins} records a stack frame. */
  private static String line(SourceCodeLocation at) {
    return at.getSourceClass().getPackageName().replace('.', '/')
        + "/"
        + at.getSourceFileName()
        + ":"
        + at.getLineNumber();
  }

  /** Whether the comment lines just above the rule's statement (or its own line) exempt it. */
  private static boolean exempt(Rule rule) {
    List<String> lines = lines(rule.line());
    int at = number(rule.line()) - 1;
    if (lines.get(at).contains(EXEMPT)) {
      return true;
    }
    for (int i = at - 1; i >= 0; i--) {
      String text = lines.get(i).strip();
      if (text.startsWith("//")) {
        if (text.startsWith(EXEMPT)) {
          return true;
        }
      } else if (text.endsWith(";") || text.endsWith("{") || text.endsWith("}")) {
        return false;
      }
    }
    return false;
  }

  private static String describe(Rule rule) {
    return rule.line() + " in " + shortName(rule.method()) + ": " + source(rule.line());
  }

  private static String shortName(String fullName) {
    String method = fullName.substring(0, fullName.indexOf('('));
    return method.substring(method.lastIndexOf('.', method.lastIndexOf('.') - 1) + 1);
  }

  /** The rule's source line and the rest of its statement, up to four lines. */
  private static String source(String line) {
    List<String> lines = lines(line);
    StringBuilder out = new StringBuilder();
    for (int i = number(line) - 1; i < Math.min(lines.size(), number(line) + 3); i++) {
      String text = lines.get(i).strip();
      out.append(out.length() == 0 ? "" : " ").append(text);
      if (text.endsWith(";") || text.endsWith("{")) {
        break;
      }
    }
    return out.toString();
  }

  private static final Map<String, List<String>> FILES = new HashMap<>();

  private static synchronized List<String> lines(String line) {
    String file = line.substring(0, line.lastIndexOf(':'));
    return FILES.computeIfAbsent(
        file,
        f -> {
          try {
            return Files.readAllLines(SOURCES.resolve(f));
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
  }

  private static int number(String line) {
    return Integer.parseInt(line.substring(line.lastIndexOf(':') + 1));
  }
}
