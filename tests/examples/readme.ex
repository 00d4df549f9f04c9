# The README's examples, in its order (tests/examples/README).

$ bfsim replay --allocator dp --end '2021-02-11 00:00:00'
bfsim replay (default mode, allocator dp, objective file)
What was replayed
  trace: .../traces/summit-2021-02.trace.gz
  job set: .../datasets/hps-shufflenet-10J.jobs
  window: 288 events, from 2021-02-10 20:21:15 UTC, to 2021-02-10 23:59:56 UTC
  nodes: 4734
  jobs: 10 in the set, 4 admitted, 4 finished
  policy: tie-break first-admitted, node pick longest-idle, hints off
Idle nodes and harvest
  idle node-hours: 1507 offered, 65.9 used, harvest ratio 4.4%
Training
  samples: 520.0 million trained, 4.92 million lost to rescaling, ...
  changes: 4 rescales, 4 starts, 12 preemptions
  efficiency: 96.3% net of rescaling and preemption, 96.3% of full rate on the nodes held
Completion
  completion time: mean 18.6 min, median 16.1 min, 95th percentile 22.6 min
  makespan: 3.58 h
  fairness: Jain's index 0.978 of the node shares
The allocator
  calls: 101, optimal 101
The run (this machine)
...
? 0

$ bfsim replay --allocator dp --end '2021-02-11 00:00:00' --summary run.json --steps steps.csv
? 0

$ grep -E '"(jobs_finished|harvest_ratio|jct_mean_seconds)"' run.json
  "jobs_finished": 4,
  "harvest_ratio": 0.043741708636293654,
  "jct_mean_seconds": 1116.75,
? 0

$ head -n 2 steps.csv
evtTime,Thr,Rate,ReScost,evt,Nleft,Npre,Njoin,nJob,nNd,nJrun,nNrun,PreCost
2021-02-10 20:22:06,7399156.500000,145081.500000,0.000000,1,0,0,30,1,258,1,64,0.000000
? 0

$ bfsim replay --allocator dp --gap 0.1
bfsim replay: --gap is an option of --allocator milp; --allocator dp would ignore it
Try `bfsim replay --help`.
? 2

$ bfsim convert --from lsf tests/data/lsf-aws-hpc-cost-simulator.lsb.acct -o lsf.trace.gz
bfsim: lsf: 1 files, 82 lines, 82 records (format version 10.108)
...
bfsim: trace 2022-02-03 17:40:38 .. 2022-02-03 22:19:09 UTC: 95.5 idle node-hours offered
...
? 0

$ bfsim info summit-2021-02 | head -n 7
trace            .../traces/summit-2021-02.trace.gz
nodes            4734
window           2021-02-10 00:08:52 .. 2021-02-24 22:19:29 UTC
span             358.18 h (14.92 days, 1289437 s)
events           23883 (23882 with changes of these nodes), 1600.3 per day
changes          846856 (423502 become idle, 423354 taken back)
idle node-hours  140182.29
? 0

$ bfsim gen-trace --nodes 4 --duration 1d --seed 1 -o small.trace
bfsim: wrote small.trace: 4 nodes, 56 events, 56 changes, 2 idle at the start (...)
? 0

$ bfsim solve --allocator dp tests/data/branch.instance.json | head -n 5
instance   tests/data/branch.instance.json: 10 jobs, pool 12, Tfwd 10, cap 0
allocator  dp
status     optimal
objective  331660
bound      331660
? 0

$ bfsim sweep tools/sweep-objectives.json --list | wc -l
20
? 0

$ bfsim curves hps-shufflenet-10J --model power | head -n 2
job,model,points,a,b,mape,max_ape
J00000,power,7,2763.1340263390525,0.95120555776379512,0.016204583096353291,0.034204033287908053
? 0
