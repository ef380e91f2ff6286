/**
 * {@code jobc-sidecar}: the run-time helper the compiler wires into the pods it renders, and the
 * only part of jobc that talks to a Kubernetes API. {@code wait} (an init container) blocks until
 * named pods are Ready, Running or Succeeded and can write DGL's IP files and start the workers;
 * {@code run} (a native sidecar beside an MPI launcher) keeps {@code discover_hosts.sh} live, gates
 * the launcher until its workers are Ready and releases the workers when it ends; {@code release}
 * releases a DGLJob's workers when its launcher stops; {@code tfjob} (beside a TFJob's deciding
 * replica) decides the job's outcome and ends what still runs. They watch through informers and
 * never poll, and change nothing jobc rendered but what the run-time rule (DEVELOPERS.md) allows.
 */
package dev.jobc.sidecar;
