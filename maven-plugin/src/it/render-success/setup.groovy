def golden = evaluate(new File(basedir, '../../../src/it/golden.groovy'))
golden.readmeSnippet(basedir, readme, 'maven')
golden.setup(basedir, goldenDir, 'mpijob-v2beta1-pi')
