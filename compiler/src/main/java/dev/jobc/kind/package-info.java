/**
 * The contract of a job kind: {@code JobKind} says how bind, defaults, validate, plan and generate
 * are done for one kind; the pipeline ({@code dev.jobc.ManifestCompiler}) calls them in its fixed
 * order. A new kind is one package implementing it plus one line registering it there.
 */
package dev.jobc.kind;
