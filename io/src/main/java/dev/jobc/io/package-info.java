/**
 * What every front end (the {@code jobc} CLI and its KRM and Argo CD modes, the Maven plugin)
 * shares: reading inputs from files and directories, the compile options by name, and writing or
 * checking a rendered directory. No picocli and no Maven API here, so the Maven plugin can use it.
 */
package dev.jobc.io;
