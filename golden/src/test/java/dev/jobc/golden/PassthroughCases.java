package dev.jobc.golden;

/** The cases of objects passed through unchanged. See {@link KindCases}. */
final class PassthroughCases extends KindCases {
  PassthroughCases() {
    super("passthrough-");
  }
}
