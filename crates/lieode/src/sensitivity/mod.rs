//! # Forward sensitivities with dual numbers
//!
//! The derivatives of a **computed** solution with respect to its initial state and to named
//! problem parameters, carried through an integrator by [`num_dual`]'s vector dual numbers
//! [`Dual<P>`]: every input is a dual number whose derivative part is one of `P` unit
//! directions ([`Seeds`]), the integrator runs on dual states exactly as on `f64` ones, and the
//! derivative parts of the results are the `P` columns of the Jacobian ([`vector_jacobian`],
//! [`group_jacobian`]). A problem becomes differentiable by being generic in the scalar
//! (`impl<T: Real> VectorOde<T, N> for MyProblem<T>`, `impl<T: Real> LieOde<So3<T>> for …`),
//! with its parameters stored as `T`.
//!
//! **On a group** the derivative of a state `y(t)` is given in the local coordinates of the
//! tangent space at `y(t)`, trivialised on the side of the problem ([`Side`]): for
//! [`Side::Right`] the column for direction `j` is `d/dε_j log(ȳ⁻¹ · y)`, where `ȳ` is the
//! real part, i.e. `y = ȳ · exp(Σ_j ε_j J_j)`; for [`Side::Left`] it is `d/dε_j log(y · ȳ⁻¹)`,
//! `y = exp(Σ_j ε_j J_j) · ȳ`. A group-valued initial state is seeded the same way
//! (`y₀ · exp(Σ ε_i E_i)` or `exp(Σ ε_i E_i) · y₀` over the algebra's basis `E_i`), so that the
//! block of the Jacobian for the initial state is the linearised flow in those coordinates:
//! the identity at `t₀`.
//!
//! **Rigid bodies.** The rotational catalogue (`SingleBody<K, Dual<P>>`), Krysl's family
//! (`MomentumIntegrator<Dual<P>>`) and the many-body methods (`CatalogueSystem<K, Dual<P>>`,
//! `PcdmSystem`, `ImprovedPcdmSystem`, `Rk4System` over dual numbers) step dual numbers
//! themselves, driven by [`crate::integrate::integrate`]: a body's moments and mass become
//! parameters through [`crate::body::RigidBody::from_scalar_moments`] and
//! [`crate::body::Body::from_scalars`], a raw rotor is seeded by [`Seeds::rotor`] and read by
//! [`rotor_jacobian`] (the rotation vector of a small turn, body or lab frame), a rotational
//! state by [`rotational_jacobian`].
//!
//! **Step sizes.** Fixed-step engines differentiate their steps exactly. For an adaptive run the
//! derivative of the computed solution is that of the primal run's *step-size sequence frozen*
//! ([`replay`]; for ODEX the accepted columns are frozen too, [`replay_extrapolation`] and, lifted
//! to a group, [`replay_lifted_extrapolation`]): the sequence is a piecewise-constant function
//! of the inputs, so this is the exact derivative of the computed map wherever the sequence does
//! not change — which is also what central differences of the replayed run converge to, whereas
//! central differences of the adaptive run itself also see the controller's choices change
//! (tested).
//!
//! **Implicit solves** iterate on the dual numbers: fixed-point stages as they are, Newton
//! stages with the iteration matrix of the real parts (the problem evaluates over `Dual64` too,
//! for example by storing its parameters as a scalar that [`crate::lie::Lift`]s).
//!
//! # Examples
//! `x' = −k x`: the derivatives of `x(1)` with respect to `x₀` and `k` by RK4 on dual numbers.
//! ```
//! use lieode::engine::{ExplicitRk, VectorOde};
//! use lieode::lie::Real;
//! use lieode::sensitivity::{Dual, Seeds, replay, vector_jacobian};
//! use lieode::tableau::registry::RK4;
//! use nalgebra::Vector1;
//!
//! struct Decay<T> { k: T }
//! impl<T: Real> VectorOde<T, 1> for Decay<T> {
//!     fn rhs(&mut self, _t: T, x: &Vector1<T>) -> Vector1<T> { -x * self.k }
//! }
//!
//! let mut seeds = Seeds::<2>::new();
//! let x0 = seeds.vector("x0", &Vector1::new(2.0))?; // direction 0
//! let k = seeds.parameter("k", 0.7)?; // direction 1
//! let times: Vec<f64> = (0..=100).map(|i| i as f64 / 100.0).collect();
//! let mut rk4 = ExplicitRk::<Dual<2>, 1>::new(&RK4)?;
//! let (states, _) = replay(&mut rk4, &mut Decay { k }, &x0, &times)?;
//! let j = vector_jacobian(&states[100]); // [∂x/∂x0, ∂x/∂k] at t = 1
//! assert!((j[(0, 0)] - (-0.7f64).exp()).abs() < 1e-9);
//! assert!((j[(0, 1)] + 2.0 * (-0.7f64).exp()).abs() < 1e-9);
//! # Ok::<(), lieode::Error>(())
//! ```
//!
//! The guide with the measured validation is `docs/sensitivities.md`.
//!
//! # References
//! - E. Hairer, S. P. Nørsett, G. Wanner, *Solving Ordinary Differential Equations I*, 2nd ed.,
//!   §I.14 (the variational equations) and §II.6 (internal differentiation).
//! - G. Ritter, P. Rehner, J. Gross, *num-dual: generalized (hyper-)dual numbers*, the crate
//!   [`num_dual`].

mod jacobian;
mod replay;
mod seeds;

pub use jacobian::{
    group_jacobian, real_part, rotational_jacobian, rotor_jacobian, vector_jacobian,
};
pub use replay::{replay, replay_extrapolation, replay_lifted_extrapolation};
pub use seeds::Seeds;

#[cfg(doc)]
use crate::lie::Side;

/// A scalar carrying `P` directional derivatives: `re + Σ_j eps_j ε_j` with `ε_j ε_k = 0`.
pub type Dual<const P: usize> = num_dual::DualSVec64<P>;
