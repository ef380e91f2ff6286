evaluate(new File(basedir, '../../../src/it/golden.groovy')).setup(basedir, goldenDir, 'pytorchjob-simple')
