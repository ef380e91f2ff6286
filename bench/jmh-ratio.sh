#!/usr/bin/env bash
# Issue 14 target a: an in-process compile of the 2-worker pi job (CompileBenchmark.compile,
# workers=2) against a bare jackson-dataformat-yaml parse of the same text
# (LibraryFloorBenchmark.yamlParseOnly), measured in one JMH run; the ratio compile / parse must be
# at least 0.33.
#
# Runs exactly those two benchmarks from bench/target/benchmarks.jar, reads JMH's JSON result and
# prints both scores with their errors, the JDK and the ratio. JMH stops at the first benchmark
# that fails (-foe true), and a result without both scores is an error.
#
# Builds nothing: bench/target/benchmarks.jar must exist (mvn -B -pl bench -am package -DskipTests).
# Needs python3 or jq to read the result.
# Usage: bench/jmh-ratio.sh [-s | --smoke] [JMH OPTIONS...]
#   JMH OPTIONS replace the defaults, -f 1 -wi 3 -w 2s -i 5 -r 2s -t 1 (e.g. -f 2 -i 10, -prof gc)
#   -s, --smoke  -f 1 -wi 0 -i 1 -r 200ms: checks that both benchmarks run, measures nothing
set -euo pipefail
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

case "${1:-}" in
  -s | --smoke) shift; set -- -f 1 -wi 0 -i 1 -r 200ms "$@" ;;
  -h | --help) usage; exit 0 ;;
  "") set -- -f 1 -wi 3 -w 2s -i 5 -r 2s -t 1 ;;
esac

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
jar=bench/target/benchmarks.jar
[[ -f $jar ]] || { echo "jmh-ratio: $jar is missing (mvn -B -pl bench -am package -DskipTests)" >&2; exit 2; }
java=${JAVA_HOME:+$JAVA_HOME/bin/}java

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
result=$work/result.json

# JMH takes regular expressions; anchor both so that no other benchmark runs.
"$java" -jar "$jar" '^dev\.jobc\.bench\.CompileBenchmark\.compile$' \
  '^dev\.jobc\.bench\.LibraryFloorBenchmark\.yamlParseOnly$' -p workers=2 -foe true \
  "$@" -rf json -rff "$result"

# Prints "BENCHMARK SCORE ERROR UNIT" per result.
if command -v python3 >/dev/null; then
  scores=$(python3 - "$result" <<'EOF'
import json, math, sys
for r in json.load(open(sys.argv[1])):
    m = r["primaryMetric"]
    err = float(m.get("scoreError") or "NaN")  # JMH writes "NaN" when there is one iteration
    err = "NaN" if math.isnan(err) else "%.0f" % err
    print(".".join(r["benchmark"].split(".")[-2:]), "%.0f" % float(m["score"]), err, m["scoreUnit"].replace(" ", ""))
EOF
  )
elif command -v jq >/dev/null; then
  scores=$(jq -r '.[] | [(.benchmark | split(".") | .[-2:] | join(".")),
    (.primaryMetric.score | round), (.primaryMetric.scoreError | if type == "number" then round else "NaN" end),
    (.primaryMetric.scoreUnit | gsub(" "; ""))] | join(" ")' "$result")
else
  echo "jmh-ratio: neither python3 nor jq is on the PATH to read $result" >&2
  exit 2
fi

compile=$(awk '$1 == "CompileBenchmark.compile" { print $2 }' <<<"$scores")
parse=$(awk '$1 == "LibraryFloorBenchmark.yamlParseOnly" { print $2 }' <<<"$scores")
if [[ -z $compile || -z $parse || $(wc -l <<<"$scores") -ne 2 ]]; then
  echo "jmh-ratio: the JMH result does not hold exactly the two scores; it held:" >&2
  echo "$scores" >&2
  exit 1
fi
if ! awk -v a="$compile" -v b="$parse" 'BEGIN { exit !(a > 0 && b > 0) }'; then
  echo "jmh-ratio: a score is not positive: $scores" >&2
  exit 1
fi

echo
echo "JDK: $("$java" -version 2>&1 | sed -n 1p)"
echo "JMH options: $*"
awk '{ printf "%-36s %10s ± %s %s\n", $1, $2, $3, $4 }' <<<"$scores"
printf 'ratio compile/yamlParseOnly %s (target >= 0.33)\n' \
  "$(awk -v a="$compile" -v b="$parse" 'BEGIN { printf "%.3f", a / b }')"
