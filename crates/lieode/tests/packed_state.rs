//! `PackedState`: every many-body method's further state packs into its `LEN` doubles and
//! unpacks to the same bits (after a start and steps under an attitude-dependent torque, so
//! that every field is non-trivial); short or invalid rows unpack to `None`.

use lieode::Result;
use lieode::rotation::catalogue::{self, MethodVisitor};
use lieode::rotation::{
    MercuryDpmFrame, PackedState, RigidBody, RigidBodyMethod, RotationalState, SingleBody,
};
use lieode::stepper::{Span, Stepper};
use nalgebra::{Quaternion, Vector3};

/// A torque depending on the attitude and the time.
fn tilted(t: f64, q: &Quaternion<f64>, _: &Vector3<f64>) -> Vector3<f64> {
    Vector3::new(0.5 + 0.1 * t, q.i - q.k, 0.3 * q.w * q.j)
}

struct RoundTrip {
    checked: usize,
}

impl MethodVisitor for RoundTrip {
    fn visit<K: RigidBodyMethod>(&mut self, make: fn(RigidBody) -> SingleBody<K>) -> Result<()> {
        let mut single = make(RigidBody::new([0.4, 0.55, 0.7])?);
        let name = single.method().info().name;
        let start = RotationalState::new(0.0, Quaternion::identity(), Vector3::new(0.3, -0.9, 0.6));
        let mut torque = lieode::body::BodyTorque(tilted);
        single.start(&mut torque, &Span::open(0.0, 0.01)?, &start)?;
        for _ in 0..5 {
            single.step(&mut torque)?;
        }
        let extra = single.carried().expect("started").extra;
        let len = <K::Extra as PackedState>::LEN;
        let mut packed = vec![f64::NAN; len];
        extra.pack(&mut packed);
        assert!(packed.iter().all(|x| x.is_finite()), "{name}: {packed:?}");
        let mut again = vec![f64::NAN; len];
        K::Extra::unpack(&packed).expect("unpacks").pack(&mut again);
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&again), bits(&packed), "{name}");
        if len > 0 {
            assert!(K::Extra::unpack(&packed[..len - 1]).is_none(), "{name}");
        }
        self.checked += 1;
        Ok(())
    }
}

#[test]
fn every_method_state_round_trips_bit_for_bit() -> Result<()> {
    let mut round_trip = RoundTrip { checked: 0 };
    catalogue::visit_many_bodies(&mut round_trip)?;
    assert_eq!(round_trip.checked, catalogue::MANY_BODY_NAMES.len());
    Ok(())
}

#[test]
fn layouts() {
    let frame = MercuryDpmFrame {
        dcm: nalgebra::Matrix3::new(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0),
        omega_lab: Vector3::new(10.0, 11.0, 12.0),
    };
    let mut row = [0.0; 12];
    frame.pack(&mut row);
    assert_eq!(
        row,
        [
            1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0
        ]
    );
    assert_eq!(MercuryDpmFrame::unpack(&row), Some(frame));
    // SPIRAL–Magnus's count of known torques is 0, 1 or 2.
    let mut history = [0.0; 10];
    history[6] = 2.0;
    assert!(lieode::rotation::SpiralMagnusHistory::unpack(&history).is_some());
    history[6] = 3.0;
    assert!(lieode::rotation::SpiralMagnusHistory::unpack(&history).is_none());
    history[6] = 0.5;
    assert!(lieode::rotation::SpiralMagnusHistory::unpack(&history).is_none());
}
