"""The package as pip installs it: one abi3 wheel, typed, named apart from `urlkit`."""

from __future__ import annotations

from importlib import metadata
from pathlib import Path

import pyurlkit


def test_one_abi3_wheel_serves_cpython_3_9_and_later():
    wheel = metadata.distribution("pyurlkit").read_text("WHEEL") or ""
    tags = [line.split(": ", 1)[1] for line in wheel.splitlines() if line.startswith("Tag: ")]
    assert tags
    assert all(tag.startswith("cp39-abi3-") for tag in tags), tags


def test_the_package_ships_its_type_stubs():
    package = Path(pyurlkit.__file__).parent
    assert (package / "py.typed").is_file()
    assert (package / "_native.pyi").is_file()
    assert metadata.metadata("pyurlkit")["Requires-Python"] == ">=3.9"


def test_every_public_name_is_documented():
    for name in pyurlkit.__all__:
        assert getattr(pyurlkit, name).__doc__, name
    assert pyurlkit.Result.to_dict.__doc__
