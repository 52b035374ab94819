"""lieode: integrators on Lie groups, from Rust.

``integrate_angular_velocity`` and ``from_angular_velocity`` are drop-ins for
numpy-quaternion's and quaternionic's functions of those names: the orientation of a frame
turning with a prescribed angular velocity, integrated in Rust (a tabulated angular velocity
is interpolated in Rust too).

``rigid_body_ensemble`` integrates many rigid bodies of one problem in parallel (one call, all
cores, the GIL released), with the same numbers however the ensemble is split.
"""

from ._lieode import (
    CATALOGUE_NAMES,
    ENSEMBLE_ADAPTIVE_METHODS,
    FORMULATIONS,
    METHODS,
    IntegrationError,
    InvalidParameterError,
    LieodeError,
    NonFiniteError,
)
from ._angular_velocity import from_angular_velocity, integrate_angular_velocity
from ._ensemble import EnsembleResult, FieldTorque, rigid_body_ensemble

__all__ = [
    "CATALOGUE_NAMES",
    "ENSEMBLE_ADAPTIVE_METHODS",
    "EnsembleResult",
    "FieldTorque",
    "FORMULATIONS",
    "METHODS",
    "IntegrationError",
    "InvalidParameterError",
    "LieodeError",
    "NonFiniteError",
    "from_angular_velocity",
    "integrate_angular_velocity",
    "rigid_body_ensemble",
]
