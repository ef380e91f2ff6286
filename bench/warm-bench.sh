#!/usr/bin/env bash
# Times one Argo CD `generate` per application as the plugin image runs it, side by side with
# `kubectl kustomize` of the same objects (issue 27).
#
# It opens the CLI image Jib wrote (cli/target/jib-image.tar, on `scratch`: this JDK stands in for
# the base image's java, as in ImageIT), and runs its launcher /usr/local/bin/jobc with
# plugin.yaml's generate command, `jobc argocd`, in an application directory holding one `pi` MPIJob,
# as argocd-cmp-server does: a fresh process per call. Alternated, R runs each of:
#   warm        the launcher with JOBC_WARM=1 (deploy/argocd sets it), the server already running
#               (started and given W untimed calls first, as after an application or two)
#   image cold  the launcher without JOBC_WARM, the cold path (a JVM per call)
#   bin/jobc    bin/jobc argocd in the same directory: the checkout's launcher, class-data archive
#   kustomize   kubectl kustomize of the objects jobc renders for that application
# and prints the medians, warm / kustomize (target <= 2) and image cold / bin/jobc (target <= 1.2),
# and the server's peak RSS. It stops the server it started before it exits.
#
# Builds nothing: bin/jobc must work and the image tar exist
# (mvn -B -pl cli -am verify -DskipTests writes it).
# Usage: bench/warm-bench.sh [-r RUNS] [-w WARMUP] [-s | --smoke]
#   -r  timed runs of each command (default 21)
#   -w  untimed warm calls before the timed runs (default 20)
#   -s, --smoke  -r 1 -w 1: checks that the bench works (every command exits 0 with the same
#       output warm and cold, kustomize prints every object), measures nothing
set -euo pipefail

# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
smoke_args "$@"
set -- "${SMOKE_ARGS[@]+"${SMOKE_ARGS[@]}"}"

runs=21
warmup=20
while getopts "r:w:sh" opt; do
  case "$opt" in
    r) runs=$OPTARG ;;
    w) warmup=$OPTARG ;;
    s) runs=1 warmup=1 ;;
    *) usage; exit 2 ;;
  esac
done
[[ $runs =~ ^[1-9][0-9]*$ && $warmup =~ ^[0-9]+$ ]] || { echo "warm-bench: -r and -w take numbers" >&2; exit 2; }

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
tar=cli/target/jib-image.tar
[[ -f $tar ]] || { echo "warm-bench: $tar is missing (mvn -B -pl cli -am verify -DskipTests)" >&2; exit 2; }
command -v kubectl >/dev/null || { echo "warm-bench: kubectl is not on the PATH" >&2; exit 2; }
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
java_bin=$(command -v "$java")

work=$(mktemp -d)
server_pid=""
stop_server() {
  # The server this bench started: the one whose socket is in this bench's directory.
  local p
  for p in /proc/[0-9]*; do
    if tr '\0' ' ' 2>/dev/null <"$p/cmdline" | grep -q "dev.jobc.cli.WarmServer .*$work/"; then
      kill "${p#/proc/}" 2>/dev/null || true
    fi
  done
}
trap 'stop_server; rm -rf "$work"' EXIT

# The image's files, its /app paths rewritten to where they are here, java from this JDK.
image=$work/image
mkdir -p "$image" "$work/bin"
tar -xf "$tar" -C "$work" manifest.json
for layer in $(grep -o '[0-9a-f]\{64\}\.tar\.gz' "$work/manifest.json"); do
  tar -xf "$tar" -O "$layer" | tar --warning=no-unknown-keyword -xz -C "$image"
done
sed -i "s|/app/|$image/app/|g" "$image/app/jib-classpath-file"
sed "s|@/app/|@$image/app/|g" "$image/usr/local/bin/jobc" >"$work/bin/jobc"
cp "$image/usr/local/bin/jobc-warm" "$work/bin/jobc-warm"
chmod 755 "$work/bin/jobc" "$work/bin/jobc-warm"
image_path=$(dirname "$java_bin"):$work/bin:$PATH

# One application: a directory with one job, as Argo CD hands it to the plugin.
app=$work/app
mkdir -p "$app" "$work/objects" "$work/tmp"
pi_job pi 2 >"$app/pi.yaml"
bin/jobc render "$app/pi.yaml" -o "$work/objects" >/dev/null
{
  echo "apiVersion: kustomize.config.k8s.io/v1beta1"
  echo "kind: Kustomization"
  echo "resources:"
  find "$work/objects" -maxdepth 1 -type f -name '*.yaml' -printf '%f\n' | LC_ALL=C sort | sed 's/^/- /'
} >"$work/kustomization.yaml"
mv "$work/kustomization.yaml" "$work/objects/"
objects=$(($(wc -l <"$work/objects/kustomization.yaml") - 3))

# The environment argocd-cmp-server gives generate, and the image's (HOME=/tmp, /tmp its own).
gen_env=(env -i "PATH=$image_path" "HOME=$work/tmp" "TMPDIR=$work/tmp" ARGOCD_APP_NAME=pi
  ARGOCD_APP_NAMESPACE=default)
warm_cmd=("${gen_env[@]}" JOBC_WARM=1 jobc argocd)
cold_cmd=("${gen_env[@]}" jobc argocd)
bin_cmd=("${gen_env[@]}" "PATH=$root/bin:$PATH" ${JAVA_HOME:+"JAVA_HOME=$JAVA_HOME"} jobc argocd)
kust_cmd=(kubectl kustomize "$work/objects")

# Every command must succeed with the same render: no side measures an error path.
(cd "$app" && "${cold_cmd[@]}") >"$work/cold.out"
(cd "$app" && "${gen_env[@]}" JOBC_WARM=only jobc argocd) >"$work/warm.out"
(cd "$app" && "${bin_cmd[@]}") >"$work/bin.out"
cmp -s "$work/cold.out" "$work/warm.out" || { echo "warm-bench: warm and cold generate differ" >&2; exit 1; }
cmp -s "$work/cold.out" "$work/bin.out" || { echo "warm-bench: the image and bin/jobc differ" >&2; exit 1; }
kustomized=$("${kust_cmd[@]}" | grep -c '^kind: ' || true)
if ((objects == 0 || kustomized != objects)); then
  echo "warm-bench: jobc rendered $objects objects and kubectl kustomize printed $kustomized" >&2
  exit 1
fi
for ((i = 0; i < warmup; i++)); do (cd "$app" && JOBC_WARM=only "${warm_cmd[@]}") >/dev/null; done

# Prints the wall time of one run of "$@" in the application directory, in milliseconds.
time_ms() {
  local start=$EPOCHREALTIME end
  (cd "$app" && "$@") >/dev/null 2>&1
  end=$EPOCHREALTIME
  awk -v s="$start" -v e="$end" 'BEGIN { printf "%.1f\n", (e - s) * 1000 }'
}

echo "JDK: $("$java" -version 2>&1 | sed -n 1p)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "one application (1 pi MPIJob, $objects objects), $runs runs each, $warmup warm-up calls"
warm_t=() cold_t=() bin_t=() kust_t=()
for ((r = 1; r <= runs; r++)); do
  warm_t+=("$(time_ms "${warm_cmd[@]}")")
  cold_t+=("$(time_ms "${cold_cmd[@]}")")
  bin_t+=("$(time_ms "${bin_cmd[@]}")")
  kust_t+=("$(time_ms "${kust_cmd[@]}")")
  printf 'run %2d: warm %7s ms   image cold %7s ms   bin/jobc %7s ms   kubectl kustomize %7s ms\n' \
    "$r" "${warm_t[-1]}" "${cold_t[-1]}" "${bin_t[-1]}" "${kust_t[-1]}"
done
warm_m=$(printf '%s\n' "${warm_t[@]}" | median)
cold_m=$(printf '%s\n' "${cold_t[@]}" | median)
bin_m=$(printf '%s\n' "${bin_t[@]}" | median)
kust_m=$(printf '%s\n' "${kust_t[@]}" | median)
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
printf 'median wall time: warm %s ms, image cold %s ms, bin/jobc %s ms, kubectl kustomize %s ms\n' \
  "$warm_m" "$cold_m" "$bin_m" "$kust_m"
printf 'ratio warm/kustomize %s (issue 27 target 1: <= 2)\n' "$(ratio "$warm_m" "$kust_m")"
printf 'ratio image-cold/bin-jobc %s (issue 27 target 2: <= 1.2)\n' "$(ratio "$cold_m" "$bin_m")"
for p in /proc/[0-9]*; do
  if tr '\0' ' ' 2>/dev/null <"$p/cmdline" | grep -q "dev.jobc.cli.WarmServer .*$work/"; then
    printf 'warm server: peak RSS %s, RSS now %s\n' \
      "$(awk '/^VmHWM/ { printf "%.1f MiB", $2 / 1024 }' "$p/status")" \
      "$(awk '/^VmRSS/ { printf "%.1f MiB", $2 / 1024 }' "$p/status")"
  fi
done
