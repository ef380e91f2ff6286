package dev.jobc.mpi;

/** One hostfile entry: a host as MPI will address it, and how many ranks it takes. */
public record HostSlot(String host, int slots) {}
