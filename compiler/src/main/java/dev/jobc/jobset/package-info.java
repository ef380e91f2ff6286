/**
 * The JobSet target every kind shares: the {@code jobset.x-k8s.io/v1alpha2} JobSet object as jobc
 * writes it ({@link dev.jobc.jobset.JobSet}), and the rules the JobSet webhook and Kueue apply to
 * its shape ({@link dev.jobc.jobset.JobSetRules}). A kind's planner decides what runs where; its
 * JobSet generator puts the pod templates into replicated Jobs through this package.
 */
package dev.jobc.jobset;
