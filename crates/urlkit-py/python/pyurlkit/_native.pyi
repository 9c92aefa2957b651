"""Type stubs of the native module (Rust, PyO3)."""

from typing import Any, Dict, List, Optional, Tuple, Union

class UrlkitError(ValueError):
    """Base class of every error the package raises."""

class SettingError(UrlkitError):
    """A keyword argument whose value names nothing, or two that cannot go together."""

    argument: str
    message: str

class RejectedError(UrlkitError):
    """Strict mode rejected the input."""

    code: str
    offset: int
    message: str
    row: Optional[int]

class UrlError(UrlkitError):
    """A URL or domain name that does not parse."""

    message: str
    position: int

class Diagnostic:
    """One finding: stable code, byte offset in the entry (with ``per_line=True`` also
    its line and column, from 1), message."""

    code: str
    offset: int
    line: Optional[int]
    column: Optional[int]
    message: str
    def to_dict(self) -> Dict[str, Any]: ...

class Result:
    """One entry encoded or decoded, with every repair listed."""

    output: Union[str, bytes]
    charset: Optional[str]
    diagnostics: List[Diagnostic]
    diagnostics_not_listed: int
    diagnostic_counts: List[Tuple[str, int]]
    detected: Optional[Detection]
    depth: Optional[int]
    layers: Optional[List[str]]
    def to_dict(self) -> Dict[str, Any]:
        """As ``urlkit encode|decode --json`` prints it."""

class Detection:
    """What charset detection found: ``detect()``, and ``Result.detected`` with
    ``charset="auto"``."""

    charset: str
    confidence: float
    reason: str
    bom_length: int
    runners_up: List[Tuple[str, float]]
    def to_dict(self) -> Dict[str, Any]:
        """As ``urlkit detect --json`` prints it."""

class ArrowArray:
    """An Arrow array made by the package (Arrow PyCapsule interface)."""

    def __arrow_c_array__(self, requested_schema: Optional[object] = None) -> Tuple[object, object]: ...
    def __len__(self) -> int: ...

class Coder:
    """What Encoder and Decoder share: run on one entry or on an Arrow column."""

    def __call__(self, text: Union[str, bytes]) -> Result: ...
    def column(self, array: Any, *, diagnostics: bool = False) -> ArrowArray: ...

class Encoder(Coder):
    """Percent-encoding with options checked once."""

    def __init__(
        self,
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
    ) -> None: ...

class Decoder(Coder):
    """Percent-decoding with options checked once."""

    def __init__(
        self,
        *,
        charset: Optional[str] = None,
        plus_space: bool = False,
        keep_whitespace: bool = False,
        per_line: bool = False,
        newline: Optional[str] = None,
        strict: bool = False,
        binary: bool = False,
        until_stable: bool = False,
    ) -> None: ...

def detect(text: Union[str, bytes]) -> Detection: ...
def parse(url: str, base: Optional[str] = None) -> Dict[str, Any]: ...
def resolve(base: str, reference: str) -> str: ...
def normalize(url: str, *, sort_query: bool = False) -> str: ...
def idn(domain: str, *, to: str = "ascii") -> str: ...
def get_column(array: Any, template: str, *, base: Optional[str] = None) -> ArrowArray: ...
def parse_column(array: Any, *, base: Optional[str] = None) -> ArrowArray: ...
