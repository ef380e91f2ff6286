/**
 * Pure decisions made before any object is built: names, host lists, slots, which implementation's
 * formats apply. No fabric8 builders and no text rendering here. Names, labels and formats the
 * sidecar must produce alike come from {@code dev.jobc.conventions} (module {@code conventions/}).
 */
package dev.jobc.plan;
