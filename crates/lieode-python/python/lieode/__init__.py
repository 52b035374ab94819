"""lieode: integrators on Lie groups, from Rust.

``integrate_angular_velocity`` is a drop-in for numpy-quaternion's function of that name: the
orientation of a frame turning with a prescribed angular velocity, integrated in Rust.
"""

from ._lieode import (
    FORMULATIONS,
    IntegrationError,
    InvalidParameterError,
    LieodeError,
    NonFiniteError,
)
from ._angular_velocity import integrate_angular_velocity

__all__ = [
    "FORMULATIONS",
    "IntegrationError",
    "InvalidParameterError",
    "LieodeError",
    "NonFiniteError",
    "integrate_angular_velocity",
]
