evaluate(new File(basedir, '../../../src/it/golden.groovy')).setup(basedir, goldenDir, 'mpijob-error-unknown-fields')
