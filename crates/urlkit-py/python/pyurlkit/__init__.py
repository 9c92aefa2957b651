"""urlkit for Python: percent-encoding and decoding in every charset, charset detection
and URL inspection, on single values and on Arrow columns.

    >>> import pyurlkit
    >>> pyurlkit.decode("%83%89%81%5B%83%81%83%93", charset="auto").output
    'ラーメン'
    >>> pyurlkit.encode("a b&c", set="form").output
    'a+b%26c'

Lenient (the default), nothing raises on bad input: each repair is listed in the result's
``diagnostics`` with its byte offset. ``strict=True`` raises ``RejectedError`` at the first
one instead. Results equal those of the ``urlkit`` command line (``--json``).

Columns: ``pyurlkit.arrow`` (pyarrow arrays), ``pyurlkit.polars`` (the ``.urlkit``
expression namespace), and the ``column`` method of ``Encoder``/``Decoder`` for any Arrow
producer.
"""

from __future__ import annotations

from typing import Optional, Union

from ._native import (
    ArrowArray,
    Coder,
    Decoder,
    Detection,
    Diagnostic,
    Encoder,
    RejectedError,
    Result,
    SettingError,
    UrlError,
    UrlkitError,
    detect,
    idn,
    normalize,
    parse,
    resolve,
)

__all__ = [
    "ArrowArray",
    "Coder",
    "Decoder",
    "Detection",
    "Diagnostic",
    "Encoder",
    "RejectedError",
    "Result",
    "SettingError",
    "UrlError",
    "UrlkitError",
    "decode",
    "detect",
    "encode",
    "idn",
    "normalize",
    "parse",
    "resolve",
]


def encode(
    text: Union[str, bytes],
    *,
    charset: Optional[str] = None,
    set: Optional[str] = None,
    safe: Optional[str] = None,
    unsafe: Optional[str] = None,
    space_plus: bool = False,
    lowercase: bool = False,
    per_line: bool = False,
    newline: Optional[str] = None,
    strict: bool = False,
    binary: bool = False,
) -> Result:
    """Percent-encodes ``text`` (``str``, or ``bytes`` read as UTF-8 unless ``binary``).

    ``charset``: any WHATWG label, ``utf-16le/be``, ``utf-32le/be`` or DOS code page
    (default UTF-8); a character it cannot represent becomes ``&#N;``, escaped, and is
    reported. ``set``: ``unreserved`` (default), ``component``, ``uri``, ``form``, ``path``,
    ``query``, ``special-query``, ``fragment``, ``userinfo``, ``c0``, ``iri``, ``all``;
    ``safe``/``unsafe``: ASCII characters to keep or escape too. ``space_plus``,
    ``lowercase``; ``per_line`` with ``newline`` (``lf``/``crlf``). A value that names
    nothing raises ``SettingError`` (its ``argument`` names the keyword). ``strict``:
    raise ``RejectedError`` at the first unencodable character or non-UTF-8 byte.
    """
    return Encoder(
        charset=charset,
        set=set,
        safe=safe,
        unsafe=unsafe,
        space_plus=space_plus,
        lowercase=lowercase,
        per_line=per_line,
        newline=newline,
        strict=strict,
        binary=binary,
    )(text)


def decode(
    text: Union[str, bytes],
    *,
    charset: Optional[str] = None,
    plus_space: bool = False,
    keep_whitespace: bool = False,
    per_line: bool = False,
    newline: Optional[str] = None,
    strict: bool = False,
    binary: bool = False,
    until_stable: bool = False,
) -> Result:
    """Percent-decodes ``text`` (``str`` or ``bytes``).

    Unencoded whitespace is removed unless ``keep_whitespace``; ``+`` stays ``+`` unless
    ``plus_space``. ``charset``: any label, or ``auto`` to detect it (``Result.detected``
    says what and why). A ``%`` without two hex digits is kept and reported; bytes invalid
    in the charset become U+FFFD and are reported. ``binary``: the decoded bytes as
    ``bytes``, no charset step. ``until_stable``: peel nested encodings (``%2520``).
    ``strict``: raise ``RejectedError`` (with ``offset``) at the first malformed escape or
    invalid sequence. A value that names nothing raises ``SettingError``.
    """
    return Decoder(
        charset=charset,
        plus_space=plus_space,
        keep_whitespace=keep_whitespace,
        per_line=per_line,
        newline=newline,
        strict=strict,
        binary=binary,
        until_stable=until_stable,
    )(text)
