package dev.jobc.golden;

/** The TrainJob cases. See {@link KindCases}. */
final class TrainJobCases extends KindCases {
  TrainJobCases() {
    super("trainjob-");
  }
}
