"""Spark: urlkit's column functions in an Arrow `pandas_udf` (the same UDF runs on every
executor of a cluster), in local mode, compared with the command line row by row. One
session for the module."""

from __future__ import annotations

import os
import sys

import pandas as pd
import pyarrow as pa
import pytest
from pyspark.sql import SparkSession
from pyspark.sql.functions import pandas_udf
from pyspark.sql.types import StringType

import pyurlkit.arrow as ua
from conftest import URLS, cli_get, cli_json


@pytest.fixture(scope="module")
def spark():
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    session = (
        SparkSession.builder.master("local[1]")
        .appName("pyurlkit-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "1")
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.driver.host", "127.0.0.1")
        .getOrCreate()
    )
    yield session
    session.stop()


# The recipe of the README.
@pandas_udf(StringType())
def urlkit_decode(urls: pd.Series) -> pd.Series:
    return ua.decode(pa.array(urls, type=pa.string()), charset="auto").to_pandas()


@pandas_udf(StringType())
def urlkit_host(urls: pd.Series) -> pd.Series:
    return ua.host(pa.array(urls, type=pa.string())).to_pandas()


def test_decode_udf_equals_the_command_line(spark, rows):
    expected = cli_json(["decode", "-c", "auto"], rows)
    frame = spark.createDataFrame(list(enumerate(rows)), "id long, url string")
    got = frame.select("id", urlkit_decode("url").alias("decoded")).orderBy("id").collect()
    assert [row.decoded for row in got] == [want["output"] for want in expected]


def test_host_udf_equals_the_command_line(spark):
    expected = cli_get("{host}", URLS)
    frame = spark.createDataFrame(list(enumerate(URLS)) + [(len(URLS), None)],
                                  "id long, url string")
    got = frame.select("id", urlkit_host("url").alias("host")).orderBy("id").collect()
    assert [row.host for row in got] == expected + [None]
