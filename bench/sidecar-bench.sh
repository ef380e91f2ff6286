#!/usr/bin/env bash
# Footprint of the jobc sidecar: RSS of `run` with the JVM options the compiler renders, and the
# delay from a worker turning Ready to discover_hosts.sh changing, against fabric8's mock API on
# loopback (nothing leaves this machine).
#
# Usage: bench/sidecar-bench.sh [--workers N] [--flips N] [--smoke] [--no-build]
#   --workers N  worker pods the sidecar watches (default 100)
#   --flips N    Ready changes to time (default 2 x workers, at least 40)
#   --smoke      4 workers, 8 flips: fails (non-zero) when the sidecar does not start, does not
#                rewrite discover_hosts.sh or does not exit 0 on SIGTERM; prints the figures and
#                judges none of them (for CI)
#   --no-build   use the shaded jar already in sidecar/target (after mvn package or verify)
# The JDK is $JAVA_HOME's when set, else the one on PATH. JOBC_BENCH_JAVA_TOOL_OPTIONS replaces
# the rendered options (experiments); JOBC_BENCH_NMT=1 prints jcmd VM.native_memory summary and GC.class_histogram (add
# -XX:NativeMemoryTracking=summary to the options) and smaps_rollup before the stop.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
workers=100
flips=
smoke=
build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --workers) workers=$2; shift 2 ;;
    --flips) flips=$2; shift 2 ;;
    --smoke) smoke=smoke; workers=4; flips=8; shift ;;
    --no-build) build=; shift ;;
    *) echo "usage: $0 [--workers N] [--flips N] [--smoke] [--no-build]" >&2; exit 2 ;;
  esac
done
if [ -z "$flips" ]; then
  flips=$((2 * workers < 40 ? 40 : 2 * workers))
fi
java=java
if [ -n "${JAVA_HOME:-}" ]; then
  java=$JAVA_HOME/bin/java
fi
cp_file=sidecar/target/bench-classpath.txt
if [ -n "$build" ]; then
  mvn -B -q -pl sidecar -am package -DskipTests \
    dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$root/$cp_file" >&2
elif [ ! -f "$cp_file" ]; then
  mvn -B -q -pl sidecar -am test-compile dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile="$root/$cp_file" >&2
fi
# The options as rendered (compiler/src/main/java/dev/jobc/k8s/SidecarContainer.java).
opts=$(sed -n 's/.*"\(-XX:+UseSerialGC[^"]*\)".*/\1/p;s/^ *+ "\( -X[^"]*\)".*/\1/p' \
  compiler/src/main/java/dev/jobc/k8s/SidecarContainer.java | tr -d '\n')
opts=${JOBC_BENCH_JAVA_TOOL_OPTIONS:-$opts}
echo "JAVA_TOOL_OPTIONS: $opts" >&2
"$java" -version 2>&1 | head -2 >&2
nmt=()
if [ -n "${JOBC_BENCH_NMT:-}" ]; then
  nmt=(-Dbench.nmt=true)
fi
"$java" "${nmt[@]}" -Djava.util.logging.config.file=sidecar/src/test/resources/test-logging.properties -cp "sidecar/target/test-classes:sidecar/target/classes:$(cat "$cp_file")" \
  dev.jobc.sidecar.SidecarBench sidecar/target/jobc-sidecar.jar "$opts" "$workers" "$flips" $smoke
