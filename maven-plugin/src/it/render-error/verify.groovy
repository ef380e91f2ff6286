evaluate(new File(basedir, '../../../src/it/golden.groovy')).verifyErrors(basedir, goldenDir, 'error-unknown-fields')
