//! The committed header `include/lieode.h` is the one cbindgen generates from the source now
//! (`LIEODE_UPDATE_HEADER=1` rewrites it instead of failing).

#[test]
fn the_committed_header_is_generated_from_the_source() {
    let dir = env!("CARGO_MANIFEST_DIR");
    let config = cbindgen::Config::from_file(format!("{dir}/cbindgen.toml")).expect("config");
    let bindings = cbindgen::Builder::new()
        .with_crate(dir)
        .with_config(config)
        .generate()
        .expect("the header generates");
    let mut generated = Vec::new();
    bindings.write(&mut generated);
    let generated = String::from_utf8(generated).expect("UTF-8");
    let path = format!("{dir}/include/lieode.h");
    if std::env::var_os("LIEODE_UPDATE_HEADER").is_some() {
        std::fs::write(&path, &generated).expect("writable");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "include/lieode.h differs from the header generated from src/; run \
         `LIEODE_UPDATE_HEADER=1 cargo test -p lieode-capi --test header` and commit it"
    );
}
