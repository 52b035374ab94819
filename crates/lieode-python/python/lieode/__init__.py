"""lieode: integrators on Lie groups, from Rust.

``integrate_angular_velocity`` and ``from_angular_velocity`` are drop-ins for
numpy-quaternion's and quaternionic's functions of those names: the orientation of a frame
turning with a prescribed angular velocity, integrated in Rust (a tabulated angular velocity
is interpolated in Rust too).
"""

from ._lieode import (
    FORMULATIONS,
    METHODS,
    IntegrationError,
    InvalidParameterError,
    LieodeError,
    NonFiniteError,
)
from ._angular_velocity import from_angular_velocity, integrate_angular_velocity
from ._solve_ivp import FACTOR_SIZES, VECTOR_SIZES, ButcherTableau, OdeResult, OdeSolution, solve_ivp

__all__ = [
    "FORMULATIONS",
    "METHODS",
    "IntegrationError",
    "InvalidParameterError",
    "LieodeError",
    "NonFiniteError",
    "from_angular_velocity",
    "integrate_angular_velocity",
    "FACTOR_SIZES", "VECTOR_SIZES", "ButcherTableau", "OdeResult", "OdeSolution", "solve_ivp",
]
