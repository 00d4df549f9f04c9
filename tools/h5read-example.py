#!/usr/bin/env python3
"""Read the HDF5 file of a bfsim replay with h5py and pandas.

Usage: h5read-example.py REPLAY.h5

Tables (compound datasets; each has a "columns" attribute describing its
fields): events, solves, allocations, node_holdings, node_idle, jobs.  Times are Unix seconds (UTC).
Root attributes hold the run's metadata, /summary's attributes its totals.
"""
import sys

import h5py
import pandas as pd


def table(f, name):
    """One dataset as a DataFrame, string fields decoded to str."""
    df = pd.DataFrame(f[name][:])
    for col in df.columns:
        if df[col].dtype == object:  # fixed-length strings arrive as bytes
            df[col] = df[col].str.decode("utf-8")
    return df


with h5py.File(sys.argv[1], "r") as f:
    attrs = dict(f.attrs)  # str for strings, numpy numbers otherwise
    summary = dict(f["summary"].attrs)
    events = table(f, "events")
    solves = table(f, "solves")
    allocs = table(f, "allocations")
    holdings = table(f, "node_holdings")
    idle = table(f, "node_idle")
    jobs = table(f, "jobs")
    # status is an HDF5 enum: h5py gives its codes and the name mapping.
    status = h5py.check_enum_dtype(f["solves"].dtype["status"])

solves["status"] = solves["status"].map({v: k for k, v in status.items()})
events["time"] = pd.to_datetime(events["time"], unit="s", utc=True)

# Nodes held by every job at every event: a job keeps its count from its
# row in /allocations until its next row (0 before its first).
counts = (
    allocs.pivot(index="evt", columns="job", values="count")
    .reindex(events["evt"])
    .ffill()
    .fillna(0)
    .astype(int)
)

# The node-level schedule: job `job` held node `node` over [start, end).
# Summed per job, end - start is the job's node_seconds.
holdings["job"] = holdings["job"].map(jobs["name"])
held = (holdings["end"] - holdings["start"]).groupby(holdings["job"]).sum()
holdings["start"] = pd.to_datetime(holdings["start"], unit="s", utc=True)
holdings["end"] = pd.to_datetime(holdings["end"], unit="s", utc=True)

for key in sorted(attrs):
    print(f"{key} = {attrs[key]}")
print("summary:", ", ".join(f"{k}={v}" for k, v in sorted(summary.items())))
print("\nevents:\n" + events.to_string(index=False))
print("\nsolves by status:\n" + solves["status"].value_counts().to_string())
print("\nnodes per job (columns: job index):\n" + counts.to_string())
print("\nnode holdings (node, job, start, end):\n"
      + holdings.sort_values(["node", "start"]).to_string(index=False))
print("\nnode-seconds per job, from the holdings:\n" + held.to_string())
# /node_idle: node `node` was in the pool over [start, end).
print("\nidle node-seconds, from /node_idle:",
      int((idle["end"] - idle["start"]).sum()))
print("\njobs:\n" + jobs[["index", "name", "samples", "finished"]]
      .to_string(index=False))
