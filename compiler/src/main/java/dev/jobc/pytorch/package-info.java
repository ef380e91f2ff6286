/**
 * Kubeflow PyTorchJob ({@code kubeflow.org/v1}, training-operator v1.9.0): the API records,
 * defaults ({@code SetDefaults_PyTorchJob}: elastic min/max, {@code nprocPerNode: auto}),
 * validation (the webhook's rules and the ones it forgot), and the planner: each replica's
 * environment ({@code setPodEnv} with the master and elastic generators) and the workers' {@code
 * init-pytorch} container. The objects are the family's ({@code dev.jobc.replica}).
 */
package dev.jobc.pytorch;
