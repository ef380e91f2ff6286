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
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
 *   <li>an <b>API call</b> is a call into fabric8's client whose name is one of its operations
 *       ({@link #OPERATIONS}: {@code delete}, {@code patch}, {@code edit}, {@code list}, ...), or a
 *       request sent through fabric8's raw {@code HttpClient};
 *   <li>its <b>resource</b> is what the calling method selects ({@code pods()}, {@code batch().v1()
 *       .jobs()}, ...); a method that selects none gets what its callers select, for a DSL object
 *       passed in; a raw request's is what its class's string constants spell ({@code
 *       /apis/apps/v1/namespaces/}, {@code /statefulsets/}, {@code /scale}); one that cannot be
 *       told is {@code *}, which matches every resource.
 * </ul>
 *
 * The result over-approximates: every method that selects two resources counts each operation on
 * both. {@link ApiStandIn} checks each request a command makes in a test against it, so a call the
 * reading misses fails the scenario that makes it.
 */
final class SidecarApiCalls {
  /** One call: the resource ({@code group/plural[/subresource]}, core without group) and verb. */
  record Call(String resource, String verb, String site) {
    String key() {
      return verb + " " + resource;
    }
  }

  /** fabric8 operations and the RBAC verbs each request it sends needs. */
  static final Map<String, List<String>> OPERATIONS =
      Map.ofEntries(
          Map.entry("get", List.of("get")),
          Map.entry("list", List.of("list")),
          Map.entry("watch", List.of("watch")),
          Map.entry("inform", List.of("list", "watch")),
          Map.entry("informOnCondition", List.of("list", "watch")),
          Map.entry("runnableInformer", List.of("list", "watch")),
          Map.entry("waitUntilCondition", List.of("get", "list", "watch")),
          Map.entry("waitUntilReady", List.of("get", "list", "watch")),
          Map.entry("create", List.of("create")),
          Map.entry("createOr", List.of("create", "update", "patch")),
          Map.entry("createOrReplace", List.of("create", "update")),
          Map.entry("delete", List.of("delete")),
          Map.entry("evict", List.of("delete")),
          Map.entry("edit", List.of("get", "patch")),
          Map.entry("editStatus", List.of("get", "patch")),
          Map.entry("patch", List.of("get", "patch")),
          Map.entry("patchStatus", List.of("patch")),
          Map.entry("serverSideApply", List.of("patch")),
          Map.entry("scale", List.of("get", "patch")),
          Map.entry("update", List.of("update")),
          Map.entry("updateStatus", List.of("update")),
          Map.entry("replace", List.of("get", "update")),
          Map.entry("replaceStatus", List.of("get", "update")));

  /** Methods that select a resource; the API group comes from the DSL they are called on. */
  static final Set<String> SELECTORS =
      Set.of(
          "pods",
          "services",
          "configMaps",
          "secrets",
          "serviceAccounts",
          "events",
          "endpoints",
          "persistentVolumeClaims",
          "jobs",
          "cronjobs",
          "statefulSets",
          "deployments",
          "replicaSets",
          "daemonSets",
          "roles",
          "roleBindings",
          // The kind is in the object, not in the code: any resource.
          "resource",
          "resources",
          "resourceList",
          "genericKubernetesResources");

  static final String CLIENT = "io.fabric8.kubernetes.client";
  static final String RAW_HTTP = "io.fabric8.kubernetes.client.http.HttpClient";
  static final String PACKAGE = "dev.jobc.sidecar";

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
    Map<String, Set<JavaCodeUnit>> callers = callers(classes);
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
        calls.addAll(calls(u, callers, reached));
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

  /** Who calls each of the sidecar's code units, by full name. */
  private static Map<String, Set<JavaCodeUnit>> callers(JavaClasses classes) {
    Map<String, Set<JavaCodeUnit>> out = new HashMap<>();
    for (JavaClass c : classes) {
      for (JavaCodeUnit u : c.getCodeUnits()) {
        for (JavaAccess<?> a : accesses(u)) {
          if (a.getTarget() instanceof AccessTarget.CodeUnitAccessTarget target
              && ours(target.getOwner())) {
            for (JavaCodeUnit resolved : target.resolveMember().stream().toList()) {
              out.computeIfAbsent(resolved.getFullName(), k -> new LinkedHashSet<>()).add(u);
            }
          }
        }
      }
    }
    return out;
  }

  /** The API calls in one code unit. */
  private static Set<Call> calls(
      JavaCodeUnit u, Map<String, Set<JavaCodeUnit>> callers, Set<JavaCodeUnit> reached) {
    Set<Call> out = new LinkedHashSet<>();
    for (JavaMethodCall call : u.getMethodCallsFromSelf()) {
      String owner = call.getTargetOwner().getName();
      String name = call.getName();
      String site = u.getOwner().getSimpleName() + "." + u.getName() + ":" + call.getLineNumber();
      if (owner.equals(RAW_HTTP) && name.startsWith("send")) {
        for (String resource : rawResources(u.getOwner())) {
          for (String verb : rawVerbs(u.getOwner())) {
            out.add(new Call(resource, verb, site));
          }
        }
      } else if (owner.startsWith(CLIENT) && OPERATIONS.containsKey(name)) {
        for (String resource : resources(u, callers, reached, new HashSet<>())) {
          for (String verb : OPERATIONS.get(name)) {
            out.add(
                new Call(
                    name.equals("scale") && !resource.equals("*") ? resource + "/scale" : resource,
                    verb,
                    site));
          }
        }
      }
    }
    return out;
  }

  /**
   * What {@code u} selects, itself or through a method of ours that returns what it selected; else
   * (a DSL object passed in) what its callers among {@code reached} select.
   */
  private static Set<String> resources(
      JavaCodeUnit u,
      Map<String, Set<JavaCodeUnit>> callers,
      Set<JavaCodeUnit> reached,
      Set<JavaCodeUnit> visited) {
    if (!visited.add(u)) {
      return Set.of();
    }
    Set<String> out = selected(u, new HashSet<>());
    if (out.isEmpty()) {
      for (JavaCodeUnit caller : callers.getOrDefault(u.getFullName(), Set.of())) {
        if (reached.contains(caller)) {
          out.addAll(resources(caller, callers, reached, visited));
        }
      }
    }
    if (out.isEmpty() && visited.size() == 1) {
      out.add("*");
    }
    return out;
  }

  /** The resources {@code u} selects, directly or through our methods returning DSL objects. */
  private static Set<String> selected(JavaCodeUnit u, Set<JavaCodeUnit> visited) {
    Set<String> out = new TreeSet<>();
    if (!visited.add(u)) {
      return out;
    }
    for (JavaMethodCall call : u.getMethodCallsFromSelf()) {
      String owner = call.getTargetOwner().getName();
      if (owner.startsWith(CLIENT) && selects(call)) {
        out.add(resource(call));
      } else if (ours(call.getTargetOwner())) {
        for (JavaCodeUnit target : call.getTarget().resolveMember().stream().toList()) {
          if (target.getRawReturnType().getName().startsWith(CLIENT)) {
            out.addAll(selected(target, visited));
          }
        }
      }
    }
    return out;
  }

  /**
   * Whether a call selects a resource: a typed selector anywhere, {@code resource(object)} and its
   * kin only on the client itself (on a typed operation they name an object of its resource).
   */
  private static boolean selects(JavaMethodCall call) {
    String name = call.getName();
    if (!SELECTORS.contains(name)) {
      return false;
    }
    return !name.startsWith("resource") || call.getTargetOwner().getSimpleName().endsWith("Client");
  }

  /** {@code group/plural} of a selector call, core resources without group. */
  private static String resource(JavaMethodCall call) {
    String name = call.getName();
    if (name.startsWith("resource") || name.equals("genericKubernetesResources")) {
      return "*";
    }
    String owner = call.getTargetOwner().getSimpleName();
    String plural = name.toLowerCase(Locale.ROOT);
    if (owner.contains("Batch")) {
      return "batch/" + plural;
    }
    if (owner.contains("Apps")) {
      return "apps/" + plural;
    }
    if (owner.contains("Rbac")) {
      return "rbac.authorization.k8s.io/" + plural;
    }
    return plural;
  }

  private static final Pattern GROUP = Pattern.compile("^/apis/([^/]+)/[^/]+/namespaces/$");
  private static final Pattern PLURAL = Pattern.compile("^/([a-z]+)/$");
  private static final Pattern SUBRESOURCE = Pattern.compile("^/(scale|status|eviction|exec)$");
  private static final Set<String> METHODS = Set.of("GET", "PATCH", "PUT", "POST", "DELETE");

  /** The resources a class sending raw requests spells in its string constants. */
  private static Set<String> rawResources(JavaClass c) {
    Set<String> strings = strings(c);
    String group = strings.contains("/api/v1/namespaces/") ? "" : null;
    List<String> plurals = new ArrayList<>();
    String sub = null;
    for (String s : strings) {
      Matcher m = GROUP.matcher(s);
      if (m.matches()) {
        group = m.group(1) + "/";
      }
      m = PLURAL.matcher(s);
      if (m.matches() && !m.group(1).equals("namespaces")) {
        plurals.add(m.group(1));
      }
      m = SUBRESOURCE.matcher(s);
      if (m.matches()) {
        sub = m.group(1);
      }
    }
    if (group == null || plurals.isEmpty()) {
      return Set.of("*");
    }
    Set<String> out = new TreeSet<>();
    for (String plural : plurals) {
      out.add(group + plural + (sub == null ? "" : "/" + sub));
    }
    return out;
  }

  /** The HTTP methods a class sending raw requests spells, as RBAC verbs. */
  private static Set<String> rawVerbs(JavaClass c) {
    Set<String> out = new TreeSet<>();
    for (String s : strings(c)) {
      if (METHODS.contains(s)) {
        out.add(
            switch (s) {
              case "GET" -> "get";
              case "POST" -> "create";
              case "PUT" -> "update";
              default -> s.toLowerCase(Locale.ROOT);
            });
      }
    }
    return out.isEmpty() ? Set.of("get", "create", "update", "patch", "delete") : out;
  }

  /** The string literals of a class: its constant pool's {@code CONSTANT_String} entries. */
  static Set<String> strings(JavaClass c) {
    String resource = c.getName().replace('.', '/') + ".class";
    try (InputStream raw = SidecarApiCalls.class.getClassLoader().getResourceAsStream(resource)) {
      if (raw == null) {
        throw new IllegalStateException("no class file " + resource);
      }
      DataInputStream in = new DataInputStream(raw);
      in.readInt(); // magic
      in.readUnsignedShort(); // minor
      in.readUnsignedShort(); // major
      int count = in.readUnsignedShort();
      String[] utf8 = new String[count];
      List<Integer> stringRefs = new ArrayList<>();
      for (int i = 1; i < count; i++) {
        int tag = in.readUnsignedByte();
        switch (tag) {
          case 1 -> utf8[i] = in.readUTF();
          case 8 -> stringRefs.add(in.readUnsignedShort());
          case 7, 16, 19, 20 -> in.readUnsignedShort();
          case 15 -> {
            in.readUnsignedByte();
            in.readUnsignedShort();
          }
          case 3, 4, 9, 10, 11, 12, 17, 18 -> in.readInt();
          case 5, 6 -> {
            in.readLong();
            i++; // takes two entries
          }
          default -> throw new IllegalStateException("constant tag " + tag + " in " + resource);
        }
      }
      Set<String> out = new LinkedHashSet<>();
      for (int ref : stringRefs) {
        out.add(utf8[ref]);
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static boolean ours(JavaClass c) {
    return c.getPackageName().equals(PACKAGE);
  }
}
