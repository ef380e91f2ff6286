package dev.jobc.golden;

/** The XGBoostJob cases. See {@link KindCases}. */
final class XGBoostJobCases extends KindCases {
  XGBoostJobCases() {
    super("xgboostjob-");
  }
}
