"""A Spark standalone cluster on loopback: one master and two workers started with the
launcher that ships with PySpark (`bin/spark-class`), each in a process of its own, with
its own work directory, stopped (and waited for) when done.

Used by the cluster tests (test_spark_cluster.py) and by scripts/measure/bench-spark.py.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import List, Optional

import pyspark

SPARK_HOME = Path(pyspark.__file__).resolve().parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, process: subprocess.Popen, log: Path, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the Spark process exited ({process.returncode}):\n{log.read_text()[-3000:]}")
        with socket.socket() as s:
            s.settimeout(0.5)
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise RuntimeError(f"nothing listened on 127.0.0.1:{port} within {seconds} s:\n{log.read_text()[-3000:]}")


class Cluster:
    """A master and `workers` workers (one core and `worker_memory` each) on 127.0.0.1."""

    def __init__(self, workers: int = 2, worker_memory: str = "1g") -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="urlkit-spark-"))
        self.port = free_port()
        self.web_port = free_port()
        self.url = f"spark://127.0.0.1:{self.port}"
        self.processes: List[subprocess.Popen] = []
        self.worker_count = workers
        self.worker_memory = worker_memory

    def _launch(self, name: str, args: List[str]) -> subprocess.Popen:
        env = dict(os.environ)
        env.update({
            "SPARK_HOME": str(SPARK_HOME),
            "SPARK_LOCAL_IP": "127.0.0.1",
            "SPARK_LOCAL_DIRS": str(self.dir / "local"),
            "SPARK_LOG_DIR": str(self.dir / "logs"),
            "SPARK_WORKER_DIR": str(self.dir / "work"),
            # The executors' Python workers run this interpreter, where pyurlkit is.
            "PYSPARK_PYTHON": sys.executable,
            "SPARK_NO_DAEMONIZE": "1",
        })
        log = self.dir / f"{name}.log"
        process = subprocess.Popen(
            [str(SPARK_HOME / "bin" / "spark-class"), *args],
            stdout=log.open("wb"), stderr=subprocess.STDOUT, env=env,
            start_new_session=True,
        )
        self.processes.append(process)
        return process

    def start(self) -> "Cluster":
        try:
            master = self._launch("master", [
                "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
                "--port", str(self.port), "--webui-port", str(self.web_port)])
            wait_for_port(self.port, master, self.dir / "master.log", 90)
            for i in range(self.worker_count):
                self._launch(f"worker{i}", [
                    "org.apache.spark.deploy.worker.Worker", self.url, "--host", "127.0.0.1",
                    "--cores", "1", "--memory", self.worker_memory,
                    "--webui-port", str(free_port()),
                    "--work-dir", str(self.dir / f"work{i}")])
            self.wait_for_workers(90)
        except BaseException:
            self.stop()
            raise
        return self

    def alive_workers(self) -> int:
        """Workers the master lists as ALIVE (its JSON status page)."""
        import json
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.web_port}/json/", timeout=2) as r:
                status = json.load(r)
        except OSError:
            return 0
        return sum(1 for w in status.get("workers", []) if w.get("state") == "ALIVE")

    def wait_for_workers(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.alive_workers() >= self.worker_count:
                return
            for p in self.processes:
                if p.poll() is not None:
                    raise RuntimeError(f"a Spark process exited ({p.returncode}); logs in {self.dir}")
            time.sleep(0.5)
        raise RuntimeError(f"{self.worker_count} workers did not register within {seconds} s; logs in {self.dir}")

    def pids(self) -> List[int]:
        return [p.pid for p in self.processes]

    def stop(self) -> None:
        for p in reversed(self.processes):
            if p.poll() is None:
                try:
                    os.killpg(p.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        for p in self.processes:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait(timeout=10)
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> "Cluster":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def session(cluster: Cluster, app: str, executor_memory: str = "768m",
            extra: Optional[dict] = None):
    """A SparkSession on `cluster`: one single-core executor per worker, Arrow on."""
    from pyspark.sql import SparkSession

    os.environ["PYSPARK_PYTHON"] = sys.executable
    builder = (
        SparkSession.builder.master(cluster.url)
        .appName(app)
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.executor.cores", "1")
        .config("spark.executor.memory", executor_memory)
        .config("spark.cores.max", str(cluster.worker_count))
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        .config("spark.sql.shuffle.partitions", str(2 * cluster.worker_count))
    )
    for key, value in (extra or {}).items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def wait_for_executors(spark, count: int, seconds: float = 90) -> None:
    """Until `count` executors (besides the driver) have registered with the driver."""
    deadline = time.monotonic() + seconds
    tracker = spark.sparkContext._jsc.sc().statusTracker()
    while time.monotonic() < deadline:
        # getExecutorInfos lists the driver too.
        if len(tracker.getExecutorInfos()) - 1 >= count:
            return
        time.sleep(0.5)
    raise RuntimeError(f"{count} executors did not register within {seconds} s")
