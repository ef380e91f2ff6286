/**
 * {@code jobc-sidecar}: the run-time helper the compiler wires into the pods it renders, and the
 * only part of jobc that talks to a Kubernetes API. This package holds {@link
 * dev.jobc.sidecar.Main} alone, the image's and the jar's entry point, which knows every command.
 * Below it, one package per run-time concern ({@link dev.jobc.sidecar.mpi}, {@link
 * dev.jobc.sidecar.dgl}, {@link dev.jobc.sidecar.replicas}), none needing another; what they are
 * built from ({@link dev.jobc.sidecar.base}); and the API access ({@link dev.jobc.sidecar.client}),
 * the only package that speaks HTTP. The commands watch through informers and never poll, and
 * change nothing jobc rendered but what the run-time rule (DEVELOPERS.md) allows.
 */
package dev.jobc.sidecar;
