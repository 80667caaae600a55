//! Helpers shared by the data-driven tests.

#![allow(dead_code)]

use std::path::PathBuf;

use c4solver::testset::TestSet;

/// `../shared/pons-testsets/NAME` (or `$C4_PONS_DIR/NAME`), or a panic that says
/// where the sets should be: a data-driven test never passes without its data.
pub fn pons_set(name: &str) -> TestSet {
    let dir = std::env::var_os("C4_PONS_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/pons-testsets"),
        PathBuf::from,
    );
    assert!(
        dir.is_dir(),
        "Pascal Pons' test sets are missing: expected them in {} (the shared/ folder beside the checkout)",
        dir.display()
    );
    TestSet::read(&dir.join(name)).unwrap_or_else(|e| panic!("{e}"))
}

/// A bundled set from `testsets/`.
pub fn bundled_set(name: &str) -> TestSet {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("testsets")
        .join(name);
    TestSet::read(&path).unwrap_or_else(|e| panic!("{e}"))
}
