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

/// A cubic spline of 3-vectors on increasing knots `t`.
#[derive(Debug, Clone)]
pub struct Spline {
    t: Vec<f64>,
    y: Vec<[f64; 3]>,
    /// The second derivatives at the knots.
    m: Vec<[f64; 3]>,
}

impl Spline {
    /// The not-a-knot spline through `(t_i, y_i)`; `Err` with a message naming the problem for
    /// fewer than two points, mismatched lengths, non-finite values or knots that do not
    /// increase strictly.
    pub fn new(t: Vec<f64>, y: Vec<[f64; 3]>) -> Result<Self, String> {
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
        Ok(Self { t, y, m })
    }

    /// The spline at `x` (the end pieces extended outside the knots).
    pub fn at(&self, x: f64) -> [f64; 3] {
        let n = self.t.len();
        // The piece [t_i, t_{i+1}] holding x.
        let i = self.t.partition_point(|&k| k <= x).clamp(1, n - 1) - 1;
        let (t0, t1) = (self.t[i], self.t[i + 1]);
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

/// The second derivatives of the not-a-knot spline (each component on its own).
fn second_derivatives(t: &[f64], y: &[[f64; 3]]) -> Vec<[f64; 3]> {
    let n = t.len();
    let h: Vec<f64> = t.windows(2).map(|w| w[1] - w[0]).collect();
    let slope: Vec<[f64; 3]> = (0..n - 1)
        .map(|i| std::array::from_fn(|c| (y[i + 1][c] - y[i][c]) / h[i]))
        .collect();
    match n {
        2 => return vec![[0.0; 3]; 2],
        3 => {
            // The parabola through three points: one constant second derivative.
            let m: [f64; 3] =
                std::array::from_fn(|c| 2.0 * (slope[1][c] - slope[0][c]) / (t[2] - t[0]));
            return vec![m; 3];
        }
        _ => {}
    }
    // Unknowns M_1 … M_{n−2}: rows i = 1 … n−2 with sub-, main and super-diagonals.
    let k = n - 2;
    let mut sub = vec![0.0; k];
    let mut main = vec![0.0; k];
    let mut sup = vec![0.0; k];
    let mut rhs = vec![[0.0; 3]; k];
    for r in 0..k {
        let i = r + 1;
        sub[r] = h[i - 1];
        main[r] = 2.0 * (h[i - 1] + h[i]);
        sup[r] = h[i];
        rhs[r] = std::array::from_fn(|c| 6.0 * (slope[i][c] - slope[i - 1][c]));
    }
    // Not-a-knot at t_1: M_0 = ((h_0 + h_1) M_1 − h_0 M_2)/h_1, folded into row 1.
    let (h0, h1) = (h[0], h[1]);
    main[0] += h0 * (h0 + h1) / h1;
    sup[0] -= h0 * h0 / h1;
    // Not-a-knot at t_{n−2}: M_{n−1} = ((h_{n−3} + h_{n−2}) M_{n−2} − h_{n−2} M_{n−3})/h_{n−3}.
    let (ha, hb) = (h[n - 3], h[n - 2]);
    main[k - 1] += hb * (ha + hb) / ha;
    sub[k - 1] -= hb * hb / ha;
    // Thomas algorithm (the matrix is diagonally dominant for increasing knots except in the
    // folded end rows, which stay well conditioned for knots of comparable spacing).
    for r in 1..k {
        let w = sub[r] / main[r - 1];
        main[r] -= w * sup[r - 1];
        let previous = rhs[r - 1];
        for (c, value) in rhs[r].iter_mut().enumerate() {
            *value -= w * previous[c];
        }
    }
    let mut m = vec![[0.0; 3]; n];
    m[k] = std::array::from_fn(|c| rhs[k - 1][c] / main[k - 1]);
    for r in (0..k - 1).rev() {
        m[r + 1] = std::array::from_fn(|c| (rhs[r][c] - sup[r] * m[r + 2][c]) / main[r]);
    }
    m[0] = std::array::from_fn(|c| ((h0 + h1) * m[1][c] - h0 * m[2][c]) / h1);
    m[n - 1] = std::array::from_fn(|c| ((ha + hb) * m[n - 2][c] - hb * m[n - 3][c]) / ha);
    m
}
