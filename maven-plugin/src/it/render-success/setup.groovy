def golden = evaluate(new File(basedir, '../../../src/it/golden.groovy'))
golden.docSnippet(basedir, docsRoot, 'maven')
golden.setup(basedir, goldenDir, 'mpijob-v2beta1-pi')
