/**
 * Kubeflow JAXJob ({@code kubeflow.org/v1}, training-operator v1.9.0): the API records, defaults,
 * validation (the webhook's rules and the ones it forgot) and the planner: each worker's
 * environment ({@code jax/envvar.go setPodEnv}). The objects are the family's ({@code
 * dev.jobc.replica}).
 */
package dev.jobc.jax;
