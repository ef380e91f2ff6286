package dev.jobc.golden;

/** The PyTorchJob cases. See {@link KindCases}. */
final class PyTorchJobCases extends KindCases {
  PyTorchJobCases() {
    super("pytorchjob-");
  }
}
