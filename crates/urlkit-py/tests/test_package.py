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


def workspace_version() -> str:
    """The `version` of `[workspace.package]` in the repository's Cargo.toml."""
    import re

    manifest = (Path(__file__).resolve().parents[3] / "Cargo.toml").read_text(encoding="utf-8")
    section = manifest.split("[workspace.package]", 1)[1].split("\n[", 1)[0]
    found = re.search(r'^version\s*=\s*"([^"]+)"', section, re.M)
    assert found, "no version in [workspace.package]"
    return found.group(1)


def test_the_wheel_carries_the_workspace_version():
    # One version number for the workspace and the wheel (CHANGELOG.md, "Versioning"):
    # maturin takes it from urlkit-py's Cargo.toml, which follows the workspace's.
    assert metadata.version("pyurlkit") == workspace_version()
    package = Path(__file__).resolve().parents[1]
    crate = (package / "Cargo.toml").read_text(encoding="utf-8")
    assert "version.workspace = true" in crate.splitlines()
    project = (package / "pyproject.toml").read_text(encoding="utf-8")
    assert 'dynamic = ["version"]' in project
