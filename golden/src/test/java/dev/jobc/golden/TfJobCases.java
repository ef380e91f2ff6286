package dev.jobc.golden;

/** The TFJob cases. See {@link KindCases}. */
final class TfJobCases extends KindCases {
  TfJobCases() {
    super("tfjob-");
  }
}
