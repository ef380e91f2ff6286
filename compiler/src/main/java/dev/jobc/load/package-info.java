/**
 * YAML text to trees with positions: {@link dev.jobc.load.YamlLoader} is the only place jobc parses
 * YAML, and records where every key and value came from in a {@link dev.jobc.load.SourceIndex} so
 * later steps can point diagnostics at the user's text. No schema or Kubernetes knowledge here.
 */
package dev.jobc.load;
