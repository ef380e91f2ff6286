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
exec [=kubectl] exec "$POD_NAME" <#if container??>--container [=shq(container)] </#if>-- /bin/sh -c "$*"
