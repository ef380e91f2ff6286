/**
 * Pure decisions made before any object is built: names, host lists, slots, which implementation's
 * formats apply. No fabric8 builders and no text rendering here; the sidecar reuses {@link
 * dev.jobc.plan.Naming} so host names are computed in one place.
 */
package dev.jobc.plan;
