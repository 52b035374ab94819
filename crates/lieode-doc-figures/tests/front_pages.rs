//! The front pages of the published crates — each crate's README (its crates.io page, and its
//! doctests) and its crate documentation (its docs.rs page) — must not link into the
//! repository by relative paths, which break outside it: every link is absolute, and every
//! link into the repository names a file or folder that exists.

use std::path::{Path, PathBuf};

/// The repository the crates name in `Cargo.toml` (`repository`).
const REPOSITORY: &str = "https://github.com/lieode/lieode";

/// The workspace root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The targets of the Markdown links and images of `text`: `[label](target)`, `![alt](target)`
/// and reference definitions `[label]: target`.
fn link_targets(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in text.match_indices("](") {
        let rest = &text[i + 2..];
        if let Some(end) = rest.find(')') {
            out.push(rest[..end].trim().to_owned());
        }
    }
    for line in text.lines() {
        let line = line.trim_start_matches("//!").trim();
        if line.starts_with('[')
            && let Some((_, target)) = line.split_once("]: ")
        {
            out.push(target.trim().to_owned());
        }
    }
    out
}

/// The crate documentation of `lib.rs`: its `//!` lines.
fn crate_docs(lib: &Path) -> String {
    std::fs::read_to_string(lib)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("//!"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The problems with the links of `page`: relative targets, and repository links to paths that
/// do not exist.
fn problems(page: &str, text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for target in link_targets(text) {
        // Rust paths in intra-doc links (`[`Foo`](crate::x::Foo)`) resolve on docs.rs.
        let rust_path = target.contains("::") || !target.contains(['/', '.', '#']);
        if target.starts_with("https://") || target.starts_with("http://") {
            if let Some(rest) = target.strip_prefix(REPOSITORY) {
                let path = ["/blob/main/", "/tree/main/", "/raw/main/"]
                    .iter()
                    .find_map(|p| rest.strip_prefix(p));
                match path {
                    Some(path) if root().join(path.split('#').next().unwrap()).exists() => {}
                    Some(path) => {
                        out.push(format!("{page}: {target}: no `{path}` in the repository"))
                    }
                    None if rest.is_empty() => {}
                    None => out.push(format!("{page}: {target}: not a file of the main branch")),
                }
            }
        } else if !rust_path && !target.starts_with('#') {
            out.push(format!(
                "{page}: `{target}` is relative and breaks outside the repository"
            ));
        }
    }
    out
}

#[test]
fn the_published_front_pages_link_only_to_what_exists() {
    let mut found = Vec::new();
    for krate in ["lieode", "lieode-study"] {
        let dir = root().join("crates").join(krate);
        let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
        found.extend(problems(&format!("{krate}/README.md"), &readme));
        let docs = crate_docs(&dir.join("src/lib.rs"));
        found.extend(problems(&format!("{krate}/src/lib.rs"), &docs));
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_check_catches_relative_and_dangling_links() {
    let page = "see [the notes](docs/notation.md), [ok](https://github.com/lieode/lieode/blob/main/docs/orders.md), \
                [gone](https://github.com/lieode/lieode/blob/main/docs/nothing.md), \
                [`Error`](crate::Error) and [elsewhere](https://docs.rs/lieode)";
    let found = problems("t", page);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(
        found.iter().any(|p| p.contains("no `docs/nothing.md`")),
        "{found:?}"
    );
    assert!(
        found
            .iter()
            .any(|p| p.contains("`docs/notation.md` is relative")),
        "{found:?}"
    );
}
