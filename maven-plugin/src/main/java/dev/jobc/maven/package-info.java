/**
 * The jobc Maven plugin: thin Mojos ({@link dev.jobc.maven.RenderMojo}, {@link
 * dev.jobc.maven.CheckMojo}) over {@link dev.jobc.maven.ProjectRender}, which has no Maven types
 * and reuses the CLI's directory logic from {@code dev.jobc.io}.
 */
package dev.jobc.maven;
