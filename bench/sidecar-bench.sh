#!/usr/bin/env bash
# Footprint of the jobc sidecar: RSS of `run` with the JVM options the compiler renders, and the
# delay from a worker turning Ready to discover_hosts.sh changing, against fabric8's mock API on
# loopback (nothing leaves this machine). Usage: bench/sidecar-bench.sh [flips]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
cp_file=$(mktemp)
trap 'rm -f "$cp_file"' EXIT
mvn -B -q -pl sidecar -am package -DskipTests \
  dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$cp_file" >&2
# The options as rendered (compiler/src/main/java/dev/jobc/k8s/SidecarContainer.java).
opts=$(sed -n 's/.*"\(-XX:+UseSerialGC[^"]*\)".*/\1/p;s/^ *+ "\( -XX[^"]*\)".*/\1/p' \
  compiler/src/main/java/dev/jobc/k8s/SidecarContainer.java | tr -d '\n')
echo "JAVA_TOOL_OPTIONS: $opts" >&2
java -cp "sidecar/target/test-classes:sidecar/target/classes:$(cat "$cp_file")" \
  dev.jobc.sidecar.SidecarBench sidecar/target/jobc-sidecar.jar "$opts" "${1:-40}"
