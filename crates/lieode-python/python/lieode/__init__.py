"""lieode: integrators on Lie groups, from Rust.

``integrate_angular_velocity`` and ``from_angular_velocity`` are drop-ins for
numpy-quaternion's and quaternionic's functions of those names: the orientation of a frame
turning with a prescribed angular velocity, integrated in Rust (a tabulated angular velocity
is interpolated in Rust too).

``solve_ivp`` is SciPy's ``solve_ivp`` for vector ODEs and for states on SO(3), SU(2), SE(3)
and their products with ℝⁿ (``group=``; there ``fun`` returns the Lie-algebra element), with
DOPRI5, DOP853, ODEX or a user's ``ButcherTableau``.

``rigid_body_ensemble`` integrates many rigid bodies of one problem in parallel (one call, all
cores, the GIL released), with the same numbers however the ensemble is split.

``rigid_body_sensitivities`` differentiates one rigid body's computed rotation with respect to
its start, inertia and torque parameters (dual numbers through a catalogue method, in Rust).

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
from ._sensitivities import (
    SENSITIVITY_INPUTS,
    SENSITIVITY_METHODS,
    RigidBodySensitivities,
    rigid_body_sensitivities,
)
from ._solve_ivp import (
    FACTOR_SIZES,
    VECTOR_SIZES,
    ButcherTableau,
    OdeResult,
    OdeSolution,
    solve_ivp,
)

__all__ = [
    "ButcherTableau",
    "CATALOGUE",
    "ENSEMBLE_ADAPTIVE_METHODS",
    "ENSEMBLE_FIXED_STEP_METHODS",
    "EnsembleResult",
    "FACTOR_SIZES",
    "FORMULATIONS",
    "FieldTorque",
    "IntegrationError",
    "InvalidParameterError",
    "LieodeError",
    "LoadPoint",
    "METHODS",
    "MethodInfo",
    "NonFiniteError",
    "OdeResult",
    "OdeSolution",
    "RIGID_BODY_METHODS",
    "RigidBodies",
    "RigidBodySensitivities",
    "SENSITIVITY_INPUTS",
    "SENSITIVITY_METHODS",
    "State",
    "VECTOR_SIZES",
    "from_angular_velocity",
    "integrate_angular_velocity",
    "rigid_body_ensemble",
    "rigid_body_sensitivities",
    "solve_ivp",
]
