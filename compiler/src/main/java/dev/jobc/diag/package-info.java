/**
 * Diagnostics: what is wrong with an input, where, and how it prints ({@code file:line:col: error:
 * field.path: message}). Plain values; no I/O.
 */
package dev.jobc.diag;
