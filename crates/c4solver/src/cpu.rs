//! What this build asks of the processor.
//!
//! On x86-64 the repository builds with POPCNT (`.cargo/config.toml`): the search
//! counts bits at every node, and POPCNT does each count in one instruction. A
//! binary built that way stops with "illegal instruction" on a processor without
//! it (Intel's before Nehalem, 2008, Atoms before 2013, AMD's before 2007, or a
//! virtual machine whose CPU model hides it), so the command line and the Python
//! package ask [`unsupported`] first and explain instead. Any other extension a
//! build is compiled for (`RUSTFLAGS="-C target-cpu=native"`) is checked the same
//! way.

/// Why this processor cannot run this build, or `None` if it can: the instruction
/// set extensions the build was compiled to use that the processor lacks, with how
/// to build for it.
#[must_use]
pub fn unsupported() -> Option<String> {
    why(&missing(&compiled_in()))
}

/// The names of the extensions in `compiled` that the processor lacks.
fn missing(compiled: &[(&'static str, bool)]) -> Vec<&'static str> {
    compiled
        .iter()
        .filter(|&&(_, has)| !has)
        .map(|&(name, _)| name)
        .collect()
}

/// The message for the extensions `missing`, or `None` if there are none.
fn why(missing: &[&str]) -> Option<String> {
    (!missing.is_empty()).then(|| {
        format!(
            "this build uses {}, which this processor lacks; rebuild for it with \
             RUSTFLAGS=\"-C target-cpu=native\" (or \"-C target-cpu=x86-64\")",
            missing.join(", ")
        )
    })
}

/// The extensions this build was compiled to use (of those checked), each with
/// whether the processor has it.
fn compiled_in() -> Vec<(&'static str, bool)> {
    #[allow(unused_mut)]
    let mut v = Vec::new();
    #[cfg(target_arch = "x86_64")]
    {
        macro_rules! check {
            ($($f:tt),*) => {
                $( if cfg!(target_feature = $f) {
                    v.push(($f, std::arch::is_x86_feature_detected!($f)));
                } )*
            };
        }
        check!(
            "popcnt", "sse3", "ssse3", "sse4.1", "sse4.2", "avx", "avx2", "bmi1", "bmi2", "lzcnt",
            "fma"
        );
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_machine_that_built_it_runs_it() {
        // The tests run on the processor they were built for: nothing compiled in
        // can be missing.
        assert_eq!(unsupported(), None);
        #[cfg(all(target_arch = "x86_64", target_feature = "popcnt"))]
        assert!(
            compiled_in().contains(&("popcnt", true)),
            "{:?}",
            compiled_in()
        );
    }

    #[test]
    fn a_processor_without_what_the_build_uses_is_named() {
        // A processor with nothing: every extension compiled in is named.
        let compiled = compiled_in();
        let nothing: Vec<_> = compiled.iter().map(|&(f, _)| (f, false)).collect();
        let names: Vec<_> = compiled.iter().map(|&(f, _)| f).collect();
        assert_eq!(missing(&nothing), names);
        #[cfg(all(target_arch = "x86_64", target_feature = "popcnt"))]
        assert!(missing(&nothing).contains(&"popcnt"));
        // A processor that has only some: the others.
        assert_eq!(missing(&[("popcnt", true), ("avx2", false)]), vec!["avx2"]);
        assert_eq!(
            why(&["popcnt", "sse4.2"]).unwrap(),
            "this build uses popcnt, sse4.2, which this processor lacks; rebuild for it \
             with RUSTFLAGS=\"-C target-cpu=native\" (or \"-C target-cpu=x86-64\")"
        );
        assert_eq!(why(&[]), None);
    }
}
