# datasets: job sets converted from the BFTrainer replayer's data
# (see datasets/README), installed under $(pkgdatadir)/datasets.
nobase_dist_pkgdata_DATA += datasets/hps-shufflenet-10J.jobs
nobase_dist_pkgdata_DATA += datasets/hps-shufflenet-1000J.jobs.gz
nobase_dist_pkgdata_DATA += datasets/imagenet-imgps-1001J.jobs.gz
nobase_dist_pkgdata_DATA += datasets/imagenet-spdup-1001J.jobs.gz
EXTRA_DIST += datasets/README
# The heterogeneous job sets (node types with speed factors from published
# measurements) and the what-if node-type map of the Summit trace, with the
# script that made them (datasets/README, "Node types").
nobase_dist_pkgdata_DATA += datasets/hetero-10J.jobs
nobase_dist_pkgdata_DATA += datasets/hetero-1000J.jobs.gz
nobase_dist_pkgdata_DATA += datasets/summit-2types.map
dist_noinst_SCRIPTS += tools/hetero-datasets
# The measured-curve corpus of `bfsim curves --fit-predictor`, with the
# script that made it (datasets/README, "The curve corpus").
nobase_dist_pkgdata_DATA += datasets/curve-corpus.jobs
dist_noinst_SCRIPTS += tools/make-curve-corpus
# The ImageNet set with feature columns, and the script that made it
# (datasets/README, "The native job format").
nobase_dist_pkgdata_DATA += datasets/imagenet-features-1001J.jobs.gz
dist_noinst_SCRIPTS += tools/imagenet-features
