"""Type stubs of the extension module: the names the package re-exports. The functions the
package's own modules call are private to it (typed here as ``Any``)."""

from typing import Any, List, Optional, Sequence

import numpy as np

FORMULATIONS: List[str]
METHODS: List[str]
ENSEMBLE_ADAPTIVE_METHODS: List[str]
ENSEMBLE_FIXED_STEP_METHODS: List[str]
SENSITIVITY_METHODS: List[str]
SENSITIVITY_INPUTS: List[str]

class LieodeError(Exception):
    parameter: Optional[str]
    t: Optional[float]
    body: Optional[int]

class InvalidParameterError(LieodeError): ...
class NonFiniteError(LieodeError): ...
class IntegrationError(LieodeError): ...

class ButcherTableau:
    """A Butcher tableau, validated by the library (order conditions from its coefficients)."""

    def __init__(
        self,
        a: Any,
        b: Sequence[float],
        c: Sequence[float],
        b_hat: Optional[Sequence[float]] = None,
        order: Optional[int] = None,
        embedded_order: Optional[int] = None,
        name: str = "custom",
        fsal: Optional[bool] = None,
    ) -> None: ...
    @staticmethod
    def named(name: str) -> ButcherTableau: ...
    @staticmethod
    def names() -> List[str]: ...
    @property
    def name(self) -> str: ...
    @property
    def stages(self) -> int: ...
    @property
    def a(self) -> np.ndarray: ...
    @property
    def b(self) -> np.ndarray: ...
    @property
    def c(self) -> np.ndarray: ...
    @property
    def b_hat(self) -> Optional[np.ndarray]: ...
    @property
    def order(self) -> int: ...
    @property
    def embedded_order(self) -> Optional[int]: ...
    @property
    def fsal(self) -> bool: ...
    @property
    def is_explicit(self) -> bool: ...
    @property
    def family(self) -> str: ...
    @property
    def reference(self) -> str: ...

def __getattr__(name: str) -> Any: ...
