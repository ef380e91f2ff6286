/**
 * A DGLJob's run time, without dgl-operator: {@code wait}, the init containers that wait for named
 * pods ({@link dev.jobc.sidecar.dgl.PodWait}), write DGL's IP-based files ({@link
 * dev.jobc.sidecar.dgl.DglFiles}) and start the workers once partitioned ({@link
 * dev.jobc.sidecar.dgl.WorkerStart}); and {@code release}, the native sidecar that releases the
 * workers when the launcher pod stops ({@link dev.jobc.sidecar.dgl.ReleaseCommand}).
 */
package dev.jobc.sidecar.dgl;
