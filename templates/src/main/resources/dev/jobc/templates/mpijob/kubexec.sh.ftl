<#-- The rsh agent of the kubexec transport (mpi-operator v1, without its set -x). -->
#!/bin/sh
# Usage: kubexec.sh HOST COMMAND...
# Runs COMMAND in the worker pod behind HOST with kubectl exec instead of ssh.
# HOST is a pod name or a name under the job's Service (pod.job.ns.svc...).
set -eu
POD_NAME=$1
# Intel MPI and MPICH pass options such as -x before the host; skip them.
while case $POD_NAME in -*) true ;; *) false ;; esac; do
  shift
  POD_NAME=$1
done
shift
# The pod is the first label of HOST. No brace expansions in this script: Flux's post-build
# substitution would replace them.
POD_NAME=$(IFS=.; set -f; set -- $POD_NAME; printf '%s' "$1")
<#if launcher??>
# The launcher runs ranks too (runLauncherAsWorker, or a v1 launcher with a GPU); its own
# are started here.
if [ "$POD_NAME" = [=shq(launcher)] ]; then
  exec /bin/sh -c "$*"
fi
</#if>
# Go runtime settings for kubectl: one thread of Go code and a tighter garbage collector leave
# each session about a third less memory (the launcher holds one per worker under MPICH).
export GOMAXPROCS=1 GOGC=25
<#if jobset??>
# A JobSet's pod names carry a random suffix: HOST is a worker's host name, <job>-worker-0-<i>,
# and its pod is the Running one that the JobSet and the Job controller label with index <i>
# (the worker Job replaces a failed pod only once it has terminated).
INDEX=$(expr "x$POD_NAME" : [=shq(jobset.pattern)] || true)
if [ -z "$INDEX" ]; then
  echo "kubexec.sh: $POD_NAME is not a worker of this job" >&2
  exit 1
fi
POD_NAME=$([=kubectl] get pods --selector [=shq(jobset.selector)]"$INDEX" \
  --field-selector status.phase=Running --output name)
POD_NAME=$(IFS='
'; set -f; set -- $POD_NAME; if [ $# -gt 0 ]; then printf '%s' "$1"; fi)
if [ -z "$POD_NAME" ]; then
  echo "kubexec.sh: no Running pod for worker $INDEX" >&2
  exit 1
fi
</#if>
exec [=kubectl] exec "$POD_NAME" <#if container??>--container [=shq(container)] </#if>-- /bin/sh -c "$*"
