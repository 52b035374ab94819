//! # The group tour
//!
//! One rotation, three representations: [`So3`] (matrices with closed forms), [`UnitQuat`]
//! (rotors, half-angle algebra) and the matrix group [`SoN<f64, 3>`] (generic matrix exponential,
//! logarithm and Fréchet-derivative `dexp`). For a range of rotation angles the tour composes
//! rotations and evaluates `log` and `dexp⁻¹` in each representation and reports how far they
//! disagree, together with the error of the truncated Bernoulli series that an order-4
//! Munthe-Kaas method would use. Used by `examples/group_tour.rs` and `examples/reproduce.rs`.

use nalgebra::Vector3;

use crate::Result;
use lieode::lie::matrix_group::{SoN, SoNAlgebra};
use lieode::lie::so3::{So3, So3Algebra};
use lieode::lie::unit_quaternion::{Su2Algebra, UnitQuat};
use lieode::lie::{LieAlgebra, LieGroup, Truncation};

/// One angle of the tour. Deviations are maximum-norm differences against [`So3`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TourRow {
    /// The rotation angle `|ω|` of the first factor.
    pub angle: f64,
    /// `‖R(q_a q_b) − R_a R_b‖` (quaternion product vs matrix product).
    pub compose_quaternion: f64,
    /// The same for the generic matrix group SO(3).
    pub compose_matrix_group: f64,
    /// `|2 log q − log R|` (the quaternion logarithm is the half rotation vector).
    pub log_quaternion: f64,
    /// `|log_{SO(n)} R − log R|` with the generic matrix logarithm.
    pub log_matrix_group: f64,
    /// `|2 dexp⁻¹_{ω/2}(v/2) − dexp⁻¹_ω(v)|` (su(2) against so(3)).
    pub dexp_inv_quaternion: f64,
    /// `|dexp⁻¹ by linear solve of the Fréchet derivative − closed form|`.
    pub dexp_inv_matrix_group: f64,
    /// `|order-4 truncation (terms up to ad²) − exact dexp⁻¹|`: what the series drops.
    pub truncation_order4: f64,
}

/// The angles visited: tiny, small, moderate, large and just below π.
pub const TOUR_ANGLES: [f64; 8] = [
    1e-8,
    1e-3,
    0.1,
    1.0,
    2.0,
    3.0,
    std::f64::consts::PI - 1e-6,
    std::f64::consts::PI,
];

fn max_abs(v: impl IntoIterator<Item = f64>) -> f64 {
    v.into_iter().fold(0.0, |m, x| m.max(x.abs()))
}

/// Runs the tour.
///
/// # Errors
/// Propagates a failing logarithm (none is expected on these angles below π; at π the generic
/// matrix logarithm has no principal value and its column reports `NaN`).
pub fn group_tour() -> Result<Vec<TourRow>> {
    let axis = Vector3::new(1.0, -2.0, 2.0) / 3.0;
    let other = Vector3::new(0.3, 0.5, -0.9);
    let v = Vector3::new(0.7, 0.2, -0.4);
    let mut rows = Vec::with_capacity(TOUR_ANGLES.len());
    for &angle in &TOUR_ANGLES {
        let omega = axis * angle;
        let (ra, rb) = (
            So3::exp(&So3Algebra::new(omega)),
            So3::exp(&So3Algebra::new(other)),
        );
        let (qa, qb) = (
            UnitQuat::exp(&Su2Algebra::from_rotation_vector(&omega)),
            UnitQuat::exp(&Su2Algebra::from_rotation_vector(&other)),
        );
        let (ma, mb) = (
            SoN::<f64, 3>::exp(&SoNAlgebra::from_coords(&omega)),
            SoN::<f64, 3>::exp(&SoNAlgebra::from_coords(&other)),
        );
        let r = ra.compose(&rb);
        let compose_quaternion = max_abs(
            (qa.compose(&qb).to_rotation_matrix() - r.matrix())
                .iter()
                .copied(),
        );
        let compose_matrix_group = max_abs((ma.compose(&mb).matrix() - r.matrix()).iter().copied());

        let log_r = ra.log()?.0;
        let log_quaternion = max_abs((qa.log()?.rotation_vector() - log_r).iter().copied());
        let log_matrix_group = match ma.log() {
            Ok(l) => max_abs((l.to_coords() - log_r).iter().copied()),
            Err(_) => f64::NAN,
        };

        let exact = So3::dexp_inv(&So3Algebra::new(omega), &So3Algebra::new(v)).0;
        let su2 = UnitQuat::dexp_inv(
            &Su2Algebra::from_rotation_vector(&omega),
            &Su2Algebra::from_rotation_vector(&v),
        )
        .rotation_vector();
        let matrix = SoN::<f64, 3>::dexp_inv(
            &SoNAlgebra::from_coords(&omega),
            &SoNAlgebra::from_coords(&v),
        )
        .to_coords();
        let truncated = So3::dexp_inv_truncated(
            &So3Algebra::new(omega),
            &So3Algebra::new(v),
            Truncation::for_order(4),
        )
        .0;
        rows.push(TourRow {
            angle,
            compose_quaternion,
            compose_matrix_group,
            log_quaternion,
            log_matrix_group,
            dexp_inv_quaternion: max_abs((su2 - exact).iter().copied()),
            dexp_inv_matrix_group: max_abs((matrix - exact).iter().copied()),
            truncation_order4: max_abs((truncated - exact).iter().copied()),
        });
    }
    Ok(rows)
}

/// The CSV header of [`tour_csv`].
pub const TOUR_CSV_HEADER: &str = "angle,compose_quaternion,compose_matrix_group,log_quaternion,log_matrix_group,dexp_inv_quaternion,dexp_inv_matrix_group,truncation_order4";

/// The rows as CSV with a header row.
pub fn tour_csv(rows: &[TourRow]) -> String {
    let mut out = String::from(TOUR_CSV_HEADER);
    out.push('\n');
    for r in rows {
        out.push_str(&format!(
            "{:.17e},{:.3e},{:.3e},{:.3e},{:.3e},{:.3e},{:.3e},{:.3e}\n",
            r.angle,
            r.compose_quaternion,
            r.compose_matrix_group,
            r.log_quaternion,
            r.log_matrix_group,
            r.dexp_inv_quaternion,
            r.dexp_inv_matrix_group,
            r.truncation_order4
        ));
    }
    out
}

/// The rows as a fixed-width text table.
pub fn tour_table(rows: &[TourRow]) -> String {
    let mut out = format!(
        "{:>12} | {:>9} {:>9} | {:>9} {:>9} | {:>9} {:>9} | {:>9}\n",
        "angle", "∘ quat", "∘ SO(n)", "log quat", "log SO(n)", "dexp⁻¹ q", "dexp⁻¹ n", "trunc p=4"
    );
    out.push_str(&format!("{}\n", "-".repeat(98)));
    for r in rows {
        out.push_str(&format!(
            "{:>12.6e} | {:>9.1e} {:>9.1e} | {:>9.1e} {:>9.1e} | {:>9.1e} {:>9.1e} | {:>9.1e}\n",
            r.angle,
            r.compose_quaternion,
            r.compose_matrix_group,
            r.log_quaternion,
            r.log_matrix_group,
            r.dexp_inv_quaternion,
            r.dexp_inv_matrix_group,
            r.truncation_order4
        ));
    }
    out
}
