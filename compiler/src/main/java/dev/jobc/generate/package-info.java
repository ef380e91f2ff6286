/**
 * One generator per output object, building fabric8 model objects from a plan. Pure: no I/O, no
 * mutation of the input; cross-cutting metadata comes from {@link dev.jobc.generate.Metadata} while
 * each object is built, never from a later pass over all objects.
 */
package dev.jobc.generate;
