"""Column functions on pyarrow arrays: each call crosses into Rust once per array (or per
chunk of a ``ChunkedArray``) through the Arrow C data interface, with no Python per row.

    >>> import pyarrow as pa, pyurlkit.arrow as ua
    >>> ua.decode(pa.array(["a%20b", None, "%zz"])).to_pylist()
    ['a b', None, '%zz']
    >>> ua.decode(pa.array(["%zz"]), diagnostics=True).to_pylist()[0]["diagnostics"][0]["offset"]
    0

Input: string, large_string, string_view or binary columns; nulls stay null. Options are
the keyword arguments of ``pyurlkit.encode``/``pyurlkit.decode``, checked once per call.
With ``diagnostics=True`` each row is a struct shaped as ``Result.to_dict()``: ``output``,
``charset``, ``diagnostics`` (a list of ``{code, offset, message}``),
``diagnostics_not_listed``, and ``detected`` (``charset="auto"``) or ``depth``/``layers``
(``until_stable=True``). Lenient, nothing raises on bad input; ``strict=True`` raises
``RejectedError`` naming the row and the offset.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

import pyarrow as pa

from . import _native
from ._native import Decoder, Encoder

__all__ = ["decode", "encode", "host", "path", "query_param", "parse", "apply"]


def apply(function: Callable[[Any], _native.ArrowArray], values: Any) -> Any:
    """Runs a column function over an Arrow array, a ``ChunkedArray`` (chunk by chunk) or a
    sequence of strings, and returns a pyarrow array (chunked for chunked input)."""
    if isinstance(values, pa.ChunkedArray):
        chunks = [pa.array(function(chunk)) for chunk in values.chunks]
        if not chunks:
            chunks = [pa.array(function(pa.array([], type=values.type)))]
        return pa.chunked_array(chunks)
    if not hasattr(values, "__arrow_c_array__"):
        values = pa.array(values, type=pa.string())
    return pa.array(function(values))


def encode(values: Any, *, diagnostics: bool = False, **options: Any) -> Any:
    """Percent-encodes every row (options as ``pyurlkit.encode``)."""
    encoder = Encoder(**options)
    return apply(lambda a: encoder.column(a, diagnostics=diagnostics), values)


def decode(values: Any, *, diagnostics: bool = False, **options: Any) -> Any:
    """Percent-decodes every row (options as ``pyurlkit.decode``)."""
    decoder = Decoder(**options)
    return apply(lambda a: decoder.column(a, diagnostics=diagnostics), values)


def host(values: Any, *, base: Optional[str] = None) -> Any:
    """Each URL's host without its port, as the URL Standard parses it (lower-cased,
    internationalized names in ASCII); null where the row does not parse."""
    return apply(lambda a: _native.host_column(a, base=base), values)


def path(values: Any, *, base: Optional[str] = None) -> Any:
    """Each URL's path as serialized (``pathname``, percent-encoded); null where the row
    does not parse."""
    return apply(lambda a: _native.path_column(a, base=base), values)


def query_param(values: Any, name: str, *, base: Optional[str] = None) -> Any:
    """Each URL's first value of query parameter ``name``, decoded; null where there is
    none or the row does not parse."""
    return apply(lambda a: _native.query_param_column(a, name, base=base), values)


def parse(values: Any, *, base: Optional[str] = None) -> Any:
    """Each URL taken apart: a struct of the fields of ``pyurlkit.parse`` (``query_pairs``
    as ``{name, value}`` structs), then ``error`` and ``position`` where the row does not
    parse. Never raises for a row."""
    return apply(lambda a: _native.parse_column(a, base=base), values)
