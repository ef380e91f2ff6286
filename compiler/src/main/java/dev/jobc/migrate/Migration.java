package dev.jobc.migrate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobc.diag.Finding;
import java.util.List;

/**
 * What one v1 job migrates to: the objects to write (the TrainJob, then its runtime when it needs
 * one of its own) and every finding; no objects when any finding is an error.
 */
public record Migration(List<ObjectNode> objects, List<Finding> findings) {
  public Migration {
    findings = List.copyOf(findings);
    objects = findings.stream().anyMatch(Finding::isError) ? List.of() : List.copyOf(objects);
  }
}
