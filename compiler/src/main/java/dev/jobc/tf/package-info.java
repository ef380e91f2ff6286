/**
 * Kubeflow TFJob ({@code kubeflow.org/v1}, training-operator v1.9.0): the API records, defaults,
 * validation (the webhook's rules and the ones it forgot), the planner (replica names, TF_CONFIG,
 * the replica that decides the job's outcome) and one generator per output object. Generators read
 * the plan only and change nothing they are given. Where TFJob's logic is the family's, its classes
 * call {@code dev.jobc.replica}'s.
 */
package dev.jobc.tf;
