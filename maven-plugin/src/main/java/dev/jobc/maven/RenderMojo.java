package dev.jobc.maven;

import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;

/** {@code jobc:render}: renders the job specs into {@code outputDirectory}. */
@Mojo(name = "render", defaultPhase = LifecyclePhase.GENERATE_RESOURCES, threadSafe = true)
public class RenderMojo extends JobcMojo {
  @Override
  ProjectRender.Result run(ProjectRender project) {
    return project.render();
  }

  @Override
  String failure(ProjectRender.Result result) {
    return "jobc: nothing was written:\n" + result.report();
  }

  @Override
  String success(ProjectRender.Result result) {
    return result.upToDate()
        ? "jobc: " + outputDirectory + " is up to date"
        : "jobc: rendered " + result.objects() + " objects into " + outputDirectory;
  }
}
