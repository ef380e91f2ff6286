package dev.jobc.golden;

/** The cases of input that is no job: YAML and kind errors. See {@link KindCases}. */
final class InputCases extends KindCases {
  InputCases() {
    super("input-");
  }
}
