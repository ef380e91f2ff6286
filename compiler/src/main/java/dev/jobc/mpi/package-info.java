/**
 * Kubeflow MPIJob ({@code kubeflow.org} v1alpha1, v1alpha2, v1, v2beta1): the API records, the
 * conversion of every era into one defaulted model ({@code MpiJobDefaults}), validation with
 * mpi-operator's field paths and messages, the planner (names, hosts, slots, gang scheduling) and
 * one generator per output object. Generators read the plan only and change nothing they are given.
 */
package dev.jobc.mpi;
