/**
 * The outcome of a job of training-operator's family (TFJob, PyTorchJob, XGBoostJob, JAXJob,
 * PaddleJob), without the operator: the native sidecar beside each replica that decides the job
 * ({@code tfjob}, {@code replicas}) follows the replicas, decides success or failure as the kind's
 * {@code UpdateJobStatus} and {@code ReconcileJobs} would, records it as the operator's Events and
 * ends the replicas still running, deleting nothing.
 */
package dev.jobc.sidecar.replicas;
