package dev.jobc.dgl;

import io.fabric8.kubernetes.api.model.ObjectMeta;

/** A DGLJob document as written ({@code qihoo.net/v1alpha1}, Qihoo360/dgl-operator). */
public record DglJob(String apiVersion, String kind, ObjectMeta metadata, DglJobSpec spec) {
  public static final String KIND = "DGLJob";
  public static final String API_VERSION = "qihoo.net/v1alpha1";
  public static final String LAUNCHER = "Launcher";
  public static final String WORKER = "Worker";
  public static final String PARTITIONER = "Partitioner";
}
