/**
 * Canonical output: {@link dev.jobc.render.YamlWriter} is the only place jobc writes YAML. The
 * FreeMarker wrapper ({@code Templates}, text payloads) and the output order ({@code Ordering})
 * live here too. Same tree in, same bytes out, on any machine, locale or JDK.
 */
package dev.jobc.render;
