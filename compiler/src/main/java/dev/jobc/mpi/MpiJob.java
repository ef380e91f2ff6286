package dev.jobc.mpi;

import io.fabric8.kubernetes.api.model.ObjectMeta;

/** An MPIJob document as written ({@code kubeflow.org/v1alpha1} … {@code v2beta1}). */
public record MpiJob(String apiVersion, String kind, ObjectMeta metadata, MpiJobSpec spec) {
  public static final String KIND = "MPIJob";
  public static final String LAUNCHER = "Launcher";
  public static final String WORKER = "Worker";
}
