package dev.jobc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The documentation's pre-commit configurations, as printed, under the real pre-commit and git,
 * with nothing of jobc on the PATH. The hook repository is a copy of this checkout's sources,
 * committed, its commit standing for the one the snippets pin; git's {@code url.<base>.insteadOf}
 * sends the snippets' repository URL there. pre-commit clones it, and the hooks' {@code bin/jobc}
 * builds jobc in that clone on first use, as it does for a user.
 */
class PreCommitIT {
  private static final String REPOSITORY = "https://github.com/jobc-dev/jobc";

  @TempDir Path tmp;

  @BeforeAll
  static void tools() {
    ExternalCommand.require("pre-commit");
    ExternalCommand.require("git");
  }

  @Test
  void commitsOfNewChangedAndDeletedJobsCarryTheirRenderAndCiChecksIt() throws IOException {
    String config = DocSnippets.get("pre-commit");
    String ciConfig = DocSnippets.get("pre-commit-ci");
    // Until a release is tagged the snippets pin a commit of main by its full hash (a tag that
    // does not exist fails pre-commit's clone); here the local copy's commit stands for it.
    java.util.regex.Pattern pin =
        java.util.regex.Pattern.compile("\n  rev: ([0-9a-f]{40})  # [^\n]+\n");
    java.util.regex.Matcher pinned = pin.matcher(config);
    assertThat(pinned.find()).as(config).isTrue();
    String commit = pinned.group(1);
    for (String snippet : List.of(config, ciConfig)) {
      assertThat(snippet).contains("- repo: " + REPOSITORY + "\n").contains("rev: " + commit);
    }
    String local = hookRepository(tmp.resolve("hooks"));
    config = config.replace(commit, local);

    Path repo = tmp.resolve("repo");
    Files.createDirectories(repo.resolve("jobs"));
    git(repo, "init", "-q");
    Files.writeString(repo.resolve(".pre-commit-config.yaml"), config);
    String pi = Files.readString(ExternalCommand.root().resolve("examples/pi.yaml"));
    Files.writeString(repo.resolve("jobs/pi.yaml"), pi);
    // A TFJob next to it (no channel option gives a namespace here: the job names its own).
    Files.writeString(
        repo.resolve("jobs/mnist.yaml"),
        ChannelInputs.tfJob()
            .replace("  name: \"mnist\"\n", "  name: mnist\n  namespace: training\n"));
    // And a job of each other training-operator kind.
    for (ChannelInputs.Example example : ChannelInputs.TRAINING_OPERATOR) {
      Files.writeString(repo.resolve("jobs").resolve(example.name()), example.text());
    }
    ExternalCommand install = run(repo, "pre-commit", "install");
    assertThat(install.exitCode()).as(install.toString()).isZero();

    // The first commit: the hook builds jobc in pre-commit's clone, renders the new job and stops
    // the commit, because every rendered file is new (pre-commit alone sees no tracked change).
    git(repo, "add", "-A");
    ExternalCommand first = commit(repo, "jobs");
    assertThat(first.exitCode()).as(first.toString()).isOne();
    assertThat(first.err())
        .contains("jobc: rendered/job-pi-launcher.yaml: added")
        .contains("jobc: rendered/job-mnist-ps-0.yaml: added")
        .contains("jobc: error: rendered changed")
        .doesNotContain("\u001b");
    assertThat(run(repo, "git", "rev-parse", "--verify", "-q", "HEAD").exitCode()).isOne();
    assertThat(Files.readString(repo.resolve("rendered/job-mnist-worker-1.yaml")))
        .contains("\\\"task\\\":{\\\"type\\\":\\\"worker\\\",\\\"index\\\":1}");
    assertThat(Files.readString(repo.resolve("rendered/job-pi-launcher.yaml")))
        .startsWith("apiVersion: batch/v1\nkind: Job\n");
    for (ChannelInputs.Example example : ChannelInputs.TRAINING_OPERATOR) {
      for (String id : example.objects()) {
        String file = "rendered/" + id.replace('/', '-').toLowerCase(Locale.ROOT) + ".yaml";
        assertThat(first.err()).contains("jobc: " + file + ": added");
      }
    }
    git(repo, "add", "-A");
    assertCommitted(repo, "jobs");
    assertThat(git(repo, "ls-files", "rendered").out())
        .contains("rendered/.jobc-files", "rendered/job-pi-launcher.yaml");

    // A changed job: the committed render is stale.
    Files.writeString(repo.resolve("jobs/pi.yaml"), pi.replace("replicas: 2", "replicas: 3"));
    git(repo, "add", "-A");
    ExternalCommand stale = commit(repo, "three workers");
    assertThat(stale.exitCode()).as(stale.toString()).isOne();
    assertThat(stale.err())
        .contains("jobc: rendered/statefulset-pi-worker.yaml: changed")
        .contains("files were modified by this hook");
    assertThat(Files.readString(repo.resolve("rendered/statefulset-pi-worker.yaml")))
        .contains("replicas: 3");
    git(repo, "add", "-A");
    assertCommitted(repo, "three workers");

    // Another new job next to a committed render.
    Files.writeString(repo.resolve("jobs/pj.yaml"), pi.replace("name: pi\n", "name: pj\n"));
    git(repo, "add", "-A");
    ExternalCommand added = commit(repo, "second job");
    assertThat(added.exitCode()).as(added.toString()).isOne();
    assertThat(added.err()).contains("jobc: rendered/job-pj-launcher.yaml: added");
    assertThat(git(repo, "status", "--porcelain", "--", "rendered").out())
        .contains("?? rendered/job-pj-launcher.yaml");
    git(repo, "add", "-A");
    assertCommitted(repo, "second job");

    // A deleted job: the commit stages only a deletion, no file for a files filter to match.
    git(repo, "rm", "-q", "jobs/pj.yaml");
    ExternalCommand deleted = commit(repo, "second job gone");
    assertThat(deleted.exitCode()).as(deleted.toString()).isOne();
    assertThat(deleted.err()).contains("jobc: rendered/job-pj-launcher.yaml: removed");
    assertThat(repo.resolve("rendered/job-pj-launcher.yaml")).doesNotExist();
    git(repo, "add", "-A");
    assertCommitted(repo, "second job gone");
    assertThat(git(repo, "ls-files", "rendered").out()).doesNotContain("pj");

    // An invalid job: its diagnostics, and nothing written.
    Files.writeString(repo.resolve("jobs/pi.yaml"), pi.replace("slotsPerWorker", "slotPerWorker"));
    git(repo, "add", "-A");
    ExternalCommand invalid = commit(repo, "typo");
    assertThat(invalid.exitCode()).as(invalid.toString()).isOne();
    assertThat(invalid.err())
        .contains("jobs/pi.yaml:9:3: error: spec.slotPerWorker: unknown field \"slotPerWorker\"");
    assertThat(git(repo, "status", "--porcelain", "--", "rendered").out()).isEmpty();

    // CI: the check-only hook over the committed tree passes, and fails on a stale render
    // without writing anything.
    git(repo, "reset", "-q", "--hard");
    Path ci = repo.resolve("ci-pre-commit-config.yaml");
    Files.writeString(ci, ciConfig.replace(commit, local));
    git(repo, "add", "-A");
    ExternalCommand current = run(repo, "pre-commit", "run", "--all-files", "-c", ci.toString());
    assertThat(current.exitCode()).as(current.toString()).isZero();
    assertThat(current.out()).contains("Passed");
    Files.writeString(repo.resolve("jobs/pi.yaml"), pi.replace("replicas: 2", "replicas: 4"));
    git(repo, "add", "-A");
    ExternalCommand drift = run(repo, "pre-commit", "run", "--all-files", "-c", ci.toString());
    assertThat(drift.exitCode()).as(drift.toString()).isOne();
    assertThat(drift.out()).contains("+  replicas: 4");
    assertThat(git(repo, "status", "--porcelain", "--", "rendered").out()).isEmpty();

    // The last jobs deleted: git keeps no empty directory, so jobs/ is gone with them. That means
    // no jobs: the hook empties rendered/ of jobc's files and says why, and CI's check agrees.
    git(repo, "reset", "-q", "--hard");
    git(repo, "rm", "-q", "-r", "jobs");
    assertThat(repo.resolve("jobs")).doesNotExist();
    ExternalCommand none = commit(repo, "no jobs");
    assertThat(none.exitCode()).as(none.toString()).isOne();
    assertThat(none.err())
        .contains("jobs/: note: does not exist; read as an empty directory")
        .contains("jobc: rendered/job-pi-launcher.yaml: removed")
        .contains("jobc: rendered/job-mnist-ps-0.yaml: removed")
        .contains("jobc: error: rendered changed");
    try (var files = Files.list(repo.resolve("rendered"))) {
      assertThat(files.map(f -> f.getFileName().toString())).containsExactly(".jobc-files");
    }
    git(repo, "add", "-A");
    assertCommitted(repo, "no jobs");
    assertThat(git(repo, "ls-files").out())
        .doesNotContain("jobs/")
        .contains("rendered/.jobc-files");
    Files.writeString(ci, ciConfig.replace(commit, local));
    git(repo, "add", "-A");
    ExternalCommand empty = run(repo, "pre-commit", "run", "--all-files", "-c", ci.toString());
    assertThat(empty.exitCode()).as(empty.toString()).isZero();
  }

  /** The checkout as it is now (tracked and new files, not ignored ones), committed and tagged. */
  private String hookRepository(Path dir) throws IOException {
    Path root = ExternalCommand.root();
    for (String file :
        git(root, "ls-files", "--cached", "--others", "--exclude-standard").out().split("\n")) {
      Path from = root.resolve(file);
      // bin/jobc-krm stays a link; a file deleted but not yet committed is left out.
      if (Files.exists(from, LinkOption.NOFOLLOW_LINKS)) {
        Path to = dir.resolve(file);
        Files.createDirectories(to.getParent());
        Files.copy(from, to, LinkOption.NOFOLLOW_LINKS, StandardCopyOption.COPY_ATTRIBUTES);
      }
    }
    git(dir, "init", "-q");
    git(dir, "add", "-A");
    git(dir, "commit", "-q", "-m", "jobc");
    return git(dir, "rev-parse", "HEAD").out().trim();
  }

  private void assertCommitted(Path repo, String message) {
    ExternalCommand commit = commit(repo, message);
    assertThat(commit.exitCode()).as(commit.toString()).isZero();
    // git gives hooks its stderr for their standard output too.
    assertThat(commit.err()).contains("jobc render").contains("Passed");
  }

  /** {@code git commit}, which runs the hooks {@code pre-commit install} put in place. */
  private ExternalCommand commit(Path repo, String message) {
    return run(repo, "git", "commit", "-q", "-m", message);
  }

  private ExternalCommand git(Path dir, String... args) {
    List<String> command = new ArrayList<>(List.of("git"));
    command.addAll(List.of(args));
    ExternalCommand run = run(dir, command.toArray(String[]::new));
    assertThat(run.exitCode()).as(run.toString()).isZero();
    return run;
  }

  private ExternalCommand run(Path dir, String... command) {
    return ExternalCommand.run(dir, env(), "", List.of(command));
  }

  /**
   * The machine's PATH (no jobc on it), an identity and no user or system git configuration but the
   * URL rewrite; pre-commit passes {@code GIT_CONFIG_COUNT} and its keys on to its own git calls.
   * HOME stays, so that the hooks' Maven finds the local repository.
   */
  private Map<String, String> env() {
    Map<String, String> env = new HashMap<>();
    env.put("GIT_AUTHOR_NAME", "test");
    env.put("GIT_AUTHOR_EMAIL", "test@example.com");
    env.put("GIT_COMMITTER_NAME", "test");
    env.put("GIT_COMMITTER_EMAIL", "test@example.com");
    env.put("GIT_CONFIG_GLOBAL", "/dev/null");
    env.put("GIT_CONFIG_NOSYSTEM", "1");
    env.put("GIT_CONFIG_COUNT", "1");
    env.put("GIT_CONFIG_KEY_0", "url." + tmp.resolve("hooks").toUri() + ".insteadOf");
    env.put("GIT_CONFIG_VALUE_0", REPOSITORY);
    env.put("PRE_COMMIT_HOME", tmp.resolve("pre-commit-home").toString());
    env.put("PRE_COMMIT_COLOR", "never");
    return env;
  }
}
