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
# start-up floor of jobc's libraries, without any of jobc's own work.
#
# Builds nothing: bin/jobc (and, with -f, the bench jar) must already work.
# Usage: bench/cli-bench.sh [-n COPIES] [-r RUNS] [-f]
set -euo pipefail

copies=50
runs=10
floor=0
while getopts "n:r:fh" opt; do
  case "$opt" in
    n) copies=$OPTARG ;;
    r) runs=$OPTARG ;;
    f) floor=1 ;;
    *) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
  esac
done
[[ $copies =~ ^[0-9]+$ && $runs =~ ^[1-9][0-9]*$ ]] || { echo "cli-bench: -n and -r take numbers" >&2; exit 2; }

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
jobc=bin/jobc
[[ -x $jobc ]] || { echo "cli-bench: $jobc is missing or not executable" >&2; exit 2; }
command -v kubectl >/dev/null || { echo "cli-bench: kubectl is not on the PATH" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# N copies of the pi job (mpi-operator examples/v2beta1/pi with slotsPerWorker: 2, without its
# ttlSecondsAfterFinished, which jobc warns about), distinct names.
mkdir -p "$work/generated"
for ((i = 1; i <= copies; i++)); do
  name=$(printf 'pi-%04d' "$i")
  cat > "$work/generated/$name.yaml" <<YAML
apiVersion: kubeflow.org/v2beta1
kind: MPIJob
metadata:
  name: $name
  namespace: default
spec:
  slotsPerWorker: 2
  runPolicy:
    cleanPodPolicy: Running
  sshAuthMountPath: /home/mpiuser/.ssh
  mpiReplicaSpecs:
    Launcher:
      replicas: 1
      template:
        spec:
          containers:
          - image: mpioperator/mpi-pi:openmpi
            name: mpi-launcher
            securityContext:
              runAsUser: 1000
            command: [mpirun]
            args: [-n, "4", /home/mpiuser/pi]
            resources:
              limits:
                cpu: 1
                memory: 1Gi
    Worker:
      replicas: 2
      template:
        spec:
          containers:
          - image: mpioperator/mpi-pi:openmpi
            name: mpi-worker
            securityContext:
              runAsUser: 1000
            resources:
              limits:
                cpu: 1
                memory: 1Gi
YAML
done

inputs=()
if [[ -d examples ]]; then
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
kubectl kustomize "$out" >/dev/null

floor_cmd=()
if ((floor)); then
  bench_jar=bench/target/benchmarks.jar
  [[ -f $bench_jar ]] || { echo "cli-bench: $bench_jar is missing (mvn -B -pl bench -am package -DskipTests)" >&2; exit 2; }
  java=${JAVA_HOME:+$JAVA_HOME/bin/}java
  # The same class-data technique bin/jobc uses on this JDK: an AOT cache from 25 on, else AppCDS.
  feature=$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = \([0-9]*\).*/\1/p')
  if ((feature >= 25)); then create=-XX:AOTCacheOutput use=-XX:AOTCache; else create=-XX:ArchiveClassesAtExit use=-XX:SharedArchiveFile; fi
  flags=(-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xlog:disable -Xlog:all=warning:stderr)
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
median() { LC_ALL=C sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.1f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "inputs: ${#inputs[@]} files ($copies generated pi jobs + examples/), $objects rendered objects, $runs runs each"
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
printf 'median wall time: jobc render %s ms, kubectl kustomize %s ms, ratio jobc/kustomize %s\n' \
  "$jobc_median" "$kust_median" "$(awk -v a="$jobc_median" -v b="$kust_median" 'BEGIN { printf "%.2f", a / b }')"
if ((floor)); then
  floor_median=$(printf '%s\n' "${floor_times[@]}" | median)
  printf 'median wall time: library floor %s ms, ratio floor/kustomize %s\n' \
    "$floor_median" "$(awk -v a="$floor_median" -v b="$kust_median" 'BEGIN { printf "%.2f", a / b }')"
fi
