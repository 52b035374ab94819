//! The cubic spline through a table of angular velocities, so that a tabulated `ω` is
//! interpolated in Rust and the integration makes no Python call.
//!
//! The spline is SciPy's `CubicSpline` default: the piecewise cubic through every point with
//! continuous first and second derivatives and **not-a-knot** ends (the third derivative is
//! continuous at the second and the second-to-last points, so the first two and the last two
//! pieces are one cubic each). Two points give the straight line and three the parabola through
//! them, as in SciPy. It is written in the second derivatives `M_i`: for the interior points
//!
//! ```text
//! h_{i−1} M_{i−1} + 2(h_{i−1} + h_i) M_i + h_i M_{i+1} = 6 (Δ_i − Δ_{i−1}),   Δ_i = (y_{i+1} − y_i)/h_i
//! ```
//!
//! and the not-a-knot conditions `(M_1 − M_0)/h_0 = (M_2 − M_1)/h_1` (and at the other end)
//! eliminate `M_0` and `M_{n−1}`, leaving a tridiagonal system solved in O(n) (Thomas).

use std::borrow::Cow;

/// A cubic spline of 3-vectors on increasing knots `t`, borrowing the table when it can (a
/// contiguous numpy array is read in place).
#[derive(Debug, Clone)]
pub struct Spline<'a> {
    t: Cow<'a, [f64]>,
    y: Cow<'a, [[f64; 3]]>,
    /// The second derivatives at the knots.
    m: Vec<[f64; 3]>,
    /// `(t_0, 1/Δ)` for knots equally spaced by `Δ` up to rounding (what tables usually are).
    uniform: Option<(f64, f64)>,
}

impl<'a> Spline<'a> {
    /// The not-a-knot spline through `(t_i, y_i)`; `Err` with a message naming the problem for
    /// fewer than two points, mismatched lengths, non-finite values or knots that do not
    /// increase strictly.
    pub fn new(t: Cow<'a, [f64]>, y: Cow<'a, [[f64; 3]]>) -> Result<Self, String> {
        let n = t.len();
        if n < 2 {
            return Err(format!("a table of at least 2 times is needed, got {n}"));
        }
        if y.len() != n {
            return Err(format!("{} values for {n} times", y.len()));
        }
        if let Some(i) = t.iter().position(|v| !v.is_finite()) {
            return Err(format!("time {i} is not finite"));
        }
        if let Some(i) = y.iter().position(|v| !v.iter().all(|c| c.is_finite())) {
            return Err(format!("value {i} is not finite"));
        }
        if let Some(i) = t.windows(2).position(|w| w[1] <= w[0]) {
            return Err(format!(
                "the times must increase strictly: t[{}] ≥ t[{}]",
                i,
                i + 1
            ));
        }
        let m = second_derivatives(&t, &y);
        let spacing = (t[n - 1] - t[0]) / (n - 1) as f64;
        let equally_spaced = (t.iter().enumerate())
            .all(|(i, &ti)| (ti - (t[0] + i as f64 * spacing)).abs() <= 1e-6 * spacing);
        let uniform = equally_spaced.then(|| (t[0], 1.0 / spacing));
        Ok(Self { t, y, m, uniform })
    }

    /// The spline at `x` (the end pieces extended outside the knots).
    pub fn at(&self, x: f64) -> [f64; 3] {
        let mut piece = 0;
        self.at_near(x, &mut piece)
    }

    /// The spline at `x`, looking first in the piece `*piece` and the next one (where an
    /// integration's next evaluation almost always is) before searching the knots, and leaving
    /// in `*piece` the piece that held `x`.
    pub fn at_near(&self, x: f64, piece: &mut usize) -> [f64; 3] {
        let (t, n) = (&self.t[..], self.t.len());
        let inside = |i: usize| t[i] <= x && x < t[i + 1];
        // A step of an integration spans many knots of a dense table: from the hint, walk a
        // few pieces, then search.
        let mut i = match self.uniform {
            // On equally spaced knots the piece is one multiplication away (up to rounding,
            // which the walk below corrects).
            Some((t0, per_spacing)) => ((x - t0) * per_spacing).clamp(0.0, (n - 2) as f64) as usize,
            None => (*piece).min(n - 2),
        };
        let mut walked = 0;
        while !inside(i) && walked < 4 {
            if x < t[i] && i > 0 {
                i -= 1;
            } else if x >= t[i + 1] && i + 2 < n {
                i += 1;
            } else {
                break; // outside the knots: the end piece
            }
            walked += 1;
        }
        if !inside(i) && walked == 4 {
            // The piece [t_i, t_{i+1}] holding x (the end pieces outside the knots).
            i = t.partition_point(|&k| k <= x).clamp(1, n - 1) - 1;
        }
        *piece = i;
        let (t0, t1) = (t[i], t[i + 1]);
        let h = t1 - t0;
        let (a, b) = (t1 - x, x - t0);
        std::array::from_fn(|c| {
            let (m0, m1) = (self.m[i][c], self.m[i + 1][c]);
            let (y0, y1) = (self.y[i][c], self.y[i + 1][c]);
            (m0 * a * a * a + m1 * b * b * b) / (6.0 * h)
                + (y0 / h - m0 * h / 6.0) * a
                + (y1 / h - m1 * h / 6.0) * b
        })
    }
}

/// The second derivatives of the not-a-knot spline (each component on its own), by one
/// forward sweep and one back substitution of the Thomas algorithm with the matrix's rows made
/// on the fly: one scratch array besides the result, so that a table of 10⁵–10⁶ points costs
/// little more than reading it.
fn second_derivatives(t: &[f64], y: &[[f64; 3]]) -> Vec<[f64; 3]> {
    let n = t.len();
    let h = |i: usize| t[i + 1] - t[i];
    let slope = |i: usize| -> [f64; 3] { std::array::from_fn(|c| (y[i + 1][c] - y[i][c]) / h(i)) };
    match n {
        2 => return vec![[0.0; 3]; 2],
        3 => {
            // The parabola through three points: one constant second derivative.
            let (s0, s1) = (slope(0), slope(1));
            let m: [f64; 3] = std::array::from_fn(|c| 2.0 * (s1[c] - s0[c]) / (t[2] - t[0]));
            return vec![m; 3];
        }
        _ => {}
    }
    // Unknowns M_1 … M_{n−2}: row r (point i = r + 1) has the sub-, main and super-diagonal
    // entries h_{i−1}, 2(h_{i−1} + h_i), h_i and the right side 6(Δ_i − Δ_{i−1}).
    // Not-a-knot at t_1: M_0 = ((h_0 + h_1) M_1 − h_0 M_2)/h_1, folded into row 0; at t_{n−2}:
    // M_{n−1} = ((h_{n−3} + h_{n−2}) M_{n−2} − h_{n−2} M_{n−3})/h_{n−3}, folded into row k − 1.
    // (The matrix is diagonally dominant for increasing knots except in the folded end rows,
    // which stay well conditioned for knots of comparable spacing.)
    let k = n - 2;
    let (h0, h1) = (h(0), h(1));
    let (ha, hb) = (h(n - 3), h(n - 2));
    let row = |r: usize| -> (f64, f64, f64) {
        let i = r + 1;
        let (left, right) = (h(i - 1), h(i));
        let (mut sub, mut main, mut sup) = (left, 2.0 * (left + right), right);
        if r == 0 {
            main += h0 * (h0 + h1) / h1;
            sup -= h0 * h0 / h1;
        }
        if r == k - 1 {
            main += hb * (ha + hb) / ha;
            sub -= hb * hb / ha;
        }
        (sub, main, sup)
    };
    // Forward sweep: the normalised super-diagonal c'_r in `upper`, the normalised right side
    // d'_r in m[r + 1].
    let mut m = vec![[0.0; 3]; n];
    let mut upper = vec![0.0; k];
    let mut previous_slope = slope(0);
    for r in 0..k {
        let (sub, main, sup) = row(r);
        let next_slope = slope(r + 1);
        let (pivot, d_before) = if r == 0 {
            (main, [0.0; 3])
        } else {
            (main - sub * upper[r - 1], m[r])
        };
        upper[r] = sup / pivot;
        m[r + 1] = std::array::from_fn(|c| {
            (6.0 * (next_slope[c] - previous_slope[c]) - sub * d_before[c]) / pivot
        });
        previous_slope = next_slope;
    }
    // Back substitution: M_i = d'_r − c'_r M_{i+1}.
    for r in (0..k - 1).rev() {
        let after = m[r + 2];
        let c_r = upper[r];
        for (c, value) in m[r + 1].iter_mut().enumerate() {
            *value -= c_r * after[c];
        }
    }
    m[0] = std::array::from_fn(|c| ((h0 + h1) * m[1][c] - h0 * m[2][c]) / h1);
    m[n - 1] = std::array::from_fn(|c| ((ha + hb) * m[n - 2][c] - hb * m[n - 3][c]) / ha);
    m
}
