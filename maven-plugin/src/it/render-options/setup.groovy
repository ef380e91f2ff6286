evaluate(new File(basedir, '../../../src/it/golden.groovy')).setup(basedir, goldenDir, 'mpijob-v2beta1-intel-cluster-domain')
