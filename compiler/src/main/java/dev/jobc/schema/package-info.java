/**
 * JSON Schema checking of the raw document tree, before binding: unknown fields (with a "did you
 * mean"), wrong types and out-of-range integers, reported with upstream field paths. {@link
 * dev.jobc.schema.SchemaValidator} is the only place that imports networknt's validator and knows
 * where the schema files live.
 */
package dev.jobc.schema;
