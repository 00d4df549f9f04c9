# bfsim(1)'s examples, in its order (tests/examples/README).

$ bfsim replay --allocator dp --nodes 64 --summary - | grep -E '"(nodes|jobs_finished|harvest_ratio)"'
  "nodes": 64,
  "jobs_finished": 10,
  "harvest_ratio": 0.95530688861816448,
? 0

$ bfsim replay --compat bftrainer --allocator even --nodes 10 --start '2021-02-10 20:21:15' --steps s.csv --summary s.json
? 0

$ head -n 3 s.csv
evtTime,Thr,Rate,ReScost,evt,Nleft,Npre,Njoin,nJob,nNd,nJrun,nNrun,PreCost
2021-02-10 20:22:36,0.000000,2831.000000,0.000000,1,0,0,1,1,1,1,1,0.000000
2021-02-10 20:24:07,223649.000000,0.000000,0.000000,2,1,1,0,1,0,0,0,33972.000000
? 0

$ bfsim replay --allocator dp --end '2021-02-10 21:00:00' --dump-instances inst --summary /dev/null
? 0

$ ls inst | wc -l
36
? 0

$ bfsim solve --allocator dp inst/evt-000001.json | sed -n 3,4p
status     optimal
objective  1450815
? 0

$ bfsim replay --trace summit-2021-02-2types --jobs hetero-10J --allocator dp --end '2021-02-11 00:00:00' | grep 'by type'
  idle node-hours by type: V100 753.1, A100 753.5
  node-hours used by type: V100 10.8, A100 29.3
  harvest ratio by type: V100 1.4%, A100 3.9%
? 0

$ bfsim replay --allocator even --gap 0.1; echo "exit status $?"
bfsim replay: --gap is an option of --allocator milp; --allocator even would ignore it
Try `bfsim replay --help`.
exit status 2
? 0
