package dev.jobc.golden;

/** The MPIJob cases. See {@link KindCases}. */
final class MpiJobCases extends KindCases {
  MpiJobCases() {
    super("mpijob-");
  }
}
