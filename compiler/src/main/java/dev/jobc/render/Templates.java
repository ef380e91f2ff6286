package dev.jobc.render;

import freemarker.core.PlainTextOutputFormat;
import freemarker.template.Configuration;
import freemarker.template.Template;
import freemarker.template.TemplateException;
import freemarker.template.TemplateExceptionHandler;
import freemarker.template.TemplateMethodModelEx;
import freemarker.template.TemplateModelException;
import freemarker.template.TemplateScalarModel;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TimeZone;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Renders the text payloads (hostfile, kubexec.sh, discover_hosts.sh) from FreeMarker templates on
 * the classpath under {@code dev/jobc/templates/}. The only class that imports FreeMarker.
 * Immutable and thread-safe.
 *
 * <p>Configuration is fixed here: a missing variable is an error (never an empty string), numbers
 * print in computer format whatever the locale, and interpolation is {@code [=x]} so that shell
 * {@code ${...}} in scripts stays literal. Templates get {@code shq(s)}, which single-quotes a
 * string for POSIX sh.
 */
public final class Templates {
  private static final String PREFIX = "/dev/jobc/templates/";

  private final Configuration config;
  private final Map<String, Template> cache = new ConcurrentHashMap<>();

  public Templates() {
    Configuration c = new Configuration(Configuration.VERSION_2_3_34);
    c.setClassForTemplateLoading(Templates.class, PREFIX);
    c.setDefaultEncoding("UTF-8");
    c.setLocale(Locale.ROOT);
    c.setTimeZone(TimeZone.getTimeZone("UTC"));
    c.setNumberFormat("computer");
    c.setBooleanFormat("c");
    c.setLocalizedLookup(false);
    c.setOutputFormat(PlainTextOutputFormat.INSTANCE);
    c.setInterpolationSyntax(Configuration.SQUARE_BRACKET_INTERPOLATION_SYNTAX);
    c.setTemplateExceptionHandler(TemplateExceptionHandler.RETHROW_HANDLER);
    c.setLogTemplateExceptions(false);
    c.setWrapUncheckedExceptions(true);
    c.setFallbackOnNullLoopVariable(false);
    c.setAPIBuiltinEnabled(false);
    c.setSharedVariable("shq", (TemplateMethodModelEx) Templates::shq);
    this.config = c;
  }

  /** Renders {@code name} (relative to the template root, e.g. {@code mpijob/hostfile.ftl}). */
  public String render(String name, Map<String, ?> model) {
    Template template = cache.computeIfAbsent(name, this::load);
    StringWriter out = new StringWriter(256);
    try {
      template.process(new HashMap<>(model), out);
    } catch (TemplateException e) {
      throw new IllegalStateException("template " + name + " failed: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  private Template load(String name) {
    try {
      return config.getTemplate(name);
    } catch (IOException e) {
      throw new UncheckedIOException("missing template " + PREFIX + name, e);
    }
  }

  /** {@code abc} → {@code 'abc'}; embedded quotes become {@code '\''}. */
  static String shellQuote(String s) {
    return "'" + s.replace("'", "'\\''") + "'";
  }

  private static Object shq(List<?> args) throws TemplateModelException {
    if (args.size() != 1 || !(args.get(0) instanceof TemplateScalarModel s)) {
      throw new TemplateModelException("shq takes one string");
    }
    return shellQuote(s.getAsString());
  }
}
