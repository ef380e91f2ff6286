/**
 * Values every step and every kind shares: the input ({@code Source}), the result ({@code
 * CompileResult}, {@code OutputObject}) and the replica records the Kubeflow APIs have in common
 * ({@code ReplicaSpec}, {@code RunPolicy}, {@code SchedulingPolicy}). Records only, no behaviour.
 */
package dev.jobc.model;
