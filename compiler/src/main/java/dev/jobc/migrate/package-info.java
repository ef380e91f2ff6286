/**
 * {@code jobc migrate}: a training-operator v1 job (PyTorchJob, JAXJob, XGBoostJob) or an MPIJob
 * {@code v2beta1} becomes a Kubeflow Trainer v2.3.0 TrainJob ({@code
 * trainer.kubeflow.org/v1alpha1}) and the TrainingRuntime it needs, or a reference to one of the
 * runtimes Trainer installs. Pure functions from a checked document and its defaulted model to
 * trees and findings; what has no Trainer v2.3.0 equivalent is an error naming the field, never
 * left out.
 */
package dev.jobc.migrate;
