/**
 * What every sidecar command is built from: the command's options and pod ({@link
 * dev.jobc.sidecar.base.SidecarCommand}), its process' end on SIGTERM ({@link
 * dev.jobc.sidecar.base.Termination}), its log, changes attempted again through API errors ({@link
 * dev.jobc.sidecar.base.Attempts}), watches of pods and Jobs, Events, files replaced atomically,
 * and the release of a launcher's workers by {@code cleanPodPolicy} that MPI's and DGL's sidecars
 * share ({@link dev.jobc.sidecar.base.WorkerCleanup}). It knows no job kind.
 */
package dev.jobc.sidecar.base;
