/**
 * Kubeflow Trainer v2 ({@code trainer.kubeflow.org/v1alpha1}, kubeflow/trainer v2.3.0): a TrainJob
 * and the TrainingRuntime or ClusterTrainingRuntime it names become the JobSet the Trainer
 * controller creates ({@code pkg/runtime/core/trainingruntime.go}, the plugins under {@code
 * pkg/runtime/framework/plugins/}). The runtimes are read, never rendered; v2.3.0's default
 * ClusterTrainingRuntimes ship as resources.
 */
package dev.jobc.trainer;
