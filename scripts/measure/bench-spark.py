"""Column decoding on a Spark standalone cluster on loopback (a master and two one-core
workers, started with PySpark's own launcher): urlkit's Arrow functions in `mapInArrow`
beside Spark's own `try_url_decode` on the same cached data and the same executors.

    scripts/measure/bench-spark.sh [ROWS] [--runs N]     default 1,000,000 rows, 3 runs

Rows are the generated URLs of bench-columns.py (`clean`, and `dirty`: 5 % of the rows with
something to repair or report). Each job writes to Spark's `noop` sink, so the time is
the decoding and the Arrow hand-over, not output. Prints rows per second (best of N).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Iterator

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "crates" / "urlkit-py" / "tests"))

import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402
from spark_cluster import Cluster, session, wait_for_executors  # noqa: E402


def load_generators():
    spec = importlib.util.spec_from_file_location(
        "bench_columns", ROOT / "scripts" / "measure" / "bench-columns.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def urlkit_decode(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    import pyurlkit.arrow as ua
    for batch in batches:
        yield pa.RecordBatch.from_arrays([ua.decode(batch.column(0))], names=["url"])


def urlkit_decode_auto(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    import pyurlkit.arrow as ua
    for batch in batches:
        yield pa.RecordBatch.from_arrays([ua.decode(batch.column(0), charset="auto")],
                                         names=["url"])


def arrow_only(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    yield from batches


def best(run: Callable[[], None], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("rows", nargs="?", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    from pyspark import cloudpickle
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    from pyspark.sql.functions import col, try_url_decode

    generators = load_generators()
    inputs = {
        "clean": generators.generate(args.rows),
        "dirty": generators.generate_dirty(args.rows, 0.05),
    }
    work = Path(tempfile.mkdtemp(prefix="urlkit-bench-spark-"))
    with Cluster(workers=2, worker_memory="2g") as cluster:
        spark = session(cluster, "urlkit-bench-spark", executor_memory="1536m")
        wait_for_executors(spark, 2)
        print(f"{args.rows:,} rows on a standalone cluster: 2 workers of 1 core on "
              f"127.0.0.1, best of {args.runs}")
        print(f"{'job':<52}{'clean rows/s':>14}{'dirty rows/s':>14}")
        results = {}
        for name, urls in inputs.items():
            path = work / f"{name}.parquet"
            pq.write_table(pa.table({"url": pa.array(urls, pa.string())}), path)
            frame = spark.read.parquet(str(path)).repartition(4).cache()
            frame.count()

            def sink(df):
                return lambda: df.write.format("noop").mode("overwrite").save()

            jobs = {
                "urlkit decode (mapInArrow)": sink(frame.mapInArrow(urlkit_decode, "url string")),
                "urlkit decode, charset auto (mapInArrow)":
                    sink(frame.mapInArrow(urlkit_decode_auto, "url string")),
                "Spark try_url_decode": sink(frame.select(try_url_decode(col("url")))),
                "Arrow hand-over alone (mapInArrow, no work)":
                    sink(frame.mapInArrow(arrow_only, "url string")),
            }
            for job, run in jobs.items():
                results.setdefault(job, {})[name] = args.rows / best(run, args.runs)
            frame.unpersist()
        for job, by_input in results.items():
            print(f"{job:<52}{by_input['clean']:>14,.0f}{by_input['dirty']:>14,.0f}")
        ours = results["urlkit decode (mapInArrow)"]
        spark_own = results["Spark try_url_decode"]
        print(f"urlkit / Spark: {ours['clean'] / spark_own['clean']:.2f}x clean, "
              f"{ours['dirty'] / spark_own['dirty']:.2f}x dirty")
        spark.stop()


if __name__ == "__main__":
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    main()
