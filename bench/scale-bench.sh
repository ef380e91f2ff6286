#!/usr/bin/env bash
# Issue 14 target d: one `bin/jobc render` of a large MPIJob against one of the 2-worker job, in
# the default StatefulSet mode: the large render's wall time must stay within 1.5× the small one's
# and its peak RSS within 128 MiB.
#
# It writes the mpi-operator `pi` job (bench/lib.sh pi_job, the input cli-bench.sh generates) with
# 2 workers and with WORKERS, renders each once and checks the output (exit 0; the StatefulSet has
# `replicas: WORKERS`; the hostfile and discover_hosts.sh list exactly WORKERS hosts), so that an
# error path cannot be measured. Then it alternates R runs of each render (stdout discarded), and
# prints every run, the median wall time of each, their ratio, and the peak RSS of each (the
# largest over its runs). Wall time and peak RSS are taken from outside the JVM: python3 starts
# each process and reads the kernel's figures for it (wait4: ru_maxrss, which covers the process
# and everything it waited for, so bin/jobc's shell and the JVM it execs).
#
# Builds nothing: bin/jobc must already work. Needs python3.
# Usage: bench/scale-bench.sh [-w WORKERS] [-r RUNS] [-s | --smoke]
#   -w  workers of the large job (default 10000)
#   -r  runs of each render (default 5)
#   -s, --smoke  200 workers, 1 run: checks that the bench works, measures nothing worth keeping
set -euo pipefail

# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
smoke_args "$@"
set -- "${SMOKE_ARGS[@]+"${SMOKE_ARGS[@]}"}"

workers=10000
runs=5
while getopts "w:r:sh" opt; do
  case "$opt" in
    w) workers=$OPTARG ;;
    r) runs=$OPTARG ;;
    s) workers=200 runs=1 ;;
    *) usage; exit 2 ;;
  esac
done
[[ $workers =~ ^[1-9][0-9]*$ && $runs =~ ^[1-9][0-9]*$ ]] || { echo "scale-bench: -w and -r take positive numbers" >&2; exit 2; }

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
jobc=bin/jobc
[[ -x $jobc ]] || { echo "scale-bench: $jobc is missing or not executable" >&2; exit 2; }
command -v python3 >/dev/null || { echo "scale-bench: python3 is not on the PATH" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# run.py OUT CMD...: runs CMD with stdout to OUT and stderr to OUT.err; prints "WALL_MS MAXRSS_KIB";
# exits 1, showing CMD's stderr, when CMD fails.
cat >"$work/run.py" <<'EOF'
import os, subprocess, sys, time
out = sys.argv[1]
with open(out, "wb") as stdout, open(out + ".err", "wb") as stderr:
    start = time.perf_counter()
    child = subprocess.Popen(sys.argv[2:], stdout=stdout, stderr=stderr)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
code = os.waitstatus_to_exitcode(status)
if code != 0:
    sys.stderr.write(open(out + ".err").read())
    sys.exit("scale-bench: %s exited %d" % (" ".join(sys.argv[2:]), code))
print("%.1f %d" % (wall * 1000, usage.ru_maxrss))  # ru_maxrss is in KiB on Linux
EOF

small=2
pi_job pi "$small" >"$work/small.yaml"
pi_job pi "$workers" >"$work/large.yaml"

# check N OUTPUT: the rendered stream of the N-worker job is the StatefulSet-mode result.
check() {
  local n=$1 out=$2 hosts echoes
  hosts=$(grep -cE '^ +pi-worker-[0-9]+\.pi\.default\.svc slots=2$' "$out" || true)
  echoes=$(grep -cE '^ +echo pi-worker-[0-9]+\.pi\.default\.svc$' "$out" || true)
  if [[ $hosts != "$n" || $echoes != "$n" ]] ||
    ! grep -qE "^ +pi-worker-$((n - 1))\.pi\.default\.svc slots=2$" "$out" ||
    ! awk -v n="$n" '/^---/ { sts = 0 } /^kind: StatefulSet$/ { sts = 1 } sts && $0 == "  replicas: " n { ok = 1 } END { exit !ok }' "$out"; then
    echo "scale-bench: the render of the $n-worker job is not what was expected: hostfile $hosts lines," \
      "discover_hosts.sh $echoes hosts, want $n, and a StatefulSet with replicas: $n" >&2
    exit 1
  fi
}
python3 "$work/run.py" "$work/small.out" "$jobc" render "$work/small.yaml" >/dev/null
check "$small" "$work/small.out"
python3 "$work/run.py" "$work/large.out" "$jobc" render "$work/large.yaml" >/dev/null
check "$workers" "$work/large.out"
echo "checked: $small-worker render ($(wc -l <"$work/small.out") lines), $workers-worker render ($(wc -l <"$work/large.out") lines)"

java=${JAVA_HOME:+$JAVA_HOME/bin/}java
echo "JDK: $("$java" -version 2>&1 | sed -n 1p)"
echo "$runs runs each, alternated; StatefulSet mode (the default)"
small_ms=() small_kib=() large_ms=() large_kib=()
for ((r = 1; r <= runs; r++)); do
  read -r ms kib < <(python3 "$work/run.py" /dev/null "$jobc" render "$work/small.yaml" || echo fail)
  [[ $ms != fail ]] || exit 1
  small_ms+=("$ms") small_kib+=("$kib")
  read -r ms kib < <(python3 "$work/run.py" /dev/null "$jobc" render "$work/large.yaml" || echo fail)
  [[ $ms != fail ]] || exit 1
  large_ms+=("$ms") large_kib+=("$kib")
  printf 'run %2d: %d workers %8s ms %8.1f MiB   %d workers %8s ms %8.1f MiB\n' "$r" \
    "$small" "${small_ms[-1]}" "$(awk -v k="${small_kib[-1]}" 'BEGIN { print k / 1024 }')" \
    "$workers" "${large_ms[-1]}" "$(awk -v k="${large_kib[-1]}" 'BEGIN { print k / 1024 }')"
done

small_median=$(printf '%s\n' "${small_ms[@]}" | median)
large_median=$(printf '%s\n' "${large_ms[@]}" | median)
max_mib() { LC_ALL=C sort -n | tail -n 1 | awk '{ printf "%.1f\n", $1 / 1024 }'; }
small_peak=$(printf '%s\n' "${small_kib[@]}" | max_mib)
large_peak=$(printf '%s\n' "${large_kib[@]}" | max_mib)
printf 'median wall time: %d workers %s ms, %d workers %s ms, ratio large/small %s (target <= 1.5)\n' \
  "$small" "$small_median" "$workers" "$large_median" "$(ratio "$large_median" "$small_median")"
printf 'peak RSS: %d workers %s MiB, %d workers %s MiB (target <= 128 MiB)\n' \
  "$small" "$small_peak" "$workers" "$large_peak"
