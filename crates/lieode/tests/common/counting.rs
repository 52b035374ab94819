//! A torque that counts its evaluations: how the catalogue tests check the evaluations each
//! stepper reports against the calls its torque really received.

use std::cell::Cell;

use lieode::body::{Frame, Orientation, Torque};
use nalgebra::Vector3;

/// `inner`, counting every evaluation (through `torque` or `body_torque`) in `count`.
#[derive(Debug, Clone)]
pub struct Counting<T> {
    pub inner: T,
    pub count: Cell<usize>,
}

impl<T> Counting<T> {
    /// `inner`, no evaluation counted yet.
    pub fn new(inner: T) -> Self {
        Self {
            inner,
            count: Cell::new(0),
        }
    }
}

impl<T: Torque> Torque for Counting<T> {
    fn frame(&self) -> Frame {
        self.inner.frame()
    }
    fn torque<A: Orientation<f64>>(
        &self,
        t: f64,
        attitude: &A,
        omega: &Vector3<f64>,
    ) -> Vector3<f64> {
        self.count.set(self.count.get() + 1);
        self.inner.torque(t, attitude, omega)
    }
    fn body_torque<A: Orientation<f64>>(
        &self,
        t: f64,
        attitude: &A,
        omega: &Vector3<f64>,
    ) -> Vector3<f64> {
        self.count.set(self.count.get() + 1);
        self.inner.body_torque(t, attitude, omega)
    }
}
