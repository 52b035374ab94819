//! The implicit solve shared by the special methods [`super::simo_wong`] and [`super::akw`]:
//! one unknown vector `Z ∈ ℝ³` with `Z = h K(Z)`, solved by simplified Newton (Jacobian
//! `∂K/∂Z` at `Z = 0` from dual numbers, with full damped Newton as the fallback for large
//! steps) or by fixed-point iteration — the engines' own stage solver with one stage and
//! `a₁₁ = 1`.

use nalgebra::Vector3;
use num_dual::Dual64;

use crate::engine::Stats;
use crate::engine::stage_solver::{NonlinearOptions, StageSystem};
use crate::error::{Error, Result};
use crate::lie::{Real, real, to_f64};

/// How the implicit equations of a method are solved.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Solver {
    /// Simplified Newton iteration with the Jacobian at the step's start from dual numbers
    /// (`num-dual`) and its LU factorisation, both kept for the next step of the same size when
    /// the solve contracted fast; when it fails, fixed-point iteration and then full Newton
    /// (Jacobians at the iterates, backtracking line search).
    #[default]
    Newton,
    /// Fixed-point iteration: no Jacobian, converges for `h L < 1`.
    FixedPoint,
}

/// The map `K` of an increment equation `Z = h K(Z)` over the scalar `T` (the solver needs it
/// over `f64` and over dual numbers, for the Jacobian).
pub(crate) trait IncrementMap<T: Real> {
    /// `K(Z)`.
    fn k(&self, z: &Vector3<T>) -> Vector3<T>;
}

/// The one-stage system and its settings.
#[derive(Debug, Clone)]
pub(crate) struct IncrementSolver<S: Real = f64> {
    system: StageSystem<S>,
}

impl<S: Real> IncrementSolver<S> {
    pub fn new(options: NonlinearOptions) -> Self {
        Self {
            system: StageSystem::new(&[1.0], 1, 3, options),
        }
    }

    /// Drops the kept Jacobian and LU factors.
    pub fn forget(&mut self) {
        self.system.forget();
    }

    /// Solves `Z = h K(Z)` from `Z = 0`; `scale` is the size of the state (convergence is
    /// relative to `max(1, |Z|, scale)`).
    pub fn solve<M: IncrementMap<S> + IncrementMap<Dual64>>(
        &mut self,
        map: &M,
        solver: Solver,
        t: f64,
        h: f64,
        scale: S,
        stats: &mut Stats,
    ) -> Result<Vector3<S>> {
        let (t_s, h) = (real::<S>(t), real::<S>(h));
        let eval = |_: usize, zi: &[S], ki: &mut [S]| {
            let k = IncrementMap::<S>::k(map, &Vector3::from_column_slice(zi));
            if !(k.x.is_finite() && k.y.is_finite() && k.z.is_finite()) {
                return Err(Error::NonFiniteState {
                    what: "implicit increment map",
                    t,
                });
            }
            ki.copy_from_slice(k.as_slice());
            Ok(())
        };
        match solver {
            Solver::Newton => {
                let origin = [S::zero(); 3];
                let start_jacobian = |block: &mut [S]| jacobian_at(map, &origin, block);
                match self
                    .system
                    .solve_newton_reusing(t_s, h, scale, eval, start_jacobian, stats)
                {
                    // Large steps: the fixed-point iteration if it contracts, else full Newton
                    // with a line search.
                    Err(Error::NonConvergence { .. } | Error::NonFiniteState { .. })
                        if self
                            .system
                            .solve_fixed_point(t_s, h, scale, eval, stats)
                            .is_err() =>
                    {
                        self.system.solve_damped_newton(
                            t_s,
                            h,
                            scale,
                            eval,
                            |_, z, block| {
                                jacobian_at(map, z, block);
                                Ok(())
                            },
                            stats,
                        )?
                    }
                    Err(Error::NonConvergence { .. } | Error::NonFiniteState { .. }) => {}
                    other => other?,
                }
            }
            Solver::FixedPoint => self.system.solve_fixed_point(t_s, h, scale, eval, stats)?,
        }
        Ok(Vector3::from_column_slice(&self.system.z[..3]))
    }
}

/// `∂K/∂Z` at `z` into `block` (row-major 3 × 3), by dual numbers.
/// `∂K/∂Z` at `z` by `Dual64` (at the real parts of a sensitivity run's dual numbers: the
/// iteration matrix, which the derivative parts of the solution converge with).
fn jacobian_at<S: Real, M: IncrementMap<Dual64>>(map: &M, z: &[S], block: &mut [S]) {
    for col in 0..3 {
        let seed = Vector3::<Dual64>::from_fn(|r, _| {
            Dual64::new(to_f64(z[r]), if r == col { 1.0 } else { 0.0 })
        });
        let k = map.k(&seed);
        for r in 0..3 {
            block[r * 3 + col] = real(k[r].eps);
        }
    }
}
