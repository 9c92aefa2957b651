"""The ``.urlkit`` namespace on Polars expressions and series (registered on import):

    >>> import polars as pl, pyurlkit.polars
    >>> df = pl.DataFrame({"url": ["https://example.com/a%20b?q=%E5%BC%95", "%zz"]})
    >>> df.with_columns(pl.col("url").urlkit.decode(charset="auto"))

Each batch crosses into Rust once through the Arrow C data interface (``map_batches``):
no Python runs per row. ``decode``/``encode`` take the keyword arguments of
``pyurlkit.decode``/``pyurlkit.encode``, checked when the expression is built (a bad one
raises ``SettingError`` then); with ``diagnostics=True`` the result is a struct column
shaped as ``Result.to_dict()``. ``get(template)`` fills a template as ``urlkit parse --get`` does
(``host``, ``path`` and ``query_param(name)`` are its shortcuts; null where a row does not
parse) and ``parse`` gives a struct column of the URL's fields.
"""

from __future__ import annotations

from typing import Any, Callable, Generic, Optional, TypeVar

import polars as pl
import pyarrow as pa

from . import _native
from ._native import Decoder, Encoder

__all__ = ["UrlkitExpr", "UrlkitSeries"]


def _series_function(
    column: Callable[[Any], _native.ArrowArray],
) -> Callable[[pl.Series], pl.Series]:
    """A function from a Polars series to a Polars series through one column function."""

    def run(series: pl.Series) -> pl.Series:
        # string_view, Polars' own layout: no copy on the way out.
        array = series.to_arrow(compat_level=pl.CompatLevel.newest())
        if isinstance(array, pa.ChunkedArray):
            array = array.combine_chunks()
        return pl.Series(series.name, pa.array(column(array)))

    return run


def _dtype(column: Callable[[Any], _native.ArrowArray]) -> pl.DataType:
    """The Polars type a column function returns, from a run on no rows."""
    return pl.Series(pa.array(column(pa.array([], type=pa.string())))).dtype


T = TypeVar("T", pl.Expr, pl.Series)


class _Namespace(Generic[T]):
    """The column functions both namespaces offer; each namespace says how it applies one."""

    def _apply(self, column: Callable[[Any], _native.ArrowArray]) -> T:
        raise NotImplementedError

    def encode(self, *, diagnostics: bool = False, **options: Any) -> T:
        """Percent-encodes every row (options as ``pyurlkit.encode``)."""
        encoder = Encoder(**options)
        return self._apply(lambda a: encoder.column(a, diagnostics=diagnostics))

    def decode(self, *, diagnostics: bool = False, **options: Any) -> T:
        """Percent-decodes every row (options as ``pyurlkit.decode``)."""
        decoder = Decoder(**options)
        return self._apply(lambda a: decoder.column(a, diagnostics=diagnostics))

    def get(self, template: str, *, base: Optional[str] = None) -> T:
        """Each URL filled into ``template`` (see ``pyurlkit.arrow.get``)."""
        return self._apply(lambda a: _native.get_column(a, template, base=base))

    def host(self, *, base: Optional[str] = None) -> T:
        """Each URL's host (``{host}``); null where the row does not parse."""
        return self.get("{host}", base=base)

    def path(self, *, raw: bool = False, base: Optional[str] = None) -> T:
        """Each URL's path, decoded (or as it appears with ``raw=True``)."""
        return self.get("{path:raw}" if raw else "{path}", base=base)

    def query_param(self, name: str, *, raw: bool = False, base: Optional[str] = None) -> T:
        """Each URL's first value of query parameter ``name``, decoded."""
        return self.get(f"{{{':' if raw else ''}query:{name}}}", base=base)

    def parse(self, *, base: Optional[str] = None) -> T:
        """Each URL taken apart, as a struct (see ``pyurlkit.arrow.parse``)."""
        return self._apply(lambda a: _native.parse_column(a, base=base))


@pl.api.register_expr_namespace("urlkit")
class UrlkitExpr(_Namespace[pl.Expr]):
    """``pl.col(...).urlkit``: urlkit's column functions as expressions, one call into
    Rust per batch."""

    def __init__(self, expr: pl.Expr) -> None:
        self._expr = expr

    def _apply(self, column: Callable[[Any], _native.ArrowArray]) -> pl.Expr:
        return self._expr.map_batches(
            _series_function(column), return_dtype=_dtype(column), is_elementwise=True
        )


@pl.api.register_series_namespace("urlkit")
class UrlkitSeries(_Namespace[pl.Series]):
    """``series.urlkit``: the same functions on a series."""

    def __init__(self, series: pl.Series) -> None:
        self._series = series

    def _apply(self, column: Callable[[Any], _native.ArrowArray]) -> pl.Series:
        return _series_function(column)(self._series)
