//! The end-to-end and data-driven tests, one module per subject, in one test
//! binary: each binary links and optimizes its own copy of the solver, so one
//! binary instead of 28 takes a fraction of the build (`cargo test` from clean).
//! Run one subject with a filter: `cargo test --test integration sizes::`.

mod common;

mod analysis;
mod analyze;
mod answer;
mod api;
mod book;
mod book_cli;
mod book_wide;
mod bundled;
mod cli;
mod doc_examples;
mod docs;
mod erased;
mod figures;
mod hostile;
mod npm;
mod oracle;
mod play;
mod pons;
mod properties;
mod resources;
mod rough_edges;
mod serve;
mod serve_public;
mod sizes;
mod sources;
mod stops;
mod tables;
mod terminal;
mod threads;
mod tuned;
mod user_edges;
mod wasm;
mod web;
