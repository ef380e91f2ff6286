/**
 * {@code jobc-sidecar}: the run-time helper the compiler wires into the pods it renders, and the
 * only part of jobc that talks to a Kubernetes API. {@code wait} (an init container) blocks until
 * named pods are Ready or Succeeded and can write DGL's IP files; {@code run} (a native sidecar
 * beside an MPI launcher) keeps {@code discover_hosts.sh} live, gates the launcher until its
 * workers are Ready and releases the workers when it ends. Both watch pods through one informer and
 * never poll.
 */
package dev.jobc.sidecar;
