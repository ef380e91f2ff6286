/**
 * What the compiler and the run-time sidecar must agree on, byte for byte: object and pod names,
 * volume and mount names, label vocabularies per MPIJob era, the {@code discover_hosts.sh} format,
 * the MPI implementations and their hostfile and environment conventions, DGL's names, and
 * Kubernetes' DNS name rules. Values follow mpi-operator and dgl-operator. Plain Java with no
 * dependencies: the sidecar's jar carries this package whole, and nothing of the compiler.
 */
package dev.jobc.conventions;
