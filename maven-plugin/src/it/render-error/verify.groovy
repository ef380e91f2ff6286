evaluate(new File(basedir, '../../../src/it/golden.groovy')).verifyErrors(basedir, goldenDir, 'mpijob-error-unknown-fields')
