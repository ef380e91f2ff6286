package dev.jobc.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The sample of golden cases a fuzzing run starts from. */
class GoldenSeedsTest {
  private static final List<String> CASES =
      List.of("dgl-a", "dgl-b", "mpi-a", "mpi-b", "mpi-c", "tf-a", "tf-b", "tf-c", "tf-d", "tf-e");

  @Test
  void aSampleIsSpreadOverTheCasesAndTheSameEachTime() {
    assertThat(GoldenSeeds.sample(CASES, 4)).containsExactly("dgl-a", "mpi-a", "tf-a", "tf-c");
    assertThat(GoldenSeeds.sample(CASES, 9)).doesNotHaveDuplicates().hasSize(9);
  }

  @Test
  void noLimitOrAHigherOneTakesEveryCase() {
    assertThat(GoldenSeeds.sample(CASES, 0)).isEqualTo(CASES);
    assertThat(GoldenSeeds.sample(CASES, 10)).isEqualTo(CASES);
    assertThat(GoldenSeeds.sample(CASES, 11)).isEqualTo(CASES);
  }
}
