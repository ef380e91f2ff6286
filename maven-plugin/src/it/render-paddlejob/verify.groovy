evaluate(new File(basedir, '../../../src/it/golden.groovy')).verifyRender(basedir, goldenDir, 'paddlejob-simple-cpu')
