package dev.jobc.maven;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.options.Option;
import dev.jobc.options.OptionTable;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * Pins the generated plugin descriptor: goals, phases, thread safety, and each parameter's type,
 * property and default. This is the plugin's contract with every POM that uses it; a change here is
 * a change users see.
 */
class PluginDescriptorTest {
  /** The parameters that are not compile options. */
  private static final List<String> FIXED =
      List.of(
          "baseDirectory java.io.File readonly default=${project.basedir}",
          "excludes java.util.List property=jobc.excludes",
          "outputDirectory java.io.File property=jobc.outputDirectory"
              + " default=${project.build.directory}/jobc",
          "skip boolean property=jobc.skip default=false",
          "sourceDirectory java.io.File property=jobc.sourceDirectory"
              + " default=${project.basedir}/src/main/jobc",
          "stampFile java.io.File readonly default=${project.build.directory}/jobc.stamp");

  /**
   * Every goal's parameters: the fixed ones, and one text parameter per option-table row with its
   * property and no Maven default (an unset parameter leaves the table's default).
   */
  private static final String SHARED = shared();

  private static String shared() {
    Map<String, String> lines = new TreeMap<>();
    FIXED.forEach(l -> lines.put(l.substring(0, l.indexOf(' ')), l));
    for (Option<?> option : OptionTable.ALL) {
      String name = option.camelName();
      lines.put(name, name + " java.lang.String property=jobc." + name);
    }
    StringBuilder out = new StringBuilder();
    lines.values().forEach(l -> out.append("  ").append(l).append('\n'));
    return out.toString();
  }

  @Test
  void optionParametersAreDescribedByTheTable() throws Exception {
    Document doc = descriptor();
    for (Element mojo : children(child(doc.getDocumentElement(), "mojos"), "mojo")) {
      Map<String, String> descriptions = new TreeMap<>();
      for (Element p : children(child(mojo, "parameters"), "parameter")) {
        descriptions.put(text(p, "name"), text(p, "description"));
      }
      for (Option<?> option : OptionTable.ALL) {
        assertThat(descriptions.get(option.camelName()))
            .as(option.name())
            .startsWith(option.helpText());
      }
    }
  }

  @Test
  void descriptorIsPinned() throws Exception {
    assertThat(summary())
        .isEqualTo(
            "prefix jobc\n"
                + "goal check phase=verify threadSafe=true\n"
                + SHARED
                + "goal render phase=generate-resources threadSafe=true\n"
                + SHARED);
  }

  /** One line per goal and per parameter, sorted by name. */
  private static String summary() throws Exception {
    Document doc = descriptor();
    Element plugin = doc.getDocumentElement();
    StringBuilder out = new StringBuilder("prefix " + text(plugin, "goalPrefix") + "\n");
    Map<String, Element> mojos = new TreeMap<>();
    for (Element mojo : children(child(plugin, "mojos"), "mojo")) {
      mojos.put(text(mojo, "goal"), mojo);
    }
    for (Map.Entry<String, Element> e : mojos.entrySet()) {
      Element mojo = e.getValue();
      out.append("goal ")
          .append(e.getKey())
          .append(" phase=")
          .append(text(mojo, "phase"))
          .append(" threadSafe=")
          .append(text(mojo, "threadSafe"))
          .append('\n');
      Map<String, Element> config = new TreeMap<>();
      for (Element c : children(child(mojo, "configuration"), null)) {
        config.put(c.getTagName(), c);
      }
      Map<String, String> lines = new TreeMap<>();
      for (Element p : children(child(mojo, "parameters"), "parameter")) {
        String name = text(p, "name");
        Element c = config.get(name);
        StringBuilder line = new StringBuilder("  " + name + " " + text(p, "type"));
        String expression = c == null ? "" : c.getTextContent().strip();
        if (expression.startsWith("${jobc.")) {
          line.append(" property=").append(expression, 2, expression.length() - 1);
        }
        if (text(p, "editable").equals("false")) {
          line.append(" readonly");
        }
        if (c != null && c.hasAttribute("default-value")) {
          line.append(" default=").append(c.getAttribute("default-value"));
        }
        lines.put(name, line.toString());
      }
      lines.values().forEach(l -> out.append(l).append('\n'));
    }
    return out.toString();
  }

  private static Document descriptor() throws Exception {
    try (InputStream in =
        PluginDescriptorTest.class.getResourceAsStream("/META-INF/maven/plugin.xml")) {
      assertThat(in).as("plugin.xml on the test class path").isInstanceOf(InputStream.class);
      return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(in);
    }
  }

  private static Element child(Element parent, String name) {
    List<Element> found = children(parent, name);
    assertThat(found).as(name + " in " + parent.getTagName()).hasSize(1);
    return found.get(0);
  }

  private static List<Element> children(Element parent, String name) {
    List<Element> out = new ArrayList<>();
    NodeList nodes = parent.getChildNodes();
    for (int i = 0; i < nodes.getLength(); i++) {
      Node n = nodes.item(i);
      if (n instanceof Element e && (name == null || e.getTagName().equals(name))) {
        out.add(e);
      }
    }
    return out;
  }

  private static String text(Element parent, String name) {
    return child(parent, name).getTextContent().strip();
  }
}
