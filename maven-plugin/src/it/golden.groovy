// Shared by the ITs (each calls it from setup.groovy / verify.groovy): brings a golden case's
// input into the project and compares the build's result with that case's expectation, exactly.
// The expectations stay in golden/cases; there is no second copy here.
def inputDir = { File basedir -> new File(basedir, 'src/main/jobc') }

// The diagnostics the build logged at LEVEL (WARNING, ERROR), in order, without the level and the
// source directory: what `jobc render input.yaml` prints for the same input. With failure: true,
// those Maven repeats in its "Failed to execute goal" message instead; else the plugin's own.
def logged = { File basedir, String level, boolean failure = false ->
  def prefix = "[$level] src/main/jobc/"
  def inFailure = false
  def out = []
  new File(basedir, 'build.log').readLines('UTF-8').each { line ->
    if (line.startsWith('[ERROR] Failed to execute goal')) {
      inFailure = true
    } else if (line.startsWith('[ERROR] -> [Help')) {
      inFailure = false
    } else if (line.startsWith(prefix) && inFailure == failure) {
      out << line.substring(prefix.length())
    }
  }
  out
}

// A diagnostic line of jobc's stderr that is a warning (file:line:col: warning: ...).
def isWarning = { String line -> line ==~ /^.*?:\d+:\d+: warning: .*/ }

[
  // Puts the documentation's snippet NAME (the fenced block after `<!-- snippet: NAME -->` in
  // README.md or a page under docs/, as the CLI tests' DocSnippets reads it; every copy the same)
  // in place of the line `<!-- doc snippet: NAME ... -->` of the project's pom.xml, so the build
  // runs what the documentation prints.
  docSnippet: { File basedir, String docsRoot, String name ->
    def pages = [new File(docsRoot, 'README.md')]
    new File(docsRoot, 'docs').eachFileRecurse(groovy.io.FileType.FILES) {
      if (it.name.endsWith('.md')) pages << it
    }
    def copies = []
    pages.each { page ->
      def lines = page.readLines('UTF-8')
      lines.eachWithIndex { line, at ->
        if (line == "<!-- snippet: $name -->".toString()) {
          assert at + 1 < lines.size() && lines[at + 1].startsWith('```') : "$page: no fenced block after snippet $name"
          def end = (at + 2..<lines.size()).find { lines[it].startsWith('```') }
          assert end != null : "$page: unterminated block after snippet $name"
          copies << lines.subList(at + 2, end).join('\n')
        }
      }
    }
    assert copies : "no snippet $name in README.md or docs/"
    assert copies.unique(false).size() == 1 : "the copies of snippet $name differ"
    def snippet = copies[0]
    def pom = new File(basedir, 'pom.xml')
    def text = pom.getText('UTF-8')
    def marker = ~/(?m)^ *<!-- doc snippet: ${name}\b.*-->$/
    assert text =~ marker : "pom.xml has no doc snippet marker for $name"
    pom.setText(text.replaceFirst(marker, java.util.regex.Matcher.quoteReplacement(snippet)), 'UTF-8')
    true
  },

  setup: { File basedir, String goldenDir, String name ->
    inputDir(basedir).mkdirs()
    new File(inputDir(basedir), 'input.yaml').bytes = new File(goldenDir, "$name/input.yaml").bytes
    true
  },

  // target/jobc holds one file per document of expected.yaml, named <kind>-<name>.yaml, and the
  // record of those names.
  verifyRender: { File basedir, String goldenDir, String name ->
    def expected = new File(goldenDir, "$name/expected.yaml").getText('UTF-8')
    def want = new TreeMap()
    expected.split(/(?m)^---\n/).each { doc ->
      def kind = (doc =~ /(?m)^kind: (.*)$/)[0][1]
      def objectName = (doc =~ /(?m)^metadata:\n(?:  .*\n)*?  name: (.*)$/)[0][1]
      want["${kind}-${objectName}.yaml".toLowerCase(Locale.ROOT)] = doc
    }
    def got = new TreeMap()
    new File(basedir, 'target/jobc').eachFile { got[it.name] = it.getText('UTF-8') }
    // .jobc-files lists the files jobc wrote, after its comment lines.
    def record = got.remove('.jobc-files')
    assert record != null : 'target/jobc/.jobc-files is missing'
    assert record.readLines().findAll { !it.startsWith('#') } == want.keySet() as List
    assert got.keySet() == want.keySet()
    want.each { file, text -> assert got[file] == text : "target/jobc/$file differs from $name" }
    // Exactly the case's warnings, each once, and no error.
    def warnings = new File(goldenDir, "$name/expected-warnings.txt")
    assert logged(basedir, 'WARNING') == (warnings.exists() ? warnings.readLines('UTF-8') : [])
    assert logged(basedir, 'ERROR') == []
    true
  },

  // The build failed, logging exactly the errors and warnings of expected-errors.txt (errors at
  // ERROR, warnings at WARNING, each in the case's order), and wrote nothing.
  verifyErrors: { File basedir, String goldenDir, String name ->
    def expected = new File(goldenDir, "$name/expected-errors.txt").readLines('UTF-8')
    def errors = expected.findAll { !isWarning(it) }
    assert logged(basedir, 'ERROR') == errors
    assert logged(basedir, 'ERROR', true) == errors
    assert logged(basedir, 'WARNING') == expected.findAll { isWarning(it) }
    assert !new File(basedir, 'target/jobc').exists()
    true
  },
]
