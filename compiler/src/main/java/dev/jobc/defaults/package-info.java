/**
 * Defaulting: fills in what upstream's {@code SetDefaults_MPIJob} (and the CRD's kubebuilder
 * defaults) would, and folds every accepted version into one model. Pure; returns new values.
 */
package dev.jobc.defaults;
