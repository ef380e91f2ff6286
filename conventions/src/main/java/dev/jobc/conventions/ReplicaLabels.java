package dev.jobc.conventions;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The labels training-operator v1.9.0 puts on the pods and Services of every kind it runs ({@code
 * pkg/controller.v1/common/pod.go createNewPod}, {@code service.go CreateNewService}, {@code
 * GenLabels}), kind by kind told apart by {@code training.kubeflow.org/operator-name} (each
 * controller's {@code controllerName}, such as {@code pytorchjob-controller}), and the name of a
 * replica's objects ({@code GenGeneralName}).
 */
public final class ReplicaLabels {
  public static final String OPERATOR_NAME = MpiLabels.OPERATOR_NAME;
  public static final String JOB_NAME = MpiLabels.JOB_NAME;
  public static final String JOB_ROLE = MpiLabels.JOB_ROLE;
  public static final String REPLICA_INDEX = MpiLabels.REPLICA_INDEX;
  public static final String REPLICA_TYPE = "training.kubeflow.org/replica-type";

  /** The value of {@link #JOB_ROLE} on a pod {@code IsMasterRole} picks. */
  public static final String MASTER = "master";

  private ReplicaLabels() {}

  /** {@code GenGeneralName}: {@code <job>-<type>-<index>}, type in lower case, "/" → "-". */
  public static String replica(String job, String lowerType, int index) {
    return (job + "-" + lowerType + "-" + index).replace('/', '-');
  }

  /** What selects every pod of the job that {@code operator} would have run. */
  public static Map<String, String> jobSelector(String operator, String job) {
    Map<String, String> out = new LinkedHashMap<>();
    out.put(OPERATOR_NAME, operator);
    out.put(JOB_NAME, job.replace('/', '-'));
    return out;
  }

  /** What selects one replica's pod: its Service's selector and labels. */
  public static Map<String, String> replicaSelector(
      String operator, String job, String lowerType, int index) {
    Map<String, String> out = jobSelector(operator, job);
    out.put(REPLICA_TYPE, lowerType);
    out.put(REPLICA_INDEX, Integer.toString(index));
    return out;
  }
}
