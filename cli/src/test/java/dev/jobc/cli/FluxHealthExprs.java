package dev.jobc.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cel.bundle.Cel;
import dev.cel.bundle.CelBuilder;
import dev.cel.bundle.CelFactory;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationException;
import dev.cel.common.types.SimpleType;
import dev.cel.extensions.CelExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One entry of a Flux Kustomization's {@code spec.healthCheckExprs}, evaluated as
 * kustomize-controller does (fluxcd/pkg, runtime/cel: {@code expression.go} builds the CEL
 * environment, {@code status_evaluator.go} the order): an object whose {@code
 * status.observedGeneration} differs from its generation is in progress; then {@code inProgress},
 * {@code failed} and {@code current} are tried in this order, the first true one decides, and none
 * true is in progress. An expression that does not evaluate to a boolean is an error, which kstatus
 * reports as Unknown (and Flux reads the object again until its timeout).
 *
 * <p>Flux parses without type checking, with the object's top-level fields as the variables;
 * cel-java evaluates only checked expressions, so the five fields of a Kubernetes object are
 * declared here as {@code dyn}, which checks nothing about them.
 */
record FluxHealthExprs(
    String apiVersion, String kind, String current, String failed, String inProgress) {

  /** The result: kstatus's status (Current, Failed, InProgress, Unknown), and an error if any. */
  record Result(String status, String error) {}

  static FluxHealthExprs of(JsonNode entry) {
    return new FluxHealthExprs(
        entry.path("apiVersion").asText(),
        entry.path("kind").asText(),
        entry.path("current").asText(""),
        entry.path("failed").asText(""),
        entry.path("inProgress").asText(""));
  }

  Result evaluate(JsonNode object) {
    if (current.isEmpty()) {
      throw new AssertionError("expression Current not specified");
    }
    JsonNode observed = object.path("status").path("observedGeneration");
    JsonNode generation = object.path("metadata").path("generation");
    if (observed.isNumber() && generation.isNumber() && observed.asLong() != generation.asLong()) {
      return new Result("InProgress", null);
    }
    Map<String, Object> variables = new LinkedHashMap<>();
    object.properties().forEach(e -> variables.put(e.getKey(), value(e.getValue())));
    String[][] order = {{inProgress, "InProgress"}, {failed, "Failed"}, {current, "Current"}};
    for (String[] step : order) {
      if (step[0].isEmpty()) {
        continue;
      }
      Object result;
      try {
        result = CEL.createProgram(compile(step[0])).eval(variables);
      } catch (CelEvaluationException e) {
        return new Result("Unknown", e.getMessage());
      }
      if (!(result instanceof Boolean)) {
        // cel-java returns an unknown set for a variable absent from the activation, where
        // cel-go fails with "no such attribute".
        return new Result(
            "Unknown",
            "failed to evaluate CEL expression as boolean: '" + step[0] + "': " + result);
      }
      if ((Boolean) result) {
        return new Result(step[1], null);
      }
    }
    return new Result("InProgress", null);
  }

  /**
   * Flux's environment: optional types, numbers compared across types, the strings, sets and
   * encoders extensions. Flux's HomogeneousAggregateLiterals only rejects literal lists and maps of
   * mixed types at parse time (cel-java has it as a deprecated option): the recipe has none.
   */
  private static final CelOptions OPTIONS =
      CelOptions.current()
          .enableOptionalSyntax(true)
          .enableHeterogeneousNumericComparisons(true)
          .build();

  private static final Cel CEL = cel();

  private static Cel cel() {
    CelBuilder builder =
        CelFactory.standardCelBuilder()
            .setOptions(OPTIONS)
            .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
            .addCompilerLibraries(
                CelExtensions.optional(),
                CelExtensions.strings(),
                CelExtensions.sets(OPTIONS),
                CelExtensions.encoders(OPTIONS))
            .addRuntimeLibraries(
                CelExtensions.optional(),
                CelExtensions.strings(),
                CelExtensions.sets(OPTIONS),
                CelExtensions.encoders(OPTIONS));
    for (String field : List.of("apiVersion", "kind", "metadata", "spec", "status")) {
      builder.addVar(field, SimpleType.DYN);
    }
    return builder.build();
  }

  private static CelAbstractSyntaxTree compile(String expression) {
    try {
      return CEL.compile(expression).getAst();
    } catch (CelValidationException e) {
      throw new AssertionError("failed to parse the CEL expression '" + expression + "'", e);
    }
  }

  /** JSON as the unstructured object Flux evaluates: maps, lists, strings, int64, float, bool. */
  private static Object value(JsonNode node) {
    if (node.isObject()) {
      Map<String, Object> map = new LinkedHashMap<>();
      node.properties().forEach(e -> map.put(e.getKey(), value(e.getValue())));
      return map;
    }
    if (node.isArray()) {
      List<Object> list = new ArrayList<>();
      node.forEach(item -> list.add(value(item)));
      return list;
    }
    if (node.isTextual()) {
      return node.asText();
    }
    if (node.isIntegralNumber()) {
      return node.longValue();
    }
    if (node.isNumber()) {
      return node.doubleValue();
    }
    if (node.isBoolean()) {
      return node.booleanValue();
    }
    throw new AssertionError("no CEL value for " + node.getNodeType());
  }
}
