//! Figures: every builder renders SVG, PNG and CSV; the SVG holds one path per data series,
//! the CSV every point bit for bit, the legend the measured orders; bad input is a typed error.
#![cfg(feature = "plot")]

use std::path::{Path, PathBuf};

use lieode_study::Error;
use lieode_study::csv::Table;
use lieode_study::plot::{
    BarFigure, BarGroup, Curve, CurveStyle, FONT_FAMILY, Figure, FigureFiles, Scale, WorkAxis,
    bar_figure, convergence_figure, register_font, time_figure, work_precision_figure,
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
        assert_eq!(row[0], lieode_study::csv::Cell::text(label));
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

/// Fifteen method names, as long as the real ones.
fn methods() -> Vec<String> {
    [
        "direct_euler",
        "rk4",
        "spiral",
        "spiral_leapfrog",
        "spiral_magnus",
        "spiral_omelyan",
        "velocity_verlet",
        "omelyan",
        "buss",
        "fincham",
        "johnson",
        "mercurydpm",
        "lie_euler",
        "munthe_kaas_rk4",
        "cayley_midpoint",
    ]
    .map(String::from)
    .to_vec()
}

/// A bar as the SVG draws it: x, y, width, height.
type Bar = (i64, i64, i64, i64);

/// Checks the three files of a saved bar figure: the PNG, the SVG (one `rect` in its group's
/// colour per bar, nothing else in the palette's colours; every name written; category names
/// upright if `upright`), the CSV bit for bit. Returns the bars of each group in the order of
/// the categories, and all text of the SVG.
fn check_bar_files(files: &FigureFiles, fig: &BarFigure, upright: bool) -> (Vec<Vec<Bar>>, String) {
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

    let svg = std::fs::read_to_string(&files.svg).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let int = |n: &roxmltree::Node, a: &str| -> i64 { n.attribute(a).unwrap().parse().unwrap() };
    let (n_categories, n_groups) = (fig.categories().len(), fig.groups().len());
    let rects: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("rect"))
        .filter(|n| PALETTE.contains(&n.attribute("fill").unwrap_or("")))
        .collect();
    assert_eq!(
        rects.len(),
        n_categories * n_groups,
        "{}",
        files.svg.display()
    );
    // Group by group, in the order of the categories, each in its colour.
    let bars: Vec<Vec<Bar>> = rects
        .chunks(n_categories)
        .enumerate()
        .map(|(j, group)| {
            group
                .iter()
                .map(|r| {
                    assert_eq!(r.attribute("fill"), Some(PALETTE[j % PALETTE.len()]));
                    (int(r, "x"), int(r, "y"), int(r, "width"), int(r, "height"))
                })
                .collect()
        })
        .collect();
    // Left to right: the categories, and within each the groups side by side.
    for k in 0..n_categories {
        for j in 0..n_groups {
            let (x, _, w, _) = bars[j][k];
            assert!(w > 0);
            if j + 1 < n_groups {
                assert!(x + w <= bars[j + 1][k].0, "category {k}, group {j}");
            }
            if k + 1 < n_categories {
                assert!(x + w <= bars[0][k + 1].0, "category {k}, group {j}");
            }
        }
    }
    // The legend names the groups with swatches (polygons), one for each; one group has none.
    let swatches = doc
        .descendants()
        .filter(|n| n.has_tag_name("polygon"))
        .filter(|n| PALETTE.contains(&n.attribute("fill").unwrap_or("")))
        .count();
    assert_eq!(swatches, if n_groups > 1 { n_groups } else { 0 });
    let dashed = doc
        .descendants()
        .filter(|n| n.has_tag_name("polyline"))
        .filter(|p| p.attribute("stroke") == Some(REFERENCE))
        .filter(|p| p.attribute("stroke-dasharray").is_some())
        .count();
    assert_eq!(dashed, usize::from(fig.reference_line().is_some()));

    let texts: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .collect();
    assert!(
        texts
            .iter()
            .all(|t| t.attribute("font-family") == Some(FONT_FAMILY))
    );
    let text_of = |t: &roxmltree::Node| t.text().unwrap_or("").trim().to_string();
    for name in fig.categories() {
        let label = texts.iter().find(|t| text_of(t) == *name).unwrap();
        assert_eq!(
            label
                .attribute("transform")
                .is_some_and(|t| t.starts_with("rotate(270")),
            upright,
            "category `{name}`"
        );
    }
    let all_text: String = texts.iter().map(|t| format!("{}\n", text_of(t))).collect();
    for label in [fig.title(), fig.y_label(), fig.x_label()] {
        assert!(all_text.contains(label), "`{label}` missing");
    }
    if n_groups > 1 {
        for g in fig.groups() {
            assert!(
                all_text.contains(&g.label),
                "legend entry `{}` missing",
                g.label
            );
        }
    }

    let table = Table::read(&files.csv).unwrap();
    assert_eq!(table.columns(), ["series", "category", "value"]);
    assert_eq!(table.rows().len(), n_categories * n_groups);
    let expected = fig.groups().iter().flat_map(|g| {
        fig.categories()
            .iter()
            .zip(&g.values)
            .map(move |(c, v)| (g.label.as_str(), c.as_str(), *v))
    });
    for (row, (series, category, value)) in table.rows().iter().zip(expected) {
        assert_eq!(row[0], lieode_study::csv::Cell::text(series));
        assert_eq!(row[1], lieode_study::csv::Cell::text(category));
        assert_eq!(row[2].as_f64().unwrap().to_bits(), value.to_bits());
    }
    (bars, all_text)
}

#[test]
fn grouped_bar_figure_on_a_log_axis() {
    // The speed-up of fifteen methods for four target errors: values over three decades,
    // some below 1, with irrational digits for the CSV to keep.
    let dir = scratch("bars-log");
    let names = methods();
    let groups: Vec<BarGroup> = ["1e-3", "1e-5", "1e-7", "1e-9"]
        .iter()
        .enumerate()
        .map(|(j, target)| {
            let values = (0..names.len())
                .map(|k| (0.1 * (k as f64 + 1.0)).powf(1.0 + 0.7 * j as f64) * std::f64::consts::PI)
                .collect();
            BarGroup::new(format!("target {target}"), values)
        })
        .collect();
    let fig = bar_figure(
        "Speed-up",
        "speed-up over direct_euler",
        &names,
        &groups,
        Scale::Log,
    )
    .unwrap()
    .with_reference_line(1.0, "direct_euler");
    assert_eq!(fig.y_scale(), Scale::Log);
    assert_eq!(fig.reference_line(), Some((1.0, "direct_euler")));
    assert_eq!(fig.size(), Figure::DEFAULT_SIZE);
    let files = fig.save(&dir, "speed_up").unwrap();
    assert_eq!(files.csv, dir.join("speed_up.csv"));
    let (bars, text) = check_bar_files(&files, &fig, true);
    // All bars rise from the bottom of the axis, the taller the larger the value, and even
    // the shortest is clearly visible.
    let bottom = bars[0][0].1 + bars[0][0].3;
    let all: Vec<(f64, Bar)> = groups
        .iter()
        .zip(&bars)
        .flat_map(|(g, b)| g.values.iter().copied().zip(b.iter().copied()))
        .collect();
    for &(_, (_, y, _, h)) in &all {
        assert_eq!(y + h, bottom);
    }
    for &(v, (_, _, _, h)) in &all {
        for &(u, (_, _, _, g)) in &all {
            if v < u {
                assert!(h <= g, "{v} drawn {h} px, {u} drawn {g} px");
            }
        }
    }
    let shortest = all.iter().map(|b| b.1.3).min().unwrap();
    assert!(shortest >= 20, "{shortest} px");
    // Labelled decades, the reference line's label.
    assert!(text.contains("\n1\n") && text.contains("\n10\n"), "{text}");
    assert!(text.contains("direct_euler"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn single_group_bar_figures_on_a_linear_axis() {
    // One bar per method: no legend, bars from 0, heights proportional to the values.
    let dir = scratch("bars-linear");
    let names = methods();
    let cost: Vec<f64> = (0..names.len()).map(|k| 1.0 + 0.3 * k as f64).collect();
    let group = [BarGroup::new("cost per step", cost.clone())];
    let fig = bar_figure(
        "Cost",
        "cost per step / direct_euler",
        &names,
        &group,
        Scale::Linear,
    )
    .unwrap();
    assert_eq!(fig.reference_line(), None);
    assert_eq!(fig.x_label(), "");
    let files = fig.save(&dir, "cost").unwrap();
    let (bars, text) = check_bar_files(&files, &fig, true);
    assert!(
        !text.contains("cost per step\n"),
        "no legend for a single group: {text}"
    );
    assert!(
        text.contains("\n0\n"),
        "a linear bar axis starts at 0: {text}"
    );
    let bottom = bars[0][0].1 + bars[0][0].3;
    let tallest = bars[0].iter().map(|b| b.3).max().unwrap() as f64;
    let max = cost.iter().copied().fold(0.0, f64::max);
    for (v, &(_, y, _, h)) in cost.iter().zip(&bars[0]) {
        assert_eq!(y + h, bottom);
        assert!(
            (h as f64 - tallest * v / max).abs() <= 1.5,
            "{v}: {h} px of {tallest}"
        );
    }

    // Few short names stand side by side, under an x label; a numeric-looking category and
    // the reference line survive the CSV; signed values hang from 0.
    let few: Vec<String> = ["a", "b", "1e-3"].map(String::from).to_vec();
    let groups = [
        BarGroup::new("x", vec![0.5, 2.0, 1.25]),
        BarGroup::new("y", vec![1.5, 0.0, 3.0]),
    ];
    let fig = bar_figure("Few", "ratio", &few, &groups, Scale::Linear)
        .unwrap()
        .with_x_label("method")
        .with_reference_line(1.0, "");
    let files = fig.save(&dir, "few").unwrap();
    check_bar_files(&files, &fig, false);
    let signed = [BarGroup::new("", vec![1.5, -0.5, -2.0])];
    let fig = bar_figure("", "change", &few, &signed, Scale::Linear)
        .unwrap()
        .with_size(480, 320);
    let files = fig.save(&dir, "signed").unwrap();
    let (bars, _) = check_bar_files(&files, &fig, false);
    let zero = bars[0][0].1 + bars[0][0].3;
    assert_eq!(bars[0][1].1, zero, "negative bars hang from 0");
    assert!(bars[0][2].3 > bars[0][1].3);

    // Nine groups: colours cycle like curves, and the SVG alone can be had too.
    let many: Vec<BarGroup> = (0..9)
        .map(|j| BarGroup::new(format!("g{j}"), vec![1.0 + j as f64; 3]))
        .collect();
    let fig = bar_figure("Many", "value", &few, &many, Scale::Linear).unwrap();
    let files = fig.save(&dir, "many").unwrap();
    check_bar_files(&files, &fig, false);
    assert_eq!(
        fig.to_svg().unwrap(),
        std::fs::read_to_string(&files.svg).unwrap()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The reason of an [`Error::Plot`] from a bar figure.
fn bar_reason(result: Result<BarFigure, Error>) -> String {
    match result {
        Err(Error::Plot { reason, .. }) => reason,
        other => panic!("expected Error::Plot, got {other:?}"),
    }
}

#[test]
fn bad_bar_data_is_a_plot_error_naming_the_group_and_category() {
    let names: Vec<String> = ["rk4", "spiral", "buss"].map(String::from).to_vec();
    let good = BarGroup::new("target 1e-3", vec![1.0, 2.0, 3.0]);
    let bars = |categories: &[String], groups: &[BarGroup], scale| {
        bar_reason(bar_figure("Bars", "speed-up", categories, groups, scale))
    };
    let reason = bars(&[], std::slice::from_ref(&good), Scale::Linear);
    assert!(reason.contains("no categories"), "{reason}");
    let reason = bars(&names, &[], Scale::Linear);
    assert!(reason.contains("no groups"), "{reason}");

    let short = BarGroup::new("short", vec![1.0, 2.0]);
    let reason = bars(&names, &[good.clone(), short], Scale::Linear);
    assert!(
        reason.contains("`short` has 2 values for 3 categories"),
        "{reason}"
    );

    let mut nan = good.clone();
    nan.values[1] = f64::NAN;
    let reason = bars(&names, &[nan], Scale::Linear);
    assert!(
        reason.contains("`target 1e-3`")
            && reason.contains("`spiral`")
            && reason.contains("finite"),
        "{reason}"
    );
    let mut inf = good.clone();
    inf.values[0] = f64::NEG_INFINITY;
    let reason = bars(&names, &[inf], Scale::Log);
    assert!(
        reason.contains("`rk4`") && reason.contains("finite"),
        "{reason}"
    );

    let mut zero = good.clone();
    zero.values[2] = 0.0;
    let reason = bars(&names, std::slice::from_ref(&zero), Scale::Log);
    assert!(
        reason.contains("`target 1e-3`")
            && reason.contains("`buss`")
            && reason.contains("logarithmic"),
        "{reason}"
    );
    let mut negative = good.clone();
    negative.label = "negative".into();
    negative.values[0] = -1.0;
    assert!(bars(&names, &[negative.clone()], Scale::Log).contains("`rk4`"));
    // Zero and negative values are fine on a linear axis.
    assert!(bar_figure("Bars", "speed-up", &names, &[zero, negative], Scale::Linear).is_ok());

    let twice: Vec<String> = ["rk4", "spiral", "rk4"].map(String::from).to_vec();
    let reason = bars(&twice, std::slice::from_ref(&good), Scale::Linear);
    assert!(reason.contains("`rk4` appears more than once"), "{reason}");
    let blank: Vec<String> = ["rk4", " ", "buss"].map(String::from).to_vec();
    let reason = bars(&blank, std::slice::from_ref(&good), Scale::Linear);
    assert!(reason.contains("category 1 has no name"), "{reason}");
    let reason = bars(&names, &[good.clone(), good.clone()], Scale::Linear);
    assert!(
        reason.contains("two groups are labelled `target 1e-3`"),
        "{reason}"
    );
    let reason = bar_reason(bar_figure(
        "Bars",
        " ",
        &names,
        std::slice::from_ref(&good),
        Scale::Linear,
    ));
    assert!(reason.contains("y axis has no label"), "{reason}");

    // Errors name the figure.
    match bar_figure("My bars", "y", &[], &[], Scale::Linear) {
        Err(e @ Error::Plot { .. }) => {
            assert!(
                e.to_string().starts_with("cannot draw figure `My bars`"),
                "{e}"
            )
        }
        other => panic!("{other:?}"),
    }

    // What the setters add is checked when saved, before anything is written.
    let dir = scratch("bars-invalid");
    let fig = bar_figure("Bars", "speed-up", &names, &[good], Scale::Log).unwrap();
    let below = fig.clone().with_reference_line(0.0, "zero");
    match below.save(&dir, "f") {
        Err(Error::Plot { reason, .. }) => {
            assert!(reason.contains("reference line `zero`"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
    let tiny = fig.clone().with_size(10, 10);
    assert!(matches!(tiny.save(&dir, "f"), Err(Error::Plot { .. })));
    assert!(matches!(tiny.to_svg(), Err(Error::Plot { .. })));
    assert!(matches!(
        fig.save(&dir, "a/b"),
        Err(Error::InvalidParameter { name: "stem", .. })
    ));
    assert!(!dir.exists());
}

/// A jagged time series drawn as a thick line stays inside its data range in the PNG: no pixel
/// of its colour above the plot (where only the title is) or below the axis labels. plotters'
/// bitmap backend mitres thick polylines without a limit, so before the round joins of the
/// renderer such a series threw spikes across the whole image.
#[test]
fn thick_lines_through_sharp_corners_stay_inside_the_data_in_the_png() {
    let n = 4000;
    let x: Vec<f64> = (0..n).map(|i| i as f64 * 5.0).collect();
    // A pseudo-random walk between ±0.005: a sharp corner at almost every point.
    let y: Vec<f64> = (0..n)
        .map(|i| ((i * 7919 % 1000) as f64 / 1000.0 - 0.5) * 0.01)
        .collect();
    let curve = Curve::new("jagged", x, y).with_style(CurveStyle::Line);
    let fig = time_figure("jagged", "h", &[curve], Scale::Linear).unwrap();
    let dir = scratch("jagged");
    let files = fig.save(&dir, "jagged").unwrap();
    let png = image::open(&files.png).unwrap().to_rgb8();
    let (width, height) = png.dimensions();
    let series = [0x00, 0x72, 0xB2];
    let count_in_rows = |rows: std::ops::Range<u32>| {
        rows.flat_map(|y| (0..width).map(move |x| (x, y)))
            .filter(|&(x, y)| png.get_pixel(x, y).0 == series)
            .count()
    };
    let inside = count_in_rows(height / 4..3 * height / 4);
    assert!(inside > 1000, "the series is drawn ({inside} pixels)");
    let band = height / 15;
    assert_eq!(count_in_rows(0..band), 0, "pixels above the plot");
    assert_eq!(
        count_in_rows(height - band..height),
        0,
        "pixels below the axis labels"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
