package dev.jobc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's pre-commit configuration under the real pre-commit, in a throw-away repository. The
 * hook repository is a commit of this checkout's .pre-commit-hooks.yaml, because pre-commit clones
 * hooks from a repository and the README names the published one.
 */
class PreCommitIT {
  @TempDir Path tmp;

  @BeforeAll
  static void tools() {
    ExternalCommand.require("pre-commit");
    ExternalCommand.require("git");
  }

  @Test
  void newOrStaleRenderFailsAndIsRewrittenCurrentPassesInvalidFails() throws IOException {
    Path hooks = tmp.resolve("hooks");
    Files.createDirectories(hooks);
    Files.copy(
        ExternalCommand.root().resolve(".pre-commit-hooks.yaml"),
        hooks.resolve(".pre-commit-hooks.yaml"));
    git(hooks, "init", "-q");
    git(hooks, "add", "-A");
    git(hooks, "commit", "-q", "-m", "hooks");
    String rev = git(hooks, "rev-parse", "HEAD").out().strip();

    String config = ReadmeSnippets.get("pre-commit");
    assertThat(config).contains("repo: https://github.com/jobc-dev/jobc").contains("rev: v0.1.0");
    config =
        config
            .replace("repo: https://github.com/jobc-dev/jobc", "repo: " + hooks)
            .replace("rev: v0.1.0", "rev: " + rev);

    Path repo = tmp.resolve("repo");
    Files.createDirectories(repo.resolve("jobs"));
    Files.writeString(repo.resolve(".pre-commit-config.yaml"), config);
    String pi = Files.readString(ExternalCommand.root().resolve("examples/pi.yaml"));
    Files.writeString(repo.resolve("jobs/pi.yaml"), pi);
    // A TFJob next to it (no channel option gives a namespace here: the job names its own).
    Files.writeString(
        repo.resolve("jobs/mnist.yaml"),
        ChannelInputs.tfJob()
            .replace("  name: \"mnist\"\n", "  name: mnist\n  namespace: training\n"));
    git(repo, "init", "-q");
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "jobs");

    // A new job: every rendered file is new, and pre-commit sees no tracked file change.
    ExternalCommand first = preCommit(repo);
    assertThat(first.exitCode()).as(first.toString()).isOne();
    assertThat(first.out())
        .contains("jobc: rendered/job-pi-launcher.yaml: added")
        .contains("jobc: rendered/job-mnist-ps-0.yaml: added")
        .contains("jobc: error: rendered changed");
    assertThat(Files.readString(repo.resolve("rendered/job-mnist-worker-1.yaml")))
        .contains("\\\"task\\\":{\\\"type\\\":\\\"worker\\\",\\\"index\\\":1}");
    assertThat(Files.readString(repo.resolve("rendered/job-pi-launcher.yaml")))
        .startsWith("apiVersion: batch/v1\nkind: Job\n");
    git(repo, "add", "-A");
    ExternalCommand current = preCommit(repo);
    assertThat(current.exitCode()).as(current.toString()).isZero();
    assertThat(current.out()).contains("Passed");
    git(repo, "commit", "-q", "-m", "rendered");

    // A changed job: the committed render is stale.
    Files.writeString(repo.resolve("jobs/pi.yaml"), pi.replace("replicas: 2", "replicas: 3"));
    git(repo, "add", "-A");
    ExternalCommand stale = preCommit(repo);
    assertThat(stale.exitCode()).as(stale.toString()).isOne();
    assertThat(stale.out())
        .contains("jobc: rendered/statefulset-pi-worker.yaml: changed")
        .contains("files were modified by this hook");
    assertThat(Files.readString(repo.resolve("rendered/statefulset-pi-worker.yaml")))
        .contains("replicas: 3");
    git(repo, "add", "-A");
    assertThat(preCommit(repo).exitCode()).isZero();
    git(repo, "commit", "-q", "-m", "three workers");

    // Another new job next to a committed render.
    Files.writeString(repo.resolve("jobs/pj.yaml"), pi.replace("name: pi\n", "name: pj\n"));
    git(repo, "add", "-A");
    ExternalCommand added = preCommit(repo);
    assertThat(added.exitCode()).as(added.toString()).isOne();
    assertThat(added.out()).contains("jobc: rendered/job-pj-launcher.yaml: added");
    assertThat(git(repo, "status", "--porcelain", "--", "rendered").out())
        .contains("?? rendered/job-pj-launcher.yaml");
    git(repo, "add", "-A");
    assertThat(preCommit(repo).exitCode()).isZero();

    git(repo, "commit", "-q", "-m", "second job");

    // A deleted job, as a commit stages it: only a deletion, no file for a files filter to match.
    git(repo, "rm", "-q", "jobs/pj.yaml");
    ExternalCommand deleted = preCommitStaged(repo);
    assertThat(deleted.exitCode()).as(deleted.toString()).isOne();
    assertThat(deleted.out()).contains("jobc: rendered/job-pj-launcher.yaml: removed");
    assertThat(repo.resolve("rendered/job-pj-launcher.yaml")).doesNotExist();
    git(repo, "add", "-A");
    assertThat(preCommitStaged(repo).exitCode()).isZero();
    git(repo, "commit", "-q", "-m", "second job gone");

    Files.writeString(repo.resolve("jobs/pi.yaml"), pi.replace("slotsPerWorker", "slotPerWorker"));
    git(repo, "add", "-A");
    ExternalCommand invalid = preCommit(repo);
    assertThat(invalid.exitCode()).as(invalid.toString()).isOne();
    assertThat(invalid.out())
        .contains("jobs/pi.yaml:9:3: error: spec.slotPerWorker: unknown field \"slotPerWorker\"");
    // Nothing is written on errors: the render stays as it was added.
    assertThat(git(repo, "diff", "--name-only", "--", "rendered").out()).isEmpty();
    assertThat(git(repo, "ls-files", "--others", "--", "rendered").out()).isEmpty();
  }

  private ExternalCommand preCommit(Path repo) {
    Map<String, String> env = new HashMap<>(gitEnv());
    env.put("PATH", ExternalCommand.pathWithBin());
    env.put("PRE_COMMIT_HOME", tmp.resolve("pre-commit-home").toString());
    return ExternalCommand.run(
        repo, env, "", List.of("pre-commit", "run", "--all-files", "--color", "never"));
  }

  /** As {@code git commit} runs the hook: on the staged files only. */
  private ExternalCommand preCommitStaged(Path repo) {
    Map<String, String> env = new HashMap<>(gitEnv());
    env.put("PATH", ExternalCommand.pathWithBin());
    env.put("PRE_COMMIT_HOME", tmp.resolve("pre-commit-home").toString());
    return ExternalCommand.run(repo, env, "", List.of("pre-commit", "run", "--color", "never"));
  }

  private ExternalCommand git(Path dir, String... args) {
    List<String> command = new java.util.ArrayList<>(List.of("git"));
    command.addAll(List.of(args));
    ExternalCommand run = ExternalCommand.run(dir, gitEnv(), "", command);
    assertThat(run.exitCode()).as(run.toString()).isZero();
    return run;
  }

  /** An identity and no user or system configuration, so the machine's git setup is irrelevant. */
  private Map<String, String> gitEnv() {
    return Map.of(
        "GIT_AUTHOR_NAME", "test",
        "GIT_AUTHOR_EMAIL", "test@example.com",
        "GIT_COMMITTER_NAME", "test",
        "GIT_COMMITTER_EMAIL", "test@example.com",
        "GIT_CONFIG_GLOBAL", "/dev/null",
        "GIT_CONFIG_NOSYSTEM", "1",
        "HOME", tmp.toString());
  }
}
