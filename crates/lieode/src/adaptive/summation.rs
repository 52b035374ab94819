//! The order in which DOPRI5 and DOP853 sum a stage argument.

/// How DOPRI5 and DOP853 round a stage argument `Y_i = y + h Σ_{j<i} a_ij k_j`.
///
/// Every stage waits for the one before it, so a step's time is the length of the chain
/// evaluation → stage argument → evaluation, twelve times for DOP853. The two orders compute the
/// same sum and differ by rounding only: on the 48 reference runs of
/// `crates/lieode/tests/hairer_dopri.rs` the latency-ordered sum makes Hairer's steps in 46
/// (the evaluation, step, acceptance and rejection counts of his codes) and one rejected step
/// fewer in the other two (DOP853 on van der Pol, ε = 1e-3, tol 1e-7), with end states within
/// 1.1e-8 (relative) of his.
///
/// The default is [`Summation::LatencyOrdered`], the faster; choose [`Summation::Hairer`] (with
/// `with_summation`) to reproduce the Fortran codes bit for bit, as the library's trusted
/// reference solutions ([`crate::problems::reference`]) and its Fortran-identity tests do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Summation {
    /// Hairer's order, `Y_i = y + h·(a_i1 k_1 + … + a_i,i−1 k_{i−1})` summed left to right, as
    /// `DOPRI5.f` and `DOP853.f` write it: results bit-identical to the Fortran codes. After
    /// `k_{i−1}` arrives the chain is multiply, add, multiply by `h`, add `y` — four
    /// dependent operations.
    Hairer,
    /// `Y_i = (y + h·(a_i1 k_1 + … + a_i,i−2 k_{i−2})) + (h a_i,i−1)·k_{i−1}`: everything but the
    /// newest stage is summed while that stage is being evaluated, which then enters with one
    /// multiply and one add. Two dependent operations fewer per stage; the results differ
    /// from the Fortran codes' by rounding (measured in `docs/adaptive.md`). The default.
    #[default]
    LatencyOrdered,
}
