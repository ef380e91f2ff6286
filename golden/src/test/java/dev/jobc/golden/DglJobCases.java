package dev.jobc.golden;

/** The DGLJob cases. See {@link KindCases}. */
final class DglJobCases extends KindCases {
  DglJobCases() {
    super("dgljob-");
  }
}
