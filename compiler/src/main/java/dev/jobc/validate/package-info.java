/**
 * Semantic rules beyond the schema: upstream mpi-operator's validation (same field paths and error
 * types) plus the rules upstream forgot. Pure; returns findings, never throws for bad input.
 */
package dev.jobc.validate;
