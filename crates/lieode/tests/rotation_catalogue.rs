//! The method table of the `rotation` module documentation against the catalogue: every name
//! documented once and built by `catalogue::stepper`, with the documented torque evaluations per
//! step and default normalisation.

use lieode::problems::cylinder::SpiralCylinder;
use lieode::rotation::{ConstantBodyTorque, Renormalisation, RigidBody, catalogue};
use lieode::tableau::registry::{CG4A, RK4};

const MODULE_DOCS: &str = include_str!("../src/rotation/mod.rs");

/// One row of the documented table: the names, the evaluations column and the normalisation
/// column.
struct Row {
    names: Vec<String>,
    evaluations: String,
    normalises: String,
}

fn documented_rows() -> Vec<Row> {
    MODULE_DOCS
        .lines()
        .filter_map(|line| line.strip_prefix("//! | [`"))
        .map(|rest| {
            let cells: Vec<&str> = rest.split('|').map(str::trim).collect();
            let names = cells[1]
                .split('`')
                .skip(1)
                .step_by(2)
                .map(str::to_string)
                .collect();
            Row {
                names,
                evaluations: cells[3].to_string(),
                normalises: cells[4].to_string(),
            }
        })
        .collect()
}

#[test]
fn the_documented_table_is_the_catalogue() -> lieode::Result<()> {
    let rows = documented_rows();
    let documented: Vec<&String> = rows.iter().flat_map(|r| &r.names).collect();
    for name in catalogue::NAMES {
        let count = documented.iter().filter(|n| n.as_str() == name).count();
        assert_eq!(count, 1, "{name} is documented once");
    }
    for name in &documented {
        assert!(
            catalogue::NAMES.contains(&name.as_str()),
            "{name} is in the catalogue"
        );
    }
    let body = RigidBody::new([1.0, 2.0, 2.5])?;
    for row in &rows {
        for name in &row.names {
            let method = catalogue::stepper::<ConstantBodyTorque>(name, body)?;
            let evaluations = match row.evaluations.as_str() {
                "its stages" => match name.as_str() {
                    "rkmk4" => RK4.stages,
                    "cg4a" => CG4A.stages,
                    other => panic!("no stage count for {other}"),
                },
                n => n.parse().expect("a number of evaluations"),
            };
            assert_eq!(method.torque_evaluations_per_step(), evaluations, "{name}");
            let policy = if row.normalises.starts_with("never") {
                Renormalisation::Never
            } else if row.normalises.starts_with("every step") {
                Renormalisation::EveryStep
            } else {
                panic!("{name}: unknown policy {}", row.normalises)
            };
            assert_eq!(method.renormalisation(), policy, "{name}");
        }
    }
    Ok(())
}

#[test]
fn renormalisation_is_offered_where_the_method_has_it() -> lieode::Result<()> {
    let body = RigidBody::new([1.0, 2.0, 2.5])?;
    for name in catalogue::NAMES {
        let offered = catalogue::stepper_renormalised::<ConstantBodyTorque>(
            name,
            body,
            Renormalisation::Every(7),
        );
        match name {
            "mercurydpm" | "rkmk4" | "cg4a" => assert!(
                matches!(
                    offered,
                    Err(lieode::Error::InvalidParameter {
                        name: "renormalisation",
                        ..
                    })
                ),
                "{name}"
            ),
            _ => assert_eq!(
                offered?.renormalisation(),
                Renormalisation::Every(7),
                "{name}"
            ),
        }
    }
    assert!(matches!(
        catalogue::stepper::<ConstantBodyTorque>("nonsense", body),
        Err(lieode::Error::InvalidParameter { name: "method", .. })
    ));
    Ok(())
}

#[test]
fn every_catalogue_name_builds_a_stepper_with_that_name() {
    let problem = SpiralCylinder::paper().unwrap();
    for name in catalogue::NAMES {
        let stepper = catalogue::stepper::<ConstantBodyTorque>(name, *problem.body()).unwrap();
        assert_eq!(stepper.name(), name);
    }
    assert!(catalogue::stepper::<ConstantBodyTorque>("nonsense", *problem.body()).is_err());
}

/// The SPIRAL paper's Fig. 4 compares the methods with and without normalisation: the policy
/// can be switched exactly where the method takes one.
#[test]
fn normalisation_switches_only_where_the_method_allows_it() {
    let problem = SpiralCylinder::paper().unwrap();
    let body = *problem.body();
    let renormalised =
        |name, policy| catalogue::stepper_renormalised::<ConstantBodyTorque>(name, body, policy);
    let stepper = renormalised("spiral_leapfrog", Renormalisation::EveryStep).unwrap();
    assert_eq!(stepper.renormalisation(), Renormalisation::EveryStep);
    let stepper = renormalised("direct_euler", Renormalisation::Never).unwrap();
    assert_eq!(stepper.renormalisation(), Renormalisation::Never);
    for name in ["mercurydpm", "rkmk4", "cg4a"] {
        assert!(matches!(
            renormalised(name, Renormalisation::Never),
            Err(lieode::Error::InvalidParameter {
                name: "renormalisation",
                ..
            })
        ));
    }
    assert!(renormalised("rk4", Renormalisation::Every(0)).is_err());
}
