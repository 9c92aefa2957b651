"""Python's urllib.parse on the benchmark workloads: best of N runs, in process.
Prints `workload<TAB>python<TAB>GB/s` lines."""

import sys
import time
from urllib.parse import quote, unquote

from bench_inputs import workloads

RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 5


def best(function, argument):
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        function(argument)
        times.append(time.perf_counter() - start)
    return min(times)


for name, data in workloads():
    text = data.decode("utf-8")
    if name.startswith("decode/"):
        seconds = best(unquote, text)
    else:
        seconds = best(lambda s: quote(s, safe=""), text)
    print(f"{name}\tpython\t{len(data) / seconds / 1e9:.4f}")
