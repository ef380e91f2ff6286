package dev.jobc.pytorch;

import dev.jobc.k8s.RestrictedSecurityContext;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * The {@code init-pytorch} container training-operator v1.9.0 appends to every Worker of a job with
 * a Master ({@code pkg/controller.v1/pytorch/initcontainer.go}, {@code initContainerTemplate}, with
 * {@code pkg/config}'s 100 tries; the image, {@code alpine:3.10} by default, is {@code
 * --pytorch-init-image}): it waits until the Master's Service name resolves, which it does once the
 * Master's pod is ready, trying {@value #TRIES} times two seconds apart, then gives up and fails.
 * jobc adds a security context that meets the Pod Security Standards' {@code restricted} profile
 * (upstream's runs as the image's root), so a namespace enforcing the profile admits the worker
 * whenever the user's containers pass.
 */
final class PyTorchInitContainer {
  static final String NAME = "init-pytorch";

  /** {@code PyTorchInitContainerMaxTriesDefault}: the wait's bound. */
  static final int TRIES = 100;

  private PyTorchInitContainer() {}

  static Container of(String image, String masterAddr) {
    Container c = new Container();
    c.setName(NAME);
    c.setImage(image);
    c.setImagePullPolicy("IfNotPresent");
    ResourceRequirements resources = new ResourceRequirements();
    LinkedHashMap<String, Quantity> limits = new LinkedHashMap<>();
    limits.put("cpu", new Quantity("100m"));
    limits.put("memory", new Quantity("20Mi"));
    LinkedHashMap<String, Quantity> requests = new LinkedHashMap<>();
    requests.put("cpu", new Quantity("50m"));
    requests.put("memory", new Quantity("10Mi"));
    resources.setLimits(limits);
    resources.setRequests(requests);
    c.setResources(resources);
    c.setCommand(
        new ArrayList<>(
            List.of(
                "sh",
                "-c",
                "err=1;for i in $(seq "
                    + TRIES
                    + "); do if nslookup "
                    + masterAddr
                    + "; then err=0 && break; fi;echo waiting for master; sleep 2; done; exit"
                    + " $err")));
    // nslookup writes nothing: the root file system can be read-only too.
    c.setSecurityContext(RestrictedSecurityContext.of(true));
    return c;
  }
}
