#!/usr/bin/env bash
# Times `bin/jobc render` against `kubectl kustomize` over the same objects, side by side.
#
# It renders examples/*.yaml plus N generated copies of the mpi-operator `pi` MPIJob once with
# `bin/jobc render -o DIR`, writes DIR/kustomization.yaml listing the rendered objects, then
# alternates R timed runs of each command (stdout to /dev/null) and prints the median wall times
# and their ratio. Both commands start a fresh process every run, so JVM start-up is included on
# purpose: that is what a GitOps tool or a pre-commit hook pays.
#
# With -f it also times bench/target/benchmarks.jar's LibraryFloor over the same inputs: a process
# that only starts the JVM, parses arguments with picocli, loads the YAML, runs the JSON Schema
# check and renders one FreeMarker template, with a class-data archive as bin/jobc has. That is the
# start-up floor of jobc's libraries, without any of jobc's own work; it prints jobc / floor too.
#
# Issue 14's targets: `-1 -f` (one job: jobc / floor <= 1.3) and `-n 200` (200 jobs: jobc /
# kustomize <= 0.2).
#
# Builds nothing: bin/jobc (and, with -f, the bench jar) must already work.
# Usage: bench/cli-bench.sh [-n COPIES] [-r RUNS] [-1] [-f] [-s | --smoke]
#   -n  generated pi jobs besides examples/*.yaml (default 50)
#   -r  timed runs of each command (default 10)
#   -1  one job: examples/pi.yaml alone (the README's first command), nothing generated
#   -f  also time the library floor
#   -s, --smoke  -n 2 -r 1, and -f when bench/target/benchmarks.jar exists: checks that the bench
#       works (every command exits 0, kustomize prints every rendered object), measures nothing
set -euo pipefail

# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
smoke_args "$@"
set -- "${SMOKE_ARGS[@]+"${SMOKE_ARGS[@]}"}"

copies=50
runs=10
floor=0
one=0
smoke=0
while getopts "n:r:1fsh" opt; do
  case "$opt" in
    n) copies=$OPTARG ;;
    r) runs=$OPTARG ;;
    1) one=1 ;;
    f) floor=1 ;;
    s) smoke=1 ;;
    *) usage; exit 2 ;;
  esac
done
if ((smoke)); then
  copies=2 runs=1
  [[ -f $(dirname "${BASH_SOURCE[0]}")/target/benchmarks.jar ]] && floor=1
fi
if ((one)); then copies=0; fi
[[ $copies =~ ^[0-9]+$ && $runs =~ ^[1-9][0-9]*$ ]] || { echo "cli-bench: -n and -r take numbers" >&2; exit 2; }

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
jobc=bin/jobc
[[ -x $jobc ]] || { echo "cli-bench: $jobc is missing or not executable" >&2; exit 2; }
command -v kubectl >/dev/null || { echo "cli-bench: kubectl is not on the PATH" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# N copies of the pi job (bench/lib.sh), distinct names.
mkdir -p "$work/generated"
for ((i = 1; i <= copies; i++)); do
  name=$(printf 'pi-%04d' "$i")
  pi_job "$name" 2 >"$work/generated/$name.yaml"
done

inputs=()
if ((one)); then
  inputs=(examples/pi.yaml)
elif [[ -d examples ]]; then
  while IFS= read -r f; do inputs+=("$f"); done < <(find examples -maxdepth 1 -type f \( -name '*.yaml' -o -name '*.yml' \) | LC_ALL=C sort)
fi
while IFS= read -r f; do inputs+=("$f"); done < <(find "$work/generated" -type f -name '*.yaml' | LC_ALL=C sort)
[[ ${#inputs[@]} -gt 0 ]] || { echo "cli-bench: no inputs" >&2; exit 2; }
# Jobs without metadata.namespace need one; the examples may leave it out.
render=("$jobc" render --namespace default "${inputs[@]}")

out="$work/rendered"
mkdir -p "$out"
"${render[@]}" -o "$out" >/dev/null
{
  echo "apiVersion: kustomize.config.k8s.io/v1beta1"
  echo "kind: Kustomization"
  echo "resources:"
  find "$out" -maxdepth 1 -type f -name '*.yaml' ! -name kustomization.yaml -printf '%f\n' | LC_ALL=C sort | sed 's/^/- /'
} > "$out/kustomization.yaml"
objects=$(($(wc -l < "$out/kustomization.yaml") - 3))
# Every rendered object must come out of kustomize, so that neither side measures an error path.
kustomized=$(kubectl kustomize "$out" | grep -c '^kind: ' || true)
if ((objects == 0 || kustomized != objects)); then
  echo "cli-bench: jobc rendered $objects objects and kubectl kustomize printed $kustomized" >&2
  exit 1
fi

floor_cmd=()
if ((floor)); then
  bench_jar=bench/target/benchmarks.jar
  [[ -f $bench_jar ]] || { echo "cli-bench: $bench_jar is missing (mvn -B -pl bench -am package -DskipTests)" >&2; exit 2; }
  java=${JAVA_HOME:+$JAVA_HOME/bin/}java
  # The same class-data technique bin/jobc uses on this JDK: an AOT cache from 25 on, else AppCDS.
  feature=$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = \([0-9]*\).*/\1/p')
  if ((feature >= 25)); then create=-XX:AOTCacheOutput use=-XX:AOTCache; else create=-XX:ArchiveClassesAtExit use=-XX:SharedArchiveFile; fi
  # The JVM flags bin/jobc runs with, so that the floor differs from jobc by jobc's own work only.
  flags=(-XX:TieredStopAtLevel=1 -XX:CICompilerCount=1 -XX:+UseSerialGC -Xlog:disable -Xlog:all=warning:stderr)
  "$java" "$create=$work/floor.archive" "${flags[@]}" -cp "$bench_jar" dev.jobc.bench.LibraryFloor "${inputs[@]}" >/dev/null 2>&1
  floor_cmd=("$java" "$use=$work/floor.archive" "${flags[@]}" -cp "$bench_jar" dev.jobc.bench.LibraryFloor "${inputs[@]}")
  "${floor_cmd[@]}" >/dev/null
fi

now_ns() { date +%s%N; }
# Prints the wall time of one run of "$@" in milliseconds (stdout discarded, failures fatal).
time_ms() {
  local start end
  start=$(now_ns)
  "$@" >/dev/null
  end=$(now_ns)
  awk -v d=$((end - start)) 'BEGIN { printf "%.1f\n", d / 1e6 }'
}

if ((one)); then what="examples/pi.yaml only"; else what="$copies generated pi jobs + examples/"; fi
echo "JDK: $("${JAVA_HOME:+$JAVA_HOME/bin/}java" -version 2>&1 | sed -n 1p)"
echo "inputs: ${#inputs[@]} files ($what), $objects rendered objects, $runs runs each"
jobc_times=()
kust_times=()
floor_times=()
# Alternate the commands so that machine noise hits them alike.
for ((r = 1; r <= runs; r++)); do
  jobc_times+=("$(time_ms "${render[@]}")")
  kust_times+=("$(time_ms kubectl kustomize "$out")")
  printf 'run %2d: jobc render %8s ms   kubectl kustomize %8s ms' "$r" "${jobc_times[-1]}" "${kust_times[-1]}"
  if ((floor)); then
    floor_times+=("$(time_ms "${floor_cmd[@]}")")
    printf '   library floor %8s ms' "${floor_times[-1]}"
  fi
  printf '\n'
done

jobc_median=$(printf '%s\n' "${jobc_times[@]}" | median)
kust_median=$(printf '%s\n' "${kust_times[@]}" | median)
printf 'median wall time: jobc render %s ms, kubectl kustomize %s ms\n' "$jobc_median" "$kust_median"
target=""
((copies == 200)) && target=" (issue 14 target c: <= 0.2)"
printf 'ratio jobc/kustomize %s%s\n' "$(ratio "$jobc_median" "$kust_median")" "$target"
if ((floor)); then
  floor_median=$(printf '%s\n' "${floor_times[@]}" | median)
  printf 'median wall time: library floor %s ms, ratio floor/kustomize %s\n' \
    "$floor_median" "$(ratio "$floor_median" "$kust_median")"
  target=""
  ((one)) && target=" (issue 14 target b: <= 1.3)"
  printf 'ratio jobc/floor %s%s\n' "$(ratio "$jobc_median" "$floor_median")" "$target"
fi
