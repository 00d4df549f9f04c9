# datasets: job sets converted from the BFTrainer replayer's data
# (see datasets/README), installed under $(pkgdatadir)/datasets.
nobase_dist_pkgdata_DATA += datasets/hps-shufflenet-10J.jobs
nobase_dist_pkgdata_DATA += datasets/hps-shufflenet-1000J.jobs.gz
nobase_dist_pkgdata_DATA += datasets/imagenet-imgps-1001J.jobs.gz
nobase_dist_pkgdata_DATA += datasets/imagenet-spdup-1001J.jobs.gz
EXTRA_DIST += datasets/README
