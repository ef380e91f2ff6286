/**
 * The sidecar's API access, the only package that speaks HTTP or TLS: {@link
 * dev.jobc.sidecar.client.ClusterApi}, one method per resource and verb, on {@link
 * dev.jobc.sidecar.client.ApiConnection} (the JDK's HTTP client as client-go uses the API server),
 * objects read with Jackson's streaming parser ({@link dev.jobc.sidecar.client.PodJson}, {@link
 * dev.jobc.sidecar.client.JobJson}) and watched by {@link dev.jobc.sidecar.client.Informer}. It
 * needs nothing of the run-time logic above it.
 */
package dev.jobc.sidecar.client;
