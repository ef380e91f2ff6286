package dev.jobc.sidecar;

import com.tngtech.archunit.core.domain.AccessTarget;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.jobc.sidecar.base.SidecarCommand;
import dev.jobc.sidecar.client.ApiConnection;
import dev.jobc.sidecar.client.ClusterApi;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import picocli.CommandLine.Command;

/**
 * Every Kubernetes API call each sidecar command can make, read from the sidecar's byte code (not
 * from a list kept by hand), so that a new call, in any class a command reaches, is seen:
 *
 * <ul>
 *   <li>the <b>commands</b> are the subclasses of {@link SidecarCommand}, by their picocli name;
 *   <li>what a command <b>reaches</b>: every method or constructor of the sidecar's classes that
 *       its class calls or references, transitively, with the overriding methods of a reached one,
 *       and every method of a class whose constructor is reached (a callback fabric8 calls, an
 *       anonymous class's);
 *   <li>an <b>API call</b> is a call of a method of {@link ClusterApi}, the one class that talks to
 *       the API server; each method is one verb on one resource ({@link #CLUSTER_API}), and a
 *       method missing from that table fails the reading.
 * </ul>
 *
 * {@link ApiStandIn} checks each request a command makes in a test against it, so a call the
 * reading misses fails the scenario that makes it.
 */
final class SidecarApiCalls {
  /** One call: the resource ({@code group/plural[/subresource]}, core without group) and verb. */
  record Call(String resource, String verb, String site) {
    String key() {
      return verb + " " + resource;
    }
  }

  /** Each API call of {@link ClusterApi}: the RBAC verb and resource ({@code group/plural}). */
  static final Map<String, List<String>> CLUSTER_API =
      Map.ofEntries(
          Map.entry("getPod", List.of("get", "pods")),
          Map.entry("listPods", List.of("list", "pods")),
          Map.entry("listPodsPage", List.of("list", "pods")),
          Map.entry("watchPods", List.of("watch", "pods")),
          Map.entry("patchPod", List.of("patch", "pods")),
          Map.entry("getJob", List.of("get", "batch/jobs")),
          Map.entry("listJobs", List.of("list", "batch/jobs")),
          Map.entry("listJobsPage", List.of("list", "batch/jobs")),
          Map.entry("watchJobs", List.of("watch", "batch/jobs")),
          Map.entry("patchJob", List.of("patch", "batch/jobs")),
          Map.entry("createEvent", List.of("create", "events")),
          Map.entry("getStatefulSetScale", List.of("get", "apps/statefulsets/scale")),
          Map.entry("applyStatefulSetScale", List.of("patch", "apps/statefulsets/scale")));

  /** {@link ClusterApi}'s methods that make no call of their own. */
  static final Set<String> NOT_CALLS =
      Set.of("connection", "labelSelector", "nameSelector", "encode", "<init>");

  static final String PACKAGE = "dev.jobc.sidecar";

  /** The API access ({@link ClusterApi} and what it is built on): calls into it are the calls. */
  static final String CLIENT = PACKAGE + ".client";

  private static Map<String, Set<Call>> byCommand;

  private SidecarApiCalls() {}

  /** Each command's calls, by command name. */
  static synchronized Map<String, Set<Call>> byCommand() {
    if (byCommand == null) {
      byCommand = read();
    }
    return byCommand;
  }

  /** The {@link Call#key}s of {@code command}'s calls, or of every command's for {@code null}. */
  static Set<String> keys(String command) {
    Set<String> out = new TreeSet<>();
    for (Map.Entry<String, Set<Call>> e : byCommand().entrySet()) {
      if (command == null || command.equals(e.getKey())) {
        e.getValue().forEach(c -> out.add(c.key()));
      }
    }
    return out;
  }

  /** Whether {@code verb} on {@code resource} is among {@code command}'s calls. */
  static boolean covers(String command, String resource, String verb) {
    for (String key : keys(command)) {
      String[] vr = key.split(" ", 2);
      if (vr[0].equals(verb) && (vr[1].equals("*") || vr[1].equals(resource))) {
        return true;
      }
    }
    return false;
  }

  private static Map<String, Set<Call>> read() {
    JavaClasses classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(PACKAGE);
    JavaClass command = classes.get(SidecarCommand.class);
    Map<String, Set<Call>> out = new TreeMap<>();
    for (JavaClass c : classes) {
      if (!c.isAssignableTo(SidecarCommand.class)
          || c.equals(command)
          || !c.isAnnotatedWith(Command.class)) {
        continue;
      }
      String name = c.getAnnotationOfType(Command.class).name();
      Set<Call> calls = new TreeSet<>(java.util.Comparator.comparing(Call::toString));
      Set<JavaCodeUnit> reached = reached(classes, c);
      for (JavaCodeUnit u : reached) {
        calls.addAll(calls(u));
      }
      out.put(name, calls);
    }
    return out;
  }

  /** What {@code command}'s code reaches in the sidecar's classes. */
  private static Set<JavaCodeUnit> reached(JavaClasses classes, JavaClass command) {
    Set<JavaCodeUnit> seen = new LinkedHashSet<>();
    Deque<JavaCodeUnit> queue = new ArrayDeque<>();
    for (JavaClass c = command; c != null && ours(c); c = c.getRawSuperclass().orElse(null)) {
      queue.addAll(c.getCodeUnits());
    }
    Set<JavaClass> constructed = new HashSet<>();
    while (!queue.isEmpty()) {
      JavaCodeUnit u = queue.poll();
      if (!seen.add(u)) {
        continue;
      }
      for (JavaAccess<?> a : accesses(u)) {
        if (!(a.getTarget() instanceof AccessTarget.CodeUnitAccessTarget target)
            || !ours(target.getOwner())) {
          continue;
        }
        JavaClass owner = target.getOwner();
        for (JavaCodeUnit resolved : target.resolveMember().stream().toList()) {
          queue.add(resolved);
          if (resolved.isConstructor() && constructed.add(owner)) {
            // An object of this class exists: fabric8 (or anyone) may call any of its methods.
            queue.addAll(owner.getCodeUnits());
          }
          if (resolved instanceof JavaMethod m) {
            for (JavaClass sub : owner.getAllSubclasses()) {
              sub.tryGetMethod(m.getName(), parameterNames(m)).ifPresent(queue::add);
            }
          }
        }
      }
    }
    return seen;
  }

  private static String[] parameterNames(JavaMethod m) {
    return m.getRawParameterTypes().stream().map(JavaClass::getName).toArray(String[]::new);
  }

  private static List<JavaAccess<?>> accesses(JavaCodeUnit u) {
    List<JavaAccess<?>> out = new ArrayList<>();
    out.addAll(u.getMethodCallsFromSelf());
    out.addAll(u.getConstructorCallsFromSelf());
    out.addAll(u.getMethodReferencesFromSelf());
    out.addAll(u.getConstructorReferencesFromSelf());
    return out;
  }

  /** The API calls in one code unit. */
  private static Set<Call> calls(JavaCodeUnit u) {
    Set<Call> out = new LinkedHashSet<>();
    if (u.getOwner().isEquivalentTo(ClusterApi.class)
        || u.getOwner().isEquivalentTo(ApiConnection.class)) {
      return out; // the calls themselves, not their callers
    }
    for (JavaMethodCall call : u.getMethodCallsFromSelf()) {
      String site = u.getOwner().getSimpleName() + "." + u.getName() + ":" + call.getLineNumber();
      if (call.getTargetOwner().isEquivalentTo(ApiConnection.class)
          && Set.of("send", "list", "watch").contains(call.getName())) {
        throw new IllegalStateException(
            site + " talks to the API past ClusterApi, whose methods name what each call needs");
      }
      if (!call.getTargetOwner().isEquivalentTo(ClusterApi.class)
          || NOT_CALLS.contains(call.getName())) {
        continue;
      }
      List<String> verbResource = CLUSTER_API.get(call.getName());
      if (verbResource == null) {
        throw new IllegalStateException(
            "ClusterApi." + call.getName() + " (" + site + ") has no entry in CLUSTER_API");
      }
      out.add(new Call(verbResource.get(1), verbResource.get(0), site));
    }
    return out;
  }

  /** The run-time logic: the sidecar's packages but the API access. */
  private static boolean ours(JavaClass c) {
    String p = c.getPackageName();
    return (p.equals(PACKAGE) || p.startsWith(PACKAGE + "."))
        && !p.equals(CLIENT)
        && !p.startsWith(CLIENT + ".");
  }
}
