package dev.jobc.maven;

import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;

/**
 * {@code jobc:check}: fails when {@code outputDirectory} differs from a fresh render (for projects
 * that commit the rendered directory); writes nothing.
 */
@Mojo(name = "check", defaultPhase = LifecyclePhase.VERIFY, threadSafe = true)
public class CheckMojo extends JobcMojo {
  @Override
  ProjectRender.Result run(ProjectRender project) {
    return project.check();
  }

  @Override
  String failure(ProjectRender.Result result) {
    return "jobc: "
        + outputDirectory
        + " is not what the job specs render to; run jobc:render and commit the result:\n"
        + result.report();
  }

  @Override
  String success(ProjectRender.Result result) {
    return "jobc: " + outputDirectory + " is current (" + result.objects() + " objects)";
  }
}
