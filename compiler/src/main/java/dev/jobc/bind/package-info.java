/**
 * Trees to models and back: the one place that configures Jackson databind ({@code ObjectTrees}),
 * with property deserializers built on first use ({@code LazyPropertyDeserializers}).
 */
package dev.jobc.bind;
