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

__all__ = ["apply", "decode", "encode", "get", "host", "parse", "path", "query_param"]


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


def get(values: Any, template: str, *, base: Optional[str] = None) -> Any:
    """Each URL filled into ``template`` as ``urlkit parse --get TEMPLATE`` does
    (``{host}``, ``{path}``, ``{query:KEY}``, ``{scheme}://{host}:{default:port}``, … with
    values decoded; ``{path:raw}`` or ``{:query:KEY}`` for the encoded form); null where the
    row does not parse. A template that cannot be used raises ``SettingError``."""
    return apply(lambda a: _native.get_column(a, template, base=base), values)


def host(values: Any, *, base: Optional[str] = None) -> Any:
    """Each URL's host as the URL Standard parses it (lower-cased, internationalized names
    in Punycode, IPv6 in brackets): ``get(values, "{host}")``."""
    return get(values, "{host}", base=base)


def path(values: Any, *, raw: bool = False, base: Optional[str] = None) -> Any:
    """Each URL's path, decoded (``{path}``), or as it appears with ``raw=True``."""
    return get(values, "{path:raw}" if raw else "{path}", base=base)


def query_param(values: Any, name: str, *, raw: bool = False,
                base: Optional[str] = None) -> Any:
    """Each URL's first value of query parameter ``name``, decoded with ``+`` as a space
    (``{query:NAME}``; empty where there is none, as the command line prints it)."""
    return get(values, f"{{{':' if raw else ''}query:{name}}}", base=base)


def parse(values: Any, *, base: Optional[str] = None) -> Any:
    """Each URL taken apart: a struct of the fields of ``pyurlkit.parse`` (``query_pairs``
    as ``{name, value}`` structs), then ``error`` and ``position`` where the row does not
    parse. Never raises for a row."""
    return apply(lambda a: _native.parse_column(a, base=base), values)
