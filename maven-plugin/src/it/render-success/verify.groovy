evaluate(new File(basedir, '../../../src/it/golden.groovy')).verifyRender(basedir, goldenDir, 'mpijob-v2beta1-pi')
assert new File(basedir, 'build.log').getText('UTF-8').contains('is up to date')
true
