"""lieode: integrators on Lie groups, from Rust.

``integrate_angular_velocity`` and ``from_angular_velocity`` are drop-ins for
numpy-quaternion's and quaternionic's functions of those names: the orientation of a frame
turning with a prescribed angular velocity, integrated in Rust (a tabulated angular velocity
is interpolated in Rust too).

``rigid_body_ensemble`` integrates many rigid bodies of one problem in parallel (one call, all
cores, the GIL released), with the same numbers however the ensemble is split.

``RigidBodies`` holds N rigid bodies as numpy arrays stepped in place by any many-body method
of the catalogue (``CATALOGUE``), with loads from the user's own force code.
"""

from ._lieode import (
    ENSEMBLE_ADAPTIVE_METHODS,
    ENSEMBLE_FIXED_STEP_METHODS,
    FORMULATIONS,
    METHODS,
    IntegrationError,
    InvalidParameterError,
    LieodeError,
    NonFiniteError,
)
from ._angular_velocity import from_angular_velocity, integrate_angular_velocity
from ._ensemble import EnsembleResult, FieldTorque, rigid_body_ensemble
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
    "ENSEMBLE_ADAPTIVE_METHODS",
    "ENSEMBLE_FIXED_STEP_METHODS",
    "EnsembleResult",
    "FieldTorque",
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
    "rigid_body_ensemble",
]
