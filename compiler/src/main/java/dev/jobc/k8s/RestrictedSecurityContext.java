package dev.jobc.k8s;

import io.fabric8.kubernetes.api.model.Capabilities;
import io.fabric8.kubernetes.api.model.SeccompProfile;
import io.fabric8.kubernetes.api.model.SecurityContext;
import java.util.ArrayList;
import java.util.List;

/**
 * The security context of every container jobc adds to a pod: it meets the Pod Security Standards'
 * {@code restricted} profile on its own (non-root, no privilege escalation, every capability
 * dropped, the runtime's default seccomp profile), so a namespace that enforces the profile admits
 * the pod whenever the user's own containers pass. The user is numeric because the kubelet can only
 * check {@code runAsNonRoot} against a numeric user. It is set on every such container, the
 * sidecar's too (whose image runs as 65532 already): the default kubectl image ({@code alpine/k8s},
 * no {@code USER}) and the worker images the DGL resolver runs in start as root, and a container
 * without a user of its own inherits the pod's {@code runAsUser}, which may be 0. {@code
 * readOnlyRoot} (not part of the profile) is for containers known to write only to their volumes.
 */
public final class RestrictedSecurityContext {
  /**
   * The user jobc's containers run as: distroless' {@code nonroot}, which the sidecar image has.
   */
  public static final long USER = 65532L;

  private RestrictedSecurityContext() {}

  public static SecurityContext of(boolean readOnlyRoot) {
    // Plain setters: a fabric8 builder copies every nested value reflectively, several times
    // slower, and this runs for every container jobc adds.
    SecurityContext context = new SecurityContext();
    context.setRunAsNonRoot(true);
    context.setRunAsUser(USER);
    context.setRunAsGroup(USER);
    context.setReadOnlyRootFilesystem(readOnlyRoot ? Boolean.TRUE : null);
    context.setAllowPrivilegeEscalation(false);
    Capabilities capabilities = new Capabilities();
    capabilities.setDrop(new ArrayList<>(List.of("ALL")));
    context.setCapabilities(capabilities);
    SeccompProfile seccomp = new SeccompProfile();
    seccomp.setType("RuntimeDefault");
    context.setSeccompProfile(seccomp);
    return context;
  }
}
