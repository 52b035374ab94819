//! Figures: every builder renders SVG, PNG and CSV; the SVG holds one path per data series,
//! the CSV every point bit for bit, the legend the measured orders; bad input is a typed error.
#![cfg(feature = "plot")]

use std::path::{Path, PathBuf};

use lieode::Error;
use lieode::csv::Table;
use lieode::plot::{
    Curve, CurveStyle, FONT_FAMILY, Figure, FigureFiles, Scale, WorkAxis, convergence_figure,
    register_font, time_figure, work_precision_figure,
};

/// The Okabe–Ito colours in the order curves get them, as the SVG writes them.
const PALETTE: [&str; 8] = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442",
];
/// The colour of reference lines.
const REFERENCE: &str = "#606060";

/// A fresh folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("lieode-plot-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn step_sizes() -> Vec<f64> {
    (0..6).map(|k| 0.1 / 2f64.powi(k)).collect()
}

/// error = c·hᵖ on the standard grid.
fn power_law(label: &str, c: f64, p: i32) -> Curve {
    let hs = step_sizes();
    let errors = hs.iter().map(|h| c * h.powi(p)).collect();
    Curve::new(label, hs, errors)
}

/// Checks the three files of a saved figure and returns the parsed SVG text.
fn check_files(files: &FigureFiles, fig: &Figure) -> String {
    // PNG: the signature, the size in the header, and enough bytes to hold a real picture.
    let png = std::fs::read(&files.png).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "{}", files.png.display());
    assert!(
        png.len() > 5_000,
        "{} is only {} bytes",
        files.png.display(),
        png.len()
    );
    let be = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    assert_eq!((be(&png[16..20]), be(&png[20..24])), fig.size());

    // SVG: well-formed XML, one polyline per curve in its palette colour, one dashed polyline
    // per reference line, and nothing else drawn as a path.
    let svg = std::fs::read_to_string(&files.svg).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let polylines: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("polyline"))
        .collect();
    assert_eq!(
        polylines.len(),
        fig.curves().len() + fig.reference_lines().len(),
        "{}",
        files.svg.display()
    );
    // Colours cycle after eight curves.
    for (k, colour) in PALETTE.iter().enumerate() {
        let curves = (0..fig.curves().len())
            .filter(|i| i % PALETTE.len() == k)
            .count();
        let n = polylines
            .iter()
            .filter(|p| p.attribute("stroke") == Some(colour))
            .count();
        assert_eq!(n, curves, "colour {colour}");
    }
    let dashed = polylines
        .iter()
        .filter(|p| p.attribute("stroke") == Some(REFERENCE))
        .filter(|p| p.attribute("stroke-dasharray").is_some())
        .count();
    assert_eq!(dashed, fig.reference_lines().len());
    let texts: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .collect();
    assert!(
        texts
            .iter()
            .all(|t| t.attribute("font-family") == Some(FONT_FAMILY))
    );
    let all_text: String = texts
        .iter()
        .filter_map(|t| t.text())
        .map(|t| format!("{}\n", t.trim()))
        .collect();
    for label in [fig.title(), fig.x_label(), fig.y_label()] {
        assert!(all_text.contains(label), "`{label}` missing");
    }
    for c in fig.curves() {
        assert!(
            all_text.contains(&c.label),
            "legend entry `{}` missing",
            c.label
        );
    }

    // CSV: series,x,y with every point, bit for bit, curves then reference lines.
    let table = Table::read(&files.csv).unwrap();
    assert_eq!(table.columns(), ["series", "x", "y"]);
    let expected: Vec<(&str, f64, f64)> = fig
        .curves()
        .iter()
        .chain(fig.reference_lines())
        .flat_map(|c| {
            c.x.iter()
                .zip(&c.y)
                .map(move |(x, y)| (c.label.as_str(), *x, *y))
        })
        .collect();
    assert_eq!(table.rows().len(), expected.len());
    for (row, (label, x, y)) in table.rows().iter().zip(expected) {
        assert_eq!(row[0], lieode::csv::Cell::text(label));
        assert_eq!(row[1].as_f64().unwrap().to_bits(), x.to_bits());
        assert_eq!(row[2].as_f64().unwrap().to_bits(), y.to_bits());
    }
    all_text
}

#[test]
fn convergence_figure_shows_measured_orders_and_reference_slopes() {
    let dir = scratch("convergence");
    let curves = [
        power_law("RK4", 3.0, 4),
        power_law("Heun", 0.5, 2),
        // Wiggly data: the measured order is a fit, not the nominal one.
        Curve::new(
            "wiggly",
            step_sizes(),
            step_sizes()
                .iter()
                .enumerate()
                .map(|(i, h)| h.powi(3) * if i % 2 == 0 { 1.0 } else { 1.3 })
                .collect(),
        ),
    ];
    let fig = convergence_figure("Convergence test", &curves, &[2, 4]).unwrap();
    assert_eq!(fig.curves()[0].label, "RK4 (order 4.00)");
    assert_eq!(fig.curves()[1].label, "Heun (order 2.00)");
    assert_eq!(fig.reference_lines().len(), 2);
    assert_eq!(fig.reference_lines()[1].label, "slope 4");
    // The reference lines have the slope they are labelled with.
    for (line, p) in fig.reference_lines().iter().zip([2.0, 4.0]) {
        let slope = (line.y[1] / line.y[0]).log10() / (line.x[1] / line.x[0]).log10();
        assert!((slope - p).abs() < 1e-9, "{slope}");
    }
    assert_eq!((fig.x_scale(), fig.y_scale()), (Scale::Log, Scale::Log));
    let files = fig.save(&dir, "convergence").unwrap();
    assert_eq!(files.svg, dir.join("convergence.svg"));
    let text = check_files(&files, &fig);
    assert!(text.contains("RK4 (order 4.00)"), "{text}");
    assert!(text.contains("slope 2") && text.contains("slope 4"));
    // Log axes are labelled at powers of ten.
    assert!(text.contains("1e-"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn work_precision_figures_for_both_work_axes() {
    let dir = scratch("work");
    let evals: Vec<f64> = (0..7).map(|k| 100.0 * 2f64.powi(k)).collect();
    let curves: Vec<Curve> = [("DOPRI5", 5.0), ("DOP853", 8.0), ("ODEX", 6.5)]
        .iter()
        .map(|&(name, p)| {
            let errors = evals.iter().map(|n| 1e3 * n.powf(-p)).collect();
            Curve::new(name, evals.clone(), errors)
        })
        .collect();
    for (axis, stem) in [
        (WorkAxis::Evaluations, "evaluations"),
        (WorkAxis::WallTime, "wall"),
    ] {
        let fig = work_precision_figure("Work against precision", axis, &curves).unwrap();
        assert_eq!(fig.x_label(), axis.label());
        let files = fig.save(&dir, stem).unwrap();
        check_files(&files, &fig);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn time_figures_on_log_and_linear_axes() {
    let dir = scratch("time");
    let ts: Vec<f64> = (1..=500).map(|k| k as f64 * 0.02).collect();
    let error = [
        Curve::new("RK4", ts.clone(), ts.iter().map(|t| 1e-8 * t * t).collect()),
        Curve::new("MK4", ts.clone(), ts.iter().map(|t| 1e-9 * t).collect()),
    ];
    let fig = time_figure("Error", "error |y − y(t)|", &error, Scale::Log).unwrap();
    check_files(&fig.save(&dir, "error").unwrap(), &fig);

    // Signed drift around zero, components, and a single constant curve.
    let drift = [Curve::new(
        "energy",
        ts.clone(),
        ts.iter().map(|t| 1e-12 * (3.0 * t).sin()).collect(),
    )];
    let fig = time_figure("Drift", "H(t) − H(0)", &drift, Scale::Linear).unwrap();
    check_files(&fig.save(&dir, "drift").unwrap(), &fig);

    let components: Vec<Curve> = (0..9)
        .map(|k| {
            let y = ts.iter().map(|t| (t + k as f64).sin()).collect();
            Curve::new(format!("q{k}"), ts.clone(), y)
        })
        .collect();
    let fig = time_figure("Components", "q [m]", &components, Scale::Linear).unwrap();
    check_files(&fig.save(&dir, "components").unwrap(), &fig);

    let steps = [Curve::new("h", vec![0.0, 1.0, 2.0], vec![1e-3, 1e-3, 1e-3])
        .with_style(CurveStyle::LineAndMarkers)];
    let fig = time_figure("Step size", "step size h", &steps, Scale::Log).unwrap();
    check_files(&fig.save(&dir, "steps").unwrap(), &fig);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn figures_of_any_size_and_style_render() {
    let dir = scratch("styles");
    let x: Vec<f64> = (0..20).map(f64::from).collect();
    let mut fig = Figure::new("")
        .with_x_label("x [m]")
        .with_y_label("y [m]")
        .with_size(320, 240);
    for (k, style) in [
        CurveStyle::Line,
        CurveStyle::LineAndMarkers,
        CurveStyle::Markers,
        CurveStyle::Dashed,
    ]
    .into_iter()
    .enumerate()
    {
        let y = x.iter().map(|v| v * k as f64).collect();
        fig = fig.with_curve(Curve::new("", x.clone(), y).with_style(style));
    }
    fig = fig.with_reference_line(Curve::new("", vec![0.0, 19.0], vec![0.0, 40.0]));
    // The dashed curve is a polyline with a dash pattern too.
    let svg = fig.to_svg().unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let dashed = doc
        .descendants()
        .filter(|n| n.has_tag_name("polyline") && n.attribute("stroke-dasharray").is_some())
        .count();
    assert_eq!(dashed, 2);
    let files = fig.save(&dir, "styles").unwrap();
    let png = std::fs::read(&files.png).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    let big = fig.clone().with_size(1600, 1200);
    big.save(&dir, "big").unwrap();
    register_font().unwrap();
    register_font().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The reason of an [`Error::Plot`], or a failure naming what came instead.
fn plot_reason(result: Result<Figure, Error>) -> String {
    match result {
        Err(Error::Plot { reason, .. }) => reason,
        other => panic!("expected Error::Plot, got {other:?}"),
    }
}

#[test]
fn bad_data_is_a_plot_error_naming_the_curve_and_point() {
    let good = power_law("RK4", 1.0, 4);
    let reason = plot_reason(convergence_figure("t", &[], &[4]));
    assert!(reason.contains("no curves"), "{reason}");

    let empty = Curve::new("empty", vec![], vec![]);
    let reason = plot_reason(convergence_figure("t", &[good.clone(), empty], &[]));
    assert!(
        reason.contains("`empty`") && reason.contains("no points"),
        "{reason}"
    );

    let short = Curve::new("short", vec![0.1, 0.2], vec![1.0]);
    let reason = plot_reason(work_precision_figure("t", WorkAxis::Evaluations, &[short]));
    assert!(reason.contains("2 x values and 1 y values"), "{reason}");

    let mut nan = good.clone();
    nan.y[3] = f64::NAN;
    let reason = plot_reason(convergence_figure("t", &[nan], &[4]));
    assert!(
        reason.contains("`RK4`") && reason.contains("y[3]"),
        "{reason}"
    );

    let mut zero = good.clone();
    zero.y[2] = 0.0;
    let reason = plot_reason(convergence_figure("t", &[zero.clone()], &[4]));
    assert!(
        reason.contains("y[2]") && reason.contains("logarithmic"),
        "{reason}"
    );
    // Zero is fine on a linear axis, infinity is not.
    assert!(time_figure("t", "y", &[zero.clone()], Scale::Linear).is_ok());
    let mut inf = zero;
    inf.x[0] = f64::INFINITY;
    let reason = plot_reason(time_figure("t", "y", &[inf], Scale::Linear));
    assert!(reason.contains("x[0]"), "{reason}");

    let reason = plot_reason(time_figure(
        "t",
        "",
        std::slice::from_ref(&good),
        Scale::Log,
    ));
    assert!(reason.contains("y axis has no label"), "{reason}");

    // An order needs two different step sizes; reference orders are positive and distinct.
    let single = Curve::new("single", vec![0.1, 0.1], vec![1e-3, 2e-3]);
    let reason = plot_reason(convergence_figure("t", &[single], &[]));
    assert!(reason.contains("`single`"), "{reason}");
    assert!(
        plot_reason(convergence_figure("t", std::slice::from_ref(&good), &[0])).contains("[0]")
    );
    assert!(
        plot_reason(convergence_figure(
            "t",
            std::slice::from_ref(&good),
            &[4, 4]
        ))
        .contains("[4, 4]")
    );

    // Errors name the figure.
    match convergence_figure("My figure", &[], &[]) {
        Err(e @ Error::Plot { .. }) => {
            assert!(
                e.to_string().starts_with("cannot draw figure `My figure`"),
                "{e}"
            )
        }
        other => panic!("{other:?}"),
    }

    // A figure assembled by hand is checked when saved, before anything is written.
    let dir = scratch("invalid");
    let fig = Figure::new("hand")
        .with_x_label("x")
        .with_y_label("y")
        .with_y_scale(Scale::Log)
        .with_curve(Curve::new("c", vec![1.0, 2.0], vec![1.0, -1.0]));
    assert!(matches!(fig.save(&dir, "f"), Err(Error::Plot { .. })));
    assert!(!dir.exists());
    let tiny = fig.clone().with_y_scale(Scale::Linear).with_size(10, 10);
    assert!(matches!(tiny.save(&dir, "f"), Err(Error::Plot { .. })));
    assert!(matches!(
        Figure::new("none")
            .with_x_label("x")
            .with_y_label("y")
            .to_svg(),
        Err(Error::Plot { .. })
    ));
}

#[test]
fn unwritable_output_is_an_io_error_naming_the_path() {
    let dir = scratch("io");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("a-file");
    std::fs::write(&file, "not a folder").unwrap();
    let fig = convergence_figure("t", &[power_law("RK4", 1.0, 4)], &[4]).unwrap();
    let below: &Path = &file.join("figures");
    match fig.save(below, "f") {
        Err(Error::Io { path, .. }) => assert!(path.contains("a-file"), "{path}"),
        other => panic!("expected Error::Io, got {other:?}"),
    }
    for stem in ["", "a/b", ".."] {
        assert!(matches!(
            fig.save(&dir, stem),
            Err(Error::InvalidParameter { name: "stem", .. })
        ));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
