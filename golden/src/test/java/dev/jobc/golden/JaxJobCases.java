package dev.jobc.golden;

/** The JAXJob cases. See {@link KindCases}. */
final class JaxJobCases extends KindCases {
  JaxJobCases() {
    super("jaxjob-");
  }
}
