/**
 * Input model: records that mirror the accepted job kinds field for field, spelled as in YAML, so
 * diagnostics print exactly what the user wrote. Bound from the raw tree after the schema check; no
 * logic here beyond the resolved model the planner reads.
 */
package dev.jobc.api;
