//! The drift check of the documentation (`lieode_doc_figures` reads the documents,
//! `lieode_reproduce::doc_check` compares them with a run's CSVs): numbers are read
//! with the digits they are printed with, marked tables are compared with small CSV fixtures
//! (a drifted figure is reported, a matching one is not), malformed markers are refused, and
//! every table of `docs/` is marked and names a CSV that a reproduction writes.

use std::path::{Path, PathBuf};

use lieode_doc_figures::{Digits, MarkedTable, Marker, figures, numbers_in, parse_document};
use lieode_reproduce::doc_check::{
    Drift, REPRODUCTION_TABLES, check_docs, compare, is_listed, unreported_tables,
};
use lieode_reproduce::{Artifact, Report};
use lieode_study::csv::Table;

/// A document with one checked table (two key columns, a table-wide filter, a cell with four
/// numbers, a skipped column, an aliased row and a skipped row).
const DOC: &str = r#"# Title

## Orders

Some prose with 1.5 numbers that are not in a table.

<!-- figures: demo/orders.csv
where grid=fine
key "method" = method
key "problem" = problem
row "RK 4, classical" = rk4
row "paper" = -
column "orders p_Π/p_R (finest)" = -> p r p_finest r_finest
column "error" = dt=0.025 -> error
column "note" = -
-->
| method | problem | orders p_Π/p_R (finest) | error | note |
|---|---|---|---|---|
| `euler` | free | 1.00/0.99 (1.00/1.00) | 7.00e-9 | 2 |
| RK 4, classical | free | **4.48**/4.49 (4.25/4.26) | 1.2e-10 | 4 |
| paper | free | 9.99/9.99 (9.99/9.99) | 1e-3 | 4 |
| `euler` | top | 1.00/1.00 (1.00/1.00) | — | 1 |

```text
| not | a table |
|---|---|
```
"#;

/// The CSV the marker of [`DOC`] names, with every figure matching.
const CSV: &str = "method,problem,grid,dt,p,r,p_finest,r_finest,error
euler,free,fine,2.5e-2,1.0012,0.994,1.004,0.9951,6.996e-9
euler,free,coarse,2.5e-2,7,7,7,7,7
rk4,free,fine,2.5e-2,4.4812,4.4899,4.2548,4.2555,1.2345e-10
euler,top,fine,2.5e-2,1,1,1,1,NaN
";

fn marked_table(doc: &str) -> MarkedTable {
    let document = parse_document("docs/demo.md", doc).unwrap();
    assert_eq!(document.marked.len(), 1);
    document.marked.into_iter().next().unwrap()
}

fn run(doc: &str, csv: &str) -> (Vec<Drift>, usize) {
    compare(&marked_table(doc), &Table::parse(csv).unwrap()).unwrap()
}

#[test]
fn numbers_keep_the_digits_they_are_printed_with() {
    let n = numbers_in("**4.48**/4.49 (4.25/4.26)");
    assert_eq!(
        n.iter().map(|x| x.value).collect::<Vec<_>>(),
        [4.48, 4.49, 4.25, 4.26]
    );
    assert!(n.iter().all(|x| x.digits == Digits::Decimals(2)));

    let n = numbers_in("7.00e-9 / 1.2e-10, 2e-5, 137 449, 1 602 steps, −1.5e-13, +5.4e-14");
    let digits: Vec<Digits> = n.iter().map(|x| x.digits).collect();
    assert_eq!(
        digits,
        [
            Digits::Significant(3),
            Digits::Significant(2),
            Digits::Significant(1),
            Digits::Decimals(0),
            Digits::Decimals(0),
            Digits::Significant(2),
            Digits::Significant(2),
        ]
    );
    let values: Vec<f64> = n.iter().map(|x| x.value).collect();
    assert_eq!(
        values,
        [7.0e-9, 1.2e-10, 2e-5, 137_449.0, 1602.0, -1.5e-13, 5.4e-14]
    );
    assert_eq!(n[5].text, "−1.5e-13");

    // Digits inside words, superscripts and a unit glued on are not numbers; a dash is not one.
    assert!(numbers_in("RK4, CG4a, 10⁶, 0.5s, x-1, —, `dt_2`").is_empty());
    assert_eq!(numbers_in("1.10 × at N = 10³")[0].value, 1.10);
}

#[test]
fn rounding_follows_the_printed_digits() {
    let [two_decimals] = numbers_in("4.48").try_into().unwrap();
    assert!(two_decimals.matches(4.4812));
    assert!(two_decimals.matches(4.475_01));
    assert!(!two_decimals.matches(4.4749));
    assert!(!two_decimals.matches(4.49));
    assert_eq!(two_decimals.round(4.2548), "4.25");

    let [three_significant] = numbers_in("7.00e-9").try_into().unwrap();
    assert!(three_significant.matches(6.996e-9));
    assert!(!three_significant.matches(6.849e-9));
    assert_eq!(three_significant.round(6.849e-9), "6.85e-9");

    let [one_significant] = numbers_in("2e-5").try_into().unwrap();
    assert!(one_significant.matches(2.4e-5) && !one_significant.matches(2.6e-5));

    let [integer] = numbers_in("137 449").try_into().unwrap();
    assert!(integer.matches(137_449.4) && !integer.matches(137_449.6));

    let [negative] = numbers_in("−1.5e-13").try_into().unwrap();
    assert!(negative.matches(-1.502e-13) && !negative.matches(1.502e-13));
    assert!(!negative.matches(f64::NAN));
}

#[test]
fn a_matching_table_reports_nothing() {
    let (drifts, count) = run(DOC, CSV);
    assert!(drifts.is_empty(), "{drifts:#?}");
    // euler/free: 4 orders + 1 error; rk4: 4 + 1; paper skipped; euler/top: 4 (the error is —).
    assert_eq!(count, 14);
}

#[test]
fn every_drifted_figure_is_reported_with_its_place() {
    // rk4's finest p_Π moves from 4.2548 to 4.2452 (prints 4.25 → 4.25: still fine), its
    // finest p_R from 4.2555 to 4.2449 (4.26 → 4.24: drift), and euler's error from 6.996e-9
    // to 6.849e-9 (7.00e-9 → 6.85e-9: drift).
    let csv = CSV
        .replace("4.2548,4.2555", "4.2452,4.2449")
        .replace("6.996e-9", "6.849e-9");
    let (drifts, _) = run(DOC, &csv);
    assert_eq!(drifts.len(), 2, "{drifts:#?}");
    let euler = &drifts[0];
    assert_eq!(euler.doc, "docs/demo.md");
    assert_eq!(euler.line, 19);
    assert_eq!(euler.row, "`euler` / free");
    assert_eq!(euler.column, "error");
    assert_eq!(euler.documented, "7.00e-9");
    assert_eq!(euler.measured, Some(6.849e-9));
    assert!(
        euler.note.starts_with("6.85e-9 to the printed digits"),
        "{}",
        euler.note
    );
    let rk4 = &drifts[1];
    assert_eq!(
        (rk4.line, rk4.row.as_str(), rk4.documented.as_str()),
        (20, "RK 4, classical / free", "4.26")
    );
    let text = rk4.to_string();
    for part in [
        "docs/demo.md:20",
        "under \"Orders\"",
        "row `RK 4, classical / free`",
        "column `orders p_Π/p_R (finest)`",
        "documented 4.26",
        "measured 4.2449e0",
        "4.24 to the printed digits",
        "demo/orders.csv `r_finest` where grid=fine method=rk4 problem=free",
    ] {
        assert!(text.contains(part), "{part} not in {text}");
    }
}

#[test]
fn missing_and_ambiguous_records_are_drifts_too() {
    // Without the table-wide filter two euler/free records match; without rk4 none does.
    let doc = DOC.replace("where grid=fine\n", "");
    let (drifts, _) = run(&doc, CSV);
    assert!(!drifts.is_empty());
    assert!(
        drifts
            .iter()
            .all(|d| d.measured.is_none() && d.note.contains("2 records")),
        "{drifts:#?}"
    );
    let csv: String =
        CSV.lines()
            .filter(|l| !l.starts_with("rk4"))
            .fold(String::new(), |mut acc, l| {
                acc.push_str(l);
                acc.push('\n');
                acc
            });
    let (drifts, _) = run(DOC, &csv);
    assert_eq!(drifts.len(), 5);
    assert!(drifts.iter().all(|d| d.note.starts_with("0 records")));
    // A column the CSV does not have.
    let (drifts, _) = run(DOC, &CSV.replace("r_finest", "r_fine"));
    assert!(
        drifts
            .iter()
            .any(|d| d.note.contains("no column `r_finest`"))
    );
    // A non-number where a number is documented.
    let (drifts, _) = run(DOC, &CSV.replace("1.2345e-10", "n/a"));
    assert!(drifts.iter().any(|d| d.note.contains("is `n/a`")));
}

#[test]
fn markers_that_do_not_fit_their_table_are_refused() {
    let refused = |doc: &str, needle: &str| {
        let result = parse_document("docs/demo.md", doc).and_then(|d| {
            d.marked.iter().try_for_each(|m| figures(m).map(|_| ()))?;
            Ok(d)
        });
        let message = result.expect_err(needle).to_string();
        assert!(message.contains(needle), "{needle} not in {message}");
        assert!(message.contains("docs/demo.md:"), "{message}");
    };
    refused(&DOC.replace("column \"note\" = -\n", ""), "column \"note\"");
    refused(
        &DOC.replace("key \"problem\"", "key \"problems\""),
        "problems",
    );
    refused(
        &DOC.replace("row \"paper\" = -", "row \"papers\" = -"),
        "papers",
    );
    refused(&DOC.replace("| 7.00e-9 |", "| 7.00e-9, 1 |"), "1 numbers");
    refused(&DOC.replace("-> error", "->"), "at least one CSV column");
    refused(
        &DOC.replace("figures: demo/orders.csv", "figures: demo/orders"),
        ".csv",
    );
    refused(
        &DOC.replace("figures: demo/orders.csv", "figures: demo/orders.csv where"),
        "alone on the marker's first line",
    );
    refused(&DOC.replace("\n-->\n", "\n"), "-->");
    refused(
        &DOC.replace("-->\n|", "-->\n\nprose\n|"),
        "right after the marker",
    );
    refused(&DOC.replace("where grid=fine", "where grid"), "where");
}

#[test]
fn timing_and_unchecked_markers_name_their_command() {
    let doc = "<!-- figures: timing: cargo bench --bench krysl\n  (2026-11-22) -->\n| a | b |\n|---|---|\n| x | 1.5 µs |\n\n<!-- figures: unchecked: cargo run --example slow -- --full -->\n| a | b |\n|---|---|\n| x | 2.0 |\n";
    let document = parse_document("docs/t.md", doc).unwrap();
    assert_eq!(
        document.marked[0].marker,
        Marker::Timing("cargo bench --bench krysl (2026-11-22)".into())
    );
    assert_eq!(
        document.marked[1].marker,
        Marker::Unchecked("cargo run --example slow -- --full".into())
    );
    assert!(figures(&document.marked[0]).unwrap().is_empty());
    assert!(parse_document("docs/t.md", "<!-- figures: timing: -->\n| a |\n|---|\n").is_err());
    // Other words say why a table is not compared; they are kept as its reason.
    let free = "<!-- figures: timing, not checked -->\n| a |\n|---|\n\n\
                <!-- figures: measured by tests/x.rs,\n not by reproduce -->\n| a |\n|---|\n";
    let document = parse_document("docs/t.md", free).unwrap();
    assert_eq!(
        document.marked[0].marker,
        Marker::Timing("not checked".into())
    );
    assert_eq!(
        document.marked[1].marker,
        Marker::Unchecked("measured by tests/x.rs, not by reproduce".into())
    );
}

#[test]
fn tables_are_split_at_unescaped_pipes_and_code_blocks_are_skipped() {
    let doc = "| scheme | `\\|q\\| − 1` |\n|---|---|\n| a | +5.4e-14 |\n\n```\n| x | y |\n|---|---|\n```\n";
    let document = parse_document("docs/t.md", doc).unwrap();
    assert_eq!(document.unmarked.len(), 1);
    let table = &document.unmarked[0];
    assert_eq!(table.headers, ["scheme", "`|q| − 1`"]);
    assert_eq!(table.rows[0].cells, ["a", "+5.4e-14"]);
    assert!(table.looks_measured());
    let plain = parse_document("t", "| a | b |\n|---|---|\n| x | y (9) |\n").unwrap();
    assert!(!plain.unmarked[0].looks_measured());
}

#[test]
fn the_list_of_tables_is_checked_against_the_reports() {
    let mut reports: Vec<Report> = REPRODUCTION_TABLES
        .iter()
        .map(|(name, files)| Report {
            name: name.to_string(),
            summary: String::new(),
            artifacts: files
                .iter()
                .map(|f| Artifact {
                    path: Path::new(name).join(f),
                    description: String::new(),
                })
                .collect(),
        })
        .collect();
    assert!(unreported_tables(&reports).is_empty());
    let krysl = reports
        .iter_mut()
        .find(|r| r.name == "krysl_paper")
        .unwrap();
    krysl
        .artifacts
        .retain(|a| a.path != Path::new("krysl_paper/orders.csv"));
    assert_eq!(unreported_tables(&reports), ["krysl_paper/orders.csv"]);
    // A reproduction that did not run is not expected to have written its tables.
    reports.retain(|r| r.name != "krysl_paper");
    assert!(unreported_tables(&reports).is_empty());
    assert!(is_listed("krysl_paper", "orders.csv"));
    assert!(!is_listed("krysl_paper", "nothing.csv"));
    assert!(!is_listed("nothing", "orders.csv"));
}

fn docs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs")
}

#[test]
fn every_measured_table_in_docs_is_marked_and_names_a_reproduced_csv() {
    let mut checked = 0;
    let mut files: Vec<PathBuf> = std::fs::read_dir(docs_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    files.sort();
    assert!(files.len() >= 5, "{files:?}");
    for path in files {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        let document = parse_document(&format!("docs/{file}"), &text).unwrap();
        let unmarked: Vec<usize> = document
            .unmarked
            .iter()
            .filter(|t| t.looks_measured())
            .map(|t| t.line)
            .collect();
        assert!(
            unmarked.is_empty(),
            "docs/{file}: tables at lines {unmarked:?} look measured but have no \
             `<!-- figures: … -->` marker"
        );
        for marked in &document.marked {
            // Every marker fits its table: headers, rows and counts of numbers.
            let figures = figures(marked).unwrap();
            if let Marker::Checked(source) = &marked.marker {
                assert!(
                    is_listed(&source.reproduction, &source.file),
                    "docs/{file}:{}: {}/{} is not a CSV of REPRODUCTION_TABLES",
                    marked.marker_line,
                    source.reproduction,
                    source.file
                );
                assert!(
                    !figures.is_empty(),
                    "docs/{file}:{}: a checked table without figures",
                    marked.marker_line
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 10, "only {checked} checked tables");
}

#[test]
fn a_docs_folder_is_checked_against_an_output_folder() {
    let root = std::env::temp_dir().join(format!("lieode_doc_figures_{}", std::process::id()));
    let (docs, outputs) = (root.join("docs"), root.join("out"));
    std::fs::create_dir_all(&docs).unwrap();
    std::fs::create_dir_all(outputs.join("krysl_paper")).unwrap();
    let doc = DOC.replace("demo/orders.csv", "krysl_paper/orders.csv");
    std::fs::write(docs.join("demo.md"), &doc).unwrap();
    std::fs::write(docs.join("other.txt"), "| a | 1.0 |\n|---|---|\n").unwrap();
    // The CSV has not been written yet: one drift for the whole table.
    let check = check_docs(&docs, &outputs, &["krysl_paper"]).unwrap();
    assert_eq!((check.tables, check.drifts.len()), (1, 1));
    assert!(check.drifts[0].note.contains("cannot read"), "{check}");
    std::fs::write(outputs.join("krysl_paper/orders.csv"), CSV).unwrap();
    let check = check_docs(&docs, &outputs, &["krysl_paper"]).unwrap();
    assert!(check.passed(), "{check}");
    assert_eq!(check.figures, 14);
    std::fs::write(
        outputs.join("krysl_paper/orders.csv"),
        CSV.replace("6.996e-9", "7.006e-9"),
    )
    .unwrap();
    let check = check_docs(&docs, &outputs, &["krysl_paper"]).unwrap();
    assert!(!check.passed());
    assert!(
        check.to_string().contains("DRIFT docs/demo.md:19"),
        "{check}"
    );
    // A table of a reproduction that did not run is listed as not compared.
    let check = check_docs(&docs, &outputs, &["spiral_paper"]).unwrap();
    assert_eq!((check.tables, check.figures), (0, 0));
    assert!(check.passed() && check.excluded[0].2.contains("krysl_paper was not run"));
    // A marker naming a CSV no reproduction writes.
    std::fs::write(
        docs.join("demo.md"),
        doc.replace("krysl_paper/orders.csv", "krysl_paper/nothing.csv"),
    )
    .unwrap();
    let check = check_docs(&docs, &outputs, &["krysl_paper"]).unwrap();
    assert!(
        check.drifts[0]
            .note
            .contains("not a table of REPRODUCTION_TABLES")
    );
    std::fs::remove_dir_all(&root).unwrap();
}
