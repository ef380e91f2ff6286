package dev.jobc.golden;

/** The PaddleJob cases. See {@link KindCases}. */
final class PaddleJobCases extends KindCases {
  PaddleJobCases() {
    super("paddlejob-");
  }
}
