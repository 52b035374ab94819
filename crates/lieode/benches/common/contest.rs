//! The contest problems shared by `benches/adaptive.rs` and `examples/adaptive_timing.rs`:
//! Arenstorf's orbit and the free rigid body (ambient rotor, lifted to UnitQuat × ℝ³, and as
//! the peer crate `ode_solvers` sees them), with the runs of both crates on them. Included by
//! path from both targets, so each uses only part of it.
#![allow(dead_code, clippy::excessive_precision)]

use lieode::adaptive::VectorStepper;
use lieode::integrate::{Options, integrate};
use lieode::lie::product::{Product, ProductAlgebra};
use lieode::lie::rn::Rn;
use lieode::lie::unit_quaternion::{Su2Algebra, UnitQuat};
use lieode::lie::{LieGroup, Side};
use lieode::ode::LieOde;
use lieode::stepper::Span;
use nalgebra::{Const, SVector, Vector3, Vector4};

pub const MU: f64 = 0.012277471;
pub const Y0: [f64; 4] = [0.994, 0.0, 0.0, -2.00158510637908252240537862224];
pub const X_END: f64 = 17.0652165601579625588917206249;
pub const INERTIA: [f64; 3] = [0.9144, 1.098, 1.66];
pub const OMEGA0: [f64; 3] = [0.45549, 0.82623, 0.03476];
pub const BODY_END: f64 = 100.0;

/// An Arenstorf right-hand side.
pub type Arenstorf = fn(&[f64; 4]) -> [f64; 4];

/// Arenstorf's orbit with the distance cubes `r³` from `r²` by `cube`: `powf(1.5)` or
/// `r²·√(r²)` (the issue measures both: `powf` is a libm call, `√` one instruction).
#[inline(always)]
pub fn arenstorf_by(y: &[f64; 4], cube: impl Fn(f64) -> f64) -> [f64; 4] {
    let mu1 = 1.0 - MU;
    let d1 = cube((y[0] + MU).powi(2) + y[1].powi(2));
    let d2 = cube((y[0] - mu1).powi(2) + y[1].powi(2));
    [
        y[2],
        y[3],
        y[0] + 2.0 * y[3] - mu1 * (y[0] + MU) / d1 - MU * (y[0] - mu1) / d2,
        y[1] - 2.0 * y[2] - mu1 * y[1] / d1 - MU * y[1] / d2,
    ]
}

#[inline(always)]
pub fn arenstorf_powf(y: &[f64; 4]) -> [f64; 4] {
    arenstorf_by(y, |r2| r2.powf(1.5))
}

#[inline(always)]
pub fn arenstorf_sqrt(y: &[f64; 4]) -> [f64; 4] {
    arenstorf_by(y, |r2| r2 * r2.sqrt())
}

/// Free rigid body, ambient form: q̇ = ½ q ⊗ (0, ω) (q scalar first), J ω̇ = −ω × J ω.
#[inline(always)]
pub fn free_body(y: &[f64; 7]) -> [f64; 7] {
    let (w, x, yq, z) = (y[0], y[1], y[2], y[3]);
    let (p, q, r) = (y[4], y[5], y[6]);
    let [i1, i2, i3] = INERTIA;
    [
        0.5 * (-x * p - yq * q - z * r),
        0.5 * (w * p + yq * r - z * q),
        0.5 * (w * q + z * p - x * r),
        0.5 * (w * r + x * q - yq * p),
        (i2 - i3) / i1 * q * r,
        (i3 - i1) / i2 * r * p,
        (i1 - i2) / i3 * p * q,
    ]
}

/// Arenstorf's orbit for ode_solvers, with the right-hand side `F` (a function item for
/// static dispatch, or an [`Arenstorf`] pointer).
pub struct PeerArenstorf<F>(pub F);
impl<F: Fn(&[f64; 4]) -> [f64; 4]> ode_solvers::System<f64, ode_solvers::Vector4<f64>>
    for PeerArenstorf<F>
{
    fn system(&self, _x: f64, y: &ode_solvers::Vector4<f64>, dy: &mut ode_solvers::Vector4<f64>) {
        let f = (self.0)(&[y[0], y[1], y[2], y[3]]);
        for (d, v) in dy.iter_mut().zip(f) {
            *d = v;
        }
    }
}

pub type Peer7 = ode_solvers::SVector<f64, 7>;
pub struct PeerBody;
impl ode_solvers::System<f64, Peer7> for PeerBody {
    fn system(&self, _x: f64, y: &Peer7, dy: &mut Peer7) {
        let f = free_body(&std::array::from_fn(|i| y[i]));
        for i in 0..7 {
            dy[i] = f[i];
        }
    }
}

/// The same body on UnitQuat × ℝ³: right side, generator (ω/2, ω̇).
pub struct LieBody;
impl LieOde<Product<UnitQuat, Rn<3>>> for LieBody {
    fn side(&self) -> Side {
        Side::Right
    }
    fn generator(
        &mut self,
        _t: f64,
        y: &Product<UnitQuat, Rn<3>>,
    ) -> ProductAlgebra<Su2Algebra, Rn<3>> {
        let w = y.1.0;
        let [i1, i2, i3] = INERTIA;
        let dw = Vector3::new(
            (i2 - i3) / i1 * w[1] * w[2],
            (i3 - i1) / i2 * w[2] * w[0],
            (i1 - i2) / i3 * w[0] * w[1],
        );
        ProductAlgebra(Su2Algebra::from_rotation_vector(&w), Rn(dw))
    }
}

/// ode_solvers on Arenstorf's orbit with Hairer's parameters; its evaluations.
pub fn peer_dop853_arenstorf(rhs: impl Fn(&[f64; 4]) -> [f64; 4], tol: f64) -> u32 {
    let y0 = ode_solvers::Vector4::new(Y0[0], Y0[1], Y0[2], Y0[3]);
    let mut s = ode_solvers::Dop853::from_param(
        PeerArenstorf(rhs),
        0.0,
        X_END,
        0.0,
        y0,
        tol,
        tol,
        0.9,
        0.0,
        0.333,
        6.0,
        X_END,
        0.0,
        100_000,
        1000,
        ode_solvers::OutputType::Sparse,
    );
    s.integrate().map(|st| st.num_eval).unwrap_or(0)
}

/// ode_solvers on Arenstorf's orbit with Hairer's parameters; its evaluations.
pub fn peer_dopri5_arenstorf(rhs: impl Fn(&[f64; 4]) -> [f64; 4], tol: f64) -> u32 {
    let y0 = ode_solvers::Vector4::new(Y0[0], Y0[1], Y0[2], Y0[3]);
    let mut s = ode_solvers::Dopri5::from_param(
        PeerArenstorf(rhs),
        0.0,
        X_END,
        0.0,
        y0,
        tol,
        tol,
        0.9,
        0.04,
        0.2,
        10.0,
        X_END,
        0.0,
        100_000,
        1000,
        ode_solvers::OutputType::Sparse,
    );
    s.integrate().map(|st| st.num_eval).unwrap_or(0)
}

/// lieode's `method` on Arenstorf's orbit; its evaluations.
pub fn ours_arenstorf<M: lieode::adaptive::AdaptiveMethod<Const<4>>>(
    rhs: impl Fn(&[f64; 4]) -> [f64; 4],
    method: M,
) -> usize {
    let mut f = |_t: f64, y: &Vector4<f64>| Vector4::from(rhs(&[y[0], y[1], y[2], y[3]]));
    integrate(
        &mut VectorStepper::new(method),
        &mut f,
        &Vector4::from(Y0),
        &Span::new(0.0, X_END).unwrap(),
        Options::default(),
    )
    .map_or(0, |s| s.stats.rhs_evaluations)
}

/// The free body's initial state, ambient (q scalar first, then ω).
pub fn body_y0() -> SVector<f64, 7> {
    SVector::<f64, 7>::from_column_slice(&[1.0, 0.0, 0.0, 0.0, OMEGA0[0], OMEGA0[1], OMEGA0[2]])
}

/// The free body's initial state on UnitQuat × ℝ³.
pub fn lie_body_y0() -> Product<UnitQuat, Rn<3>> {
    Product(UnitQuat::identity(), Rn(Vector3::from(OMEGA0)))
}

/// ode_solvers' DOP853 on the ambient free body with Hairer's parameters; its evaluations.
pub fn peer_dop853_body(tol: f64) -> u32 {
    let y0 = Peer7::from_column_slice(&[1.0, 0.0, 0.0, 0.0, OMEGA0[0], OMEGA0[1], OMEGA0[2]]);
    let mut s = ode_solvers::Dop853::from_param(
        PeerBody,
        0.0,
        BODY_END,
        0.0,
        y0,
        tol,
        tol,
        0.9,
        0.0,
        0.333,
        6.0,
        BODY_END,
        0.0,
        100_000,
        1000,
        ode_solvers::OutputType::Sparse,
    );
    s.integrate().map(|st| st.num_eval).unwrap_or(0)
}
