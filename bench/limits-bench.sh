#!/usr/bin/env bash
# Issue 22's promise: any input ends in a located error or a correct render within 10 s and 1 GiB
# peak RSS. Each case here is an input made to cost as much as it can (the probes of issue 22 and
# the largest input under each of jobc's limits, model.Budget); each is run once through bin/jobc
# as a user runs it, its exit code and the line that must say why are checked (so that a crash
# cannot pass for a refusal), and its wall time and peak RSS are read from outside the JVM: python3
# starts the process and reads the kernel's figures for it (wait4: ru_maxrss, what
# `/usr/bin/time -v` prints as "Maximum resident set size"; bin/jobc execs its JVM, so that is
# jobc's). Full mode fails when a case takes more than 10 s or 1 GiB; smoke mode runs the cases
# with small inputs (each still reaches its limit: the limits are fixed, the inputs that reach
# them need not be large) and asserts only the outcomes and the 1 GiB.
#
# Builds nothing: bin/jobc must already work. Needs python3 and truncate.
# Usage: bench/limits-bench.sh [-s | --smoke] [CASE...]
#   -s, --smoke  the cheap cases only (about 15 s): checks that the bench works
#   CASE         run only these cases (names as printed)
set -euo pipefail
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

smoke=0
only=()
for a in "$@"; do
  case "$a" in
    -s | --smoke) smoke=1 ;;
    -h | --help) usage; exit 0 ;;
    -*) echo "limits-bench: unknown option $a" >&2; exit 2 ;;
    *) only+=("$a") ;;
  esac
done

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
jobc=$root/bin/jobc
[[ -x $jobc ]] || { echo "limits-bench: $jobc is missing or not executable" >&2; exit 2; }
command -v python3 >/dev/null || { echo "limits-bench: python3 is not on the PATH" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# gen.py CASE FILE: writes the input of CASE.
cat >"$work/gen.py" <<'EOF'
import sys

case, out = sys.argv[1], sys.argv[2]

def container(name, image="example.com/x:1", indent=10):
    pad = " " * indent
    return f"{pad}containers:\n{pad}- name: {name}\n{pad}  image: {image}\n"

def tfjob(workers, name="t"):
    return (f"apiVersion: kubeflow.org/v1\nkind: TFJob\nmetadata:\n  name: {name}\n  namespace: ns\n"
            f"spec:\n  tfReplicaSpecs:\n    Worker:\n      replicas: {workers}\n      template:\n"
            f"        spec:\n" + container("tensorflow"))

def dgljob(workers):
    return ("apiVersion: qihoo.net/v1alpha1\nkind: DGLJob\nmetadata:\n"
            "  name: graphsage-on-ogbn-papers100m\n  namespace: training\n"
            "spec:\n  dglReplicaSpecs:\n    Launcher:\n      replicas: 1\n      template:\n        spec:\n"
            "          containers:\n          - name: dgl\n            image: example.com/dgl:1\n"
            "            command: [dglrun]\n"
            f"    Worker:\n      replicas: {workers}\n      template:\n        spec:\n"
            + container("dgl"))

def mpijob(workers, env_value=None, indent=0):
    env = ""
    if env_value is not None:
        env = f"            env:\n            - name: BIG\n              value: {env_value}\n"
    text = ("apiVersion: kubeflow.org/v2beta1\nkind: MPIJob\nmetadata:\n  name: pi\n  namespace: default\n"
            "spec:\n  mpiReplicaSpecs:\n    Launcher:\n      replicas: 1\n      template:\n        spec:\n"
            "          containers:\n          - name: launcher\n            image: example.com/mpi:1\n"
            + env +
            f"    Worker:\n      replicas: {workers}\n      template:\n        spec:\n"
            + container("worker"))
    return "".join(" " * indent + line if line else line for line in text.splitlines(True))

def configmap(name, data):
    return f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}\ndata:\n{data}"

def aliases(docs):
    # Each document is under every per-document limit; the stream is far over the per-source ones.
    anchor = "[" + ",".join(["x"] * 100) + "]"
    refs = "[" + ",".join(["*a"] * 100) + "]"
    return "---\n".join(configmap(f"c{i}", f"  a: &a {anchor}\n  b: {refs}\n") for i in range(docs))

def long_key(length, items):
    return configmap("x", f"  ? {'k' * length}\n  : [{','.join(['a'] * items)}]\n")

def dense(items):
    return configmap("x", f"  a: [{','.join(['a'] * items)}]\n")

def krm(env_chars):
    return ("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n"
            + mpijob(2, "x" * env_chars, indent=2).replace("  apiVersion", "- apiVersion", 1))

cases = {
    "aliases-2000-docs": lambda: aliases(2000),
    "aliases-9-docs": lambda: aliases(9),
    "long-key-100k-over-100k-items": lambda: long_key(100_000, 100_000),
    "long-key-10k-over-10k-items": lambda: long_key(10_000, 10_000),
    "nesting-400k": lambda: "[" * 400_000,
    "nesting-3.9m": lambda: "[" * 3_900_000,
    "nesting-4k": lambda: "[" * 4_000,
    "scalar-3.9m": lambda: configmap("x", f"  a: {'x' * 3_900_000}\n"),
    "scalar-over-4m": lambda: configmap("x", f"  a: {'x' * 4_200_000}\n"),
    "list-499k-items": lambda: dense(499_000),
    "list-1m-items": lambda: dense(1_000_000),
    "tfjob-100000-replicas": lambda: tfjob(100_000),
    "tfjob-3000-workers": lambda: tfjob(3_000),
    "tfjob-5000-workers": lambda: tfjob(5_000),
    "tfjob-800-workers": lambda: tfjob(800),
    "tfjob-2-workers": lambda: tfjob(2),
    "dgljob-12000-workers": lambda: dgljob(12_000),
    "mpijob-100000-workers": lambda: mpijob(100_000),
    "mpijob-12000-workers": lambda: mpijob(12_000),
    "krm-env-3mb": lambda: krm(3_000_000),
    "krm-env-200kb": lambda: krm(200_000),
}
if case.startswith("sources-"):
    # Three sources, each under the per-source node limit, the run over its own.
    for i in range(3):
        with open(f"{out}.{i}.yaml", "w") as f:
            f.write(dense(400_000).replace("name: x", f"name: x{i}"))
    sys.exit(0)
with open(out, "w") as f:
    f.write(cases[case]())
EOF

# run.py OUT CMD...: runs CMD with stdout to OUT and stderr to OUT.err; prints "EXIT WALL_MS
# MAXRSS_KIB".
cat >"$work/run.py" <<'EOF'
import os, subprocess, sys, time
out = sys.argv[1]
with open(out, "wb") as stdout, open(out + ".err", "wb") as stderr:
    start = time.perf_counter()
    child = subprocess.Popen(sys.argv[2:], stdout=stdout, stderr=stderr)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
print("%d %.0f %d" % (os.waitstatus_to_exitcode(status), wall * 1000, usage.ru_maxrss))
EOF

# The cases: NAME SMOKE EXIT WHAT, then the command after --. WHAT is a fixed string that must be
# in the output (stdout and stderr); SMOKE=1 runs it in smoke mode too. {in} is the generated input,
# {dir} an output directory rendered before the case.
cases=(
  # Issue 22's probes, as filed.
  "aliases-2000-docs|0|1|alias expansion exceeds 100000 nodes in one source|render {in}"
  "long-key-100k-over-100k-items|0|0|kind: ConfigMap|render {in}"
  "nesting-400k|1|1|nesting is deeper than 100 levels|render {in}"
  "nesting-3.9m|0|1|nesting is deeper than 100 levels|render {in}"
  "scalar-3.9m|0|0|kind: ConfigMap|render {in}"
  "tfjob-100000-replicas|1|1|TF_CONFIG|render {in}"
  "tfjob-3000-workers|1|1|jobc renders in one run|render {in}"
  "dgljob-12000-workers|1|1|ConfigMap|render {in}"
  "krm-env-3mb|0|1|(MAX_ARG_STRLEN)|krm < {in}"
  "check-1.5gb-file|1|1|longer than any file jobc writes|render --check {dir} {in}"
  # The largest input under each limit, and the smallest over it.
  "aliases-9-docs|1|0|name: c8|render {in}"
  "long-key-10k-over-10k-items|1|0|kind: ConfigMap|render {in}"
  "nesting-4k|1|1|nesting is deeper than 100 levels|render {in}"
  "scalar-over-4m|0|1|longer than 4000000 characters|render {in}"
  "list-499k-items|0|0|kind: ConfigMap|render {in}"
  "list-1m-items|0|1|more than 500000 YAML nodes|render {in}"
  "sources-3x400k-items|0|1|more than 1000000 YAML nodes|render {in}.0.yaml {in}.1.yaml {in}.2.yaml"
  "tfjob-5000-workers|1|1|TF_CONFIG|render {in}"
  "tfjob-800-workers|0|0|kind: Service|render {in}"
  "mpijob-100000-workers|0|1|ConfigMap|render {in}"
  "mpijob-12000-workers|0|0|kind: StatefulSet|render {in}"
  "krm-env-200kb|1|1|(MAX_ARG_STRLEN)|krm < {in}"
)

# Once unmeasured: bin/jobc builds its jar when the sources are newer, and its class-data archive.
"$jobc" version >/dev/null
echo "JDK: $("${JAVA_HOME:+$JAVA_HOME/bin/}java" -version 2>&1 | sed -n 1p)"
mode=full
((smoke)) && mode=smoke
echo "mode: $mode; ceiling: 10 s wall and 1 GiB peak RSS per case${smoke:+}"
printf '%-32s %4s %9s %9s  %s\n' case exit wall_ms rss_mib outcome
failed=0 ran=0
for c in "${cases[@]}"; do
  IFS='|' read -r name cheap want what command <<<"$c"
  if ((${#only[@]})); then
    [[ " ${only[*]} " == *" $name "* ]] || continue
  elif ((smoke && !cheap)); then
    continue
  fi
  ran=$((ran + 1))
  in=$work/$name.yaml
  python3 "$work/gen.py" "${name/check-1.5gb-file/tfjob-2-workers}" "$in"
  dir=$work/$name.out
  if [[ $name == check-1.5gb-file ]]; then
    # A listed file grown to 1.5 GB (sparse: no disk): --check compares it with a bound.
    "$jobc" render -o "$dir" "$in" >/dev/null 2>&1
    truncate -s 1500M "$dir/$(ls "$dir" | head -n 1)"
  fi
  command=${command//\{in\}/$in}
  command=${command//\{dir\}/$dir}
  if [[ $command == *" < "* ]]; then
    read -r exit ms kib < <(python3 "$work/run.py" "$work/$name.log" sh -c "exec \"\$0\" ${command}" "$jobc")
  else
    # shellcheck disable=SC2086 # the case's words
    read -r exit ms kib < <(python3 "$work/run.py" "$work/$name.log" "$jobc" $command)
  fi
  mib=$(awk -v k="$kib" 'BEGIN { printf "%.1f", k / 1024 }')
  outcome=ok
  if [[ $exit != "$want" ]]; then
    outcome="FAILED: exit $exit, want $want"
  elif ! grep -qF -- "$what" "$work/$name.log" "$work/$name.log.err"; then
    outcome="FAILED: no \"$what\" in its output"
  elif ((kib > 1024 * 1024)); then
    outcome="FAILED: peak RSS over 1 GiB"
  elif ((!smoke && ms > 10000)); then
    outcome="FAILED: over 10 s"
  fi
  printf '%-32s %4s %9s %9s  %s\n' "$name" "$exit" "$ms" "$mib" "$outcome"
  if [[ $outcome != ok ]]; then
    failed=$((failed + 1))
    sed -n '1,5p' "$work/$name.log.err" | cut -c1-300 >&2
  fi
  rm -rf "$in" "$in".*.yaml "$dir" "$work/$name.log" "$work/$name.log.err"
done
((ran)) || { echo "limits-bench: no such case: ${only[*]}" >&2; exit 2; }
echo "$ran cases, $failed failed"
((failed == 0))
