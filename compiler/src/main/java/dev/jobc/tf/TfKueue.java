package dev.jobc.tf;

import dev.jobc.conventions.MpiLabels;

/**
 * Kueue's plain-pod groups (kueue {@code pkg/controller/jobs/pod}): pods labelled with one {@code
 * pod-group-name} and annotated with the group's {@code pod-group-total-count} are admitted
 * together, which is how a TFJob's bare replica Pods get the all-or-nothing admission the operator
 * got from Kueue's TFJob integration.
 */
final class TfKueue {
  static final String QUEUE_NAME = MpiLabels.KUEUE_PREFIX + "queue-name";
  static final String POD_GROUP_NAME = MpiLabels.KUEUE_PREFIX + "pod-group-name";
  static final String POD_GROUP_TOTAL_COUNT = MpiLabels.KUEUE_PREFIX + "pod-group-total-count";

  private TfKueue() {}
}
