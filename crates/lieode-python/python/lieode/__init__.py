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
from ._rigid_bodies import (
    CATALOGUE,
    RIGID_BODY_METHODS,
    LoadPoint,
    MethodInfo,
    RigidBodies,
    State,
)

__all__ = [
    "CATALOGUE",
    "FORMULATIONS",
    "METHODS",
    "IntegrationError",
    "InvalidParameterError",
    "LieodeError",
    "LoadPoint",
    "MethodInfo",
    "NonFiniteError",
    "RIGID_BODY_METHODS",
    "RigidBodies",
    "State",
    "from_angular_velocity",
    "integrate_angular_velocity",
]
