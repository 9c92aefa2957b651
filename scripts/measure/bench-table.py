"""Prints one table from the results bench.sh gathered: criterion's estimates under
target/criterion/ and `workload<TAB>implementation<TAB>GB/s[<TAB>peak RSS MB]` lines."""

import glob
import json
import os
import sys

PEERS = ["percent-encoding", "urlencoding", "form_urlencoded", "python", "node"]
COLUMNS = ["urlkit"] + PEERS + ["memcpy"]


def criterion_results(root):
    results = {}
    for path in glob.glob(os.path.join(root, "*", "*", "new", "benchmark.json")):
        with open(path) as f:
            bench = json.load(f)
        with open(os.path.join(os.path.dirname(path), "estimates.json")) as f:
            estimates = json.load(f)
        nanoseconds = estimates["median"]["point_estimate"]
        bytes_ = bench["throughput"]["Bytes"]
        results[(bench["group_id"], bench["value_str"])] = bytes_ / nanoseconds
    return results


def main():
    criterion_root, lines_file = sys.argv[1], sys.argv[2]
    results = criterion_results(criterion_root)
    rss = {}
    with open(lines_file) as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if len(fields) < 3:
                continue
            results[(fields[0], fields[1])] = float(fields[2])
            if len(fields) > 3:
                rss[fields[0]] = fields[3]
    workloads = []
    for workload, _ in results:
        if workload not in workloads:
            workloads.append(workload)
    workloads.sort(key=lambda w: (w.startswith("cli"), not w.startswith("decode"), w))
    header = ["workload (GB/s)"] + COLUMNS + ["urlkit / best peer", "peak RSS"]
    rows = []
    for workload in workloads:
        row = [workload]
        for column in COLUMNS:
            value = results.get((workload, column))
            row.append(f"{value:.3f}" if value is not None else "-")
        ours = results.get((workload, "urlkit"))
        peers = [results[(workload, p)] for p in PEERS if (workload, p) in results]
        row.append(f"{ours / max(peers):.2f}x" if ours and peers else "-")
        row.append(f"{rss[workload]} MB" if workload in rss else "-")
        rows.append(row)
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(len(header))]
    def show(row):
        return "| " + " | ".join(c.ljust(w) for c, w in zip(row, widths)) + " |"
    print(show(header))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in rows:
        print(show(row))


if __name__ == "__main__":
    main()
