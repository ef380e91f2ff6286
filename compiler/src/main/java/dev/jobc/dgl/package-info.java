/**
 * Qihoo360 DGLJob ({@code qihoo.net/v1alpha1}): the API records, defaults, validation, the planner
 * (hosts, partition mode, shared memory) and one generator per output object, reproducing
 * dgl-operator's objects. Generators read the plan only and change nothing they are given.
 */
package dev.jobc.dgl;
