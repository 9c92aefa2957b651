"""Spark on a real cluster: a standalone master and two workers on loopback (PySpark's own
launcher, spark_cluster.py), a job that decodes (detecting each row's charset) and parses a
column with the package's Arrow functions in `mapInArrow`, proof that the work ran in
executor processes apart from the driver, and its result compared with the command line's
row by row. One cluster and one session for the module (about a minute to start)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Iterator, List

import pyarrow as pa
import pytest

from conftest import URLS, cli_get, cli_json
from pyspark import cloudpickle
from spark_cluster import Cluster, session, wait_for_executors

# The executors' Python workers cannot import this test module: its functions travel to
# them by value.
cloudpickle.register_pickle_by_value(sys.modules[__name__])

# Each row's schema out of the job.
SCHEMA = ("id long, decoded string, charset string, host string, "
          "python_pid long, executor_pid long, executor_id string")


def executor_of_this_process() -> tuple:
    """The executor JVM this process descends from (its pid and `--executor-id`), read
    from /proc; (0, "") when there is none (the driver)."""
    pid = os.getpid()
    while pid > 1:
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            break
        if b"org.apache.spark.executor.CoarseGrainedExecutorBackend" in argv:
            index = argv.index(b"--executor-id")
            return pid, argv[index + 1].decode()
        pid = int(next(line.split()[1] for line in status.splitlines() if line.startswith("PPid:")))
    return 0, ""


def urlkit_columns(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    """The job: decode with `auto` (diagnostics on, for the charset detected) and take the
    host, a batch at a time, with the package's Arrow functions."""
    import pyurlkit.arrow as ua

    executor_pid, executor_id = executor_of_this_process()
    for batch in batches:
        urls = batch.column("url")
        decoded = ua.decode(urls, charset="auto", diagnostics=True)
        n = batch.num_rows
        yield pa.RecordBatch.from_arrays(
            [batch.column("id"), decoded.field("output"), decoded.field("charset"),
             ua.host(urls), pa.array([os.getpid()] * n, pa.int64()),
             pa.array([executor_pid] * n, pa.int64()), pa.array([executor_id] * n)],
            names=["id", "decoded", "charset", "host", "python_pid", "executor_pid",
                   "executor_id"])


@pytest.fixture(scope="module")
def cluster():
    with Cluster(workers=2) as running:
        yield running


@pytest.fixture(scope="module")
def spark(cluster):
    spark = session(cluster, "pyurlkit-cluster-tests")
    try:
        wait_for_executors(spark, 2)
        yield spark
    finally:
        spark.stop()


def ancestors(pid: int) -> List[int]:
    chain = []
    while pid > 1:
        chain.append(pid)
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            break
        pid = int(next(line.split()[1] for line in status.splitlines() if line.startswith("PPid:")))
    return chain


@pytest.mark.timeout(600)
def test_a_cluster_job_runs_on_the_executors_and_equals_the_command_line(cluster, spark, rows):
    entries = rows + URLS
    frame = spark.createDataFrame(list(enumerate(entries)), "id long, url string").repartition(8)
    got = sorted(frame.mapInArrow(urlkit_columns, SCHEMA).collect(), key=lambda r: r.id)
    assert [r.id for r in got] == list(range(len(entries)))

    # Every row ran in a Python worker under an executor JVM, not in the driver, and both
    # workers' executors took part.
    assert all(r.python_pid != os.getpid() for r in got)
    assert all(r.executor_pid > 0 for r in got), "a row ran outside any executor"
    assert executor_of_this_process() == (0, "")
    executors = {r.executor_pid: r.executor_id for r in got}
    assert len(executors) == 2, executors
    worker_pids = set(cluster.pids())
    for executor_pid in executors:
        # Each executor JVM was launched by one of the workers this test started.
        assert worker_pids & set(ancestors(executor_pid)), executor_pid
        assert executor_pid not in ancestors(os.getpid())

    expected = cli_json(["decode", "-c", "auto"], entries)
    assert [r.decoded for r in got] == [e["output"] for e in expected]
    assert [r.charset for r in got] == [e["charset"] for e in expected]
    assert [r.host for r in got] == cli_get("{host}", entries)
