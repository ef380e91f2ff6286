/**
 * The compile options: one row per option in {@code OptionTable} (name, annotation, parser,
 * default, help), the immutable {@code CompileOptions} with its draft, the per-job {@code
 * jobc.dev/*} annotations, and the DNS rules the values must follow. Every channel (CLI flags,
 * Maven parameters, KRM and Argo CD parameters, annotations) reads the table.
 */
package dev.jobc.options;
