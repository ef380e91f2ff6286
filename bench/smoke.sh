#!/usr/bin/env bash
# Runs every benchmark in its smoke mode: tiny sizes, one run, outputs checked, no time asserted.
# It keeps the benchmarks from rotting (CI runs it); the figures it prints mean nothing.
#
# Needs bin/jobc working, kubectl, python3 and openssl; builds bench/target/benchmarks.jar when
# it is missing. Runs every step, then exits 1 if any failed.
# Usage: bench/smoke.sh
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root" || exit 2

started=$SECONDS
failed=()
# step NAME COMMAND...: runs one smoke step, records a failure, never stops.
step() {
  local name=$1 at=$SECONDS
  shift
  printf '\n==== bench smoke: %s\n' "$name"
  if "$@"; then
    printf -- '---- %s: ok (%ds)\n' "$name" $((SECONDS - at))
  else
    printf -- '---- %s: FAILED (exit %d, %ds)\n' "$name" "$?" $((SECONDS - at)) >&2
    failed+=("$name")
  fi
}

if [[ ! -f bench/target/benchmarks.jar ]]; then
  step "build bench/target/benchmarks.jar" mvn -B -q -Dstyle.color=never -pl bench -am package -DskipTests
fi
step "jmh-ratio.sh --smoke" bench/jmh-ratio.sh --smoke
step "cli-bench.sh --smoke -1" bench/cli-bench.sh --smoke -1
step "cli-bench.sh --smoke" bench/cli-bench.sh --smoke
step "scale-bench.sh --smoke" bench/scale-bench.sh --smoke
step "kubexec-bench.sh --smoke" bench/kubexec-bench.sh --smoke
step "limits-bench.sh --smoke" bench/limits-bench.sh --smoke
# After a build: the CLI image's tar exists (mvn verify writes it at pre-integration-test).
step "warm-bench.sh --smoke" bench/warm-bench.sh --smoke
# After a build: the sidecar jar exists, --no-build only writes the test classpath it runs with.
step "sidecar-bench.sh --smoke" bench/sidecar-bench.sh --smoke --no-build
# The same over HTTPS, as in a cluster: the CA file and the server's name are checked.
step "sidecar-bench.sh --smoke --tls" bench/sidecar-bench.sh --smoke --tls --no-build

printf '\n==== bench smoke: %d failed, %ds in all\n' "${#failed[@]}" $((SECONDS - started))
if ((${#failed[@]})); then
  printf 'failed: %s\n' "${failed[@]}" >&2
  exit 1
fi
