/**
 * The {@code jobc} command line: argument parsing, reading inputs and writing outputs around {@link
 * dev.jobc.ManifestCompiler}. All compilation logic lives in the compiler; this package only does
 * I/O and maps flags onto {@link dev.jobc.options.CompileOptions}.
 */
package dev.jobc.cli;
