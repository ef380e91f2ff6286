# shellcheck shell=bash
# Shared by the bench scripts (sourced, not run).

# usage: prints the calling script's header comment, its usage (line 2 up to the first line that
# is not a comment).
usage() {
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
}

# smoke_args ARGS...: ARGS with --smoke spelled -s, in the array SMOKE_ARGS (getopts reads short
# options only). Use: smoke_args "$@"; set -- "${SMOKE_ARGS[@]+"${SMOKE_ARGS[@]}"}"
smoke_args() {
  SMOKE_ARGS=()
  local a
  for a in "$@"; do
    [[ $a == --smoke ]] && a=-s
    SMOKE_ARGS+=("$a")
  done
}

# pi_job NAME WORKERS: mpi-operator's examples/v2beta1/pi MPIJob with slotsPerWorker: 2, WORKERS
# worker replicas and `mpirun -n 2×WORKERS`, without its ttlSecondsAfterFinished (jobc warns about
# it: GitOps re-creates a deleted Job). The input of cli-bench.sh and scale-bench.sh.
pi_job() {
  local name=$1 workers=$2
  cat <<YAML
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
            args: [-n, "$((workers * 2))", /home/mpiuser/pi]
            resources:
              limits:
                cpu: 1
                memory: 1Gi
    Worker:
      replicas: $workers
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
}

# Reads numbers, one a line; prints their median.
median() {
  LC_ALL=C sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.1f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# ratio A B: prints A / B with two decimals.
ratio() {
  awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "n/a"; else printf "%.2f\n", a / b }'
}
