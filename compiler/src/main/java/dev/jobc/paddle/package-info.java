/**
 * Kubeflow PaddleJob ({@code kubeflow.org/v1}, training-operator v1.9.0): the API records,
 * defaults, validation (the webhook's rules and the ones it forgot) and the planner: each replica's
 * environment ({@code paddlepaddle/envvar.go setPodEnv}, collective or parameter-server mode). The
 * objects are the family's ({@code dev.jobc.replica}).
 */
package dev.jobc.paddle;
