#!/usr/bin/env bash
# Footprint of the jobc sidecar: `run` with the arguments and JVM options the compiler renders for
# a job of N workers, inside a control group with the CPU and memory limits rendered for it (as
# kubelet runs the container), against the stand-in API (ApiStandIn: lists and HTTP watches as
# kube-apiserver serves them) on loopback (nothing leaves this
# machine). Every worker turns Ready (the gate must open), then single workers flip; it reports
# resident memory, the group's peak memory and OOM kills, the delay from a Ready change to
# discover_hosts.sh changing, lists and watches, and SIGTERM to exit.
#
# Usage: bench/sidecar-bench.sh [--workers N] [--flips N] [--smoke] [--no-build] [--no-limits] [--tls]
#        bench/sidecar-bench.sh --floor [--workers N] [--runs N] [--no-build]
#   --workers N  worker pods the sidecar watches (default 100; 5000 shows the largest jobs fit)
#   --flips N    Ready changes to time (default 2 x workers, at least 40, at most 400)
#   --smoke      4 workers, 8 flips: fails (non-zero) when the sidecar does not start, does not
#                open the gate, does not rewrite discover_hosts.sh, is OOM-killed or does not exit
#                0 on SIGTERM; prints the figures and judges none of them (for CI)
#   --no-build   use the shaded jar already in sidecar/target (after mvn package or verify)
#   --no-limits  no control group (the limits need write access to /sys/fs/cgroup, as root has)
#   --tls        the API over HTTPS, as in a cluster: the sidecar checks the server's certificate
#                against a CA file (KUBERNETES_CERTS_CA_FILE)
#   --floor      not the sidecar: the peak RSS of what a pod watch needs, one library added per
#                step (JVM and picocli; the JDK's HTTP client; Jackson trees; fabric8's model;
#                HttpURLConnection; Jackson's streaming parser), each its own process under the
#                rendered options (ClientFloor); --runs N processes per step (default 1)
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
limits=
tls=
floor=
runs=1
while [ $# -gt 0 ]; do
  case "$1" in
    --workers) workers=$2; shift 2 ;;
    --flips) flips=$2; shift 2 ;;
    --smoke) smoke=smoke; workers=4; flips=8; shift ;;
    --no-build) build=; shift ;;
    --no-limits) limits=no-limits; shift ;;
    --tls) tls=tls; shift ;;
    --floor) floor=1; shift ;;
    --runs) runs=$2; shift 2 ;;
    *) echo "usage: $0 [--workers N] [--flips N] [--smoke] [--no-build] [--no-limits] [--tls] [--floor [--runs N]]" >&2; exit 2 ;;
  esac
done
if [ -z "$flips" ]; then
  flips=$((2 * workers < 40 ? 40 : 2 * workers > 400 ? 400 : 2 * workers))
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
if [ -n "$floor" ]; then
  exec "$java" -cp "sidecar/target/test-classes:sidecar/target/classes:$(cat "$cp_file")" \
    dev.jobc.sidecar.ClientFloor "$workers" "$runs"
fi
# The options and limits are rendered by the compiler for the job (SidecarBench); this replaces
# the options only.
opts=${JOBC_BENCH_JAVA_TOOL_OPTIONS:-}
nmt=()
if [ -n "${JOBC_BENCH_NMT:-}" ]; then
  nmt=(-Dbench.nmt=true)
fi
"$java" "${nmt[@]}" -Djava.util.logging.config.file=sidecar/src/test/resources/test-logging.properties -cp "sidecar/target/test-classes:sidecar/target/classes:$(cat "$cp_file")" \
  dev.jobc.sidecar.SidecarBench sidecar/target/jobc-sidecar.jar "$workers" "$flips" $smoke $limits $tls ${opts:+"$opts"}
