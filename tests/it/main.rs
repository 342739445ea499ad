//! The integration tests, one crate: each module below was once its own test binary.
//! One crate links the library and its dependencies once instead of once per file
//! (see the test chapter of docs/guide/performance.md for the measured build times).
//! Run one module with `cargo test --test it <module>::` (e.g. `cargo test --test it
//! serve::`). The memory tests stay in their own binary (`tests/memory.rs`): they
//! install a counting global allocator, which would count every other test's heap.
//!
//! Tests here run on threads of one process: a test must not change process-wide
//! state (current directory, environment, signal dispositions); children get their
//! environment through `Command::env`.

mod analysis;
mod best_first;
mod browser;
mod check;
mod check_units;
mod cli_errors;
mod cli_help;
mod cluster;
mod common;
mod echoed_input;
mod feedback;
mod fuzz;
mod install;
mod io_faults;
mod metrics;
mod min_over;
mod next;
mod no_tree;
mod opener_tables;
mod openers;
mod pairs;
mod players;
mod proof;
mod review;
mod review_time;
mod serve;
mod serve_load;
mod simd;
mod solve_cli;
mod solver;
mod sweep_balance;
mod table;
mod tree_files;
mod webdriver;
