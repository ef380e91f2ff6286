package dev.jobc.dgl;

/**
 * One line of a DGL ip config file ({@code hostfile}, {@code partfile}, {@code leadfile}): the
 * address DGL connects to, the server port and the pod {@code kubectl exec} targets. {@code slots}
 * is written only for hostfile lines (0 = none).
 */
public record DglPeer(String host, int port, String pod, int slots) {}
