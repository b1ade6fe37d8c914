//! Constant-time check cases, run under valgrind memcheck by
//! `scripts/ct-check.sh` (the TIMECOP method).
//!
//! Each case marks its secret inputs *undefined* with
//! [`pqkit_common::ctgrind::poison`], runs one operation, and marks the
//! outputs defined again before using them. Memcheck then reports any
//! conditional jump or memory address that depended on a secret. The
//! `leaky-*` cases are negative controls: they must be reported.
//!
//! `pqkit-ctcheck list` prints the case names; `pqkit-ctcheck CASE` runs one.
#![forbid(unsafe_code)]

mod cases;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [cmd] if cmd == "list" => {
            for (name, _) in cases::ALL {
                println!("{name}");
            }
            ExitCode::SUCCESS
        }
        [case] => match cases::ALL.iter().find(|(n, _)| n == case) {
            Some((_, run)) => {
                let digest = run();
                // Print something derived from the outputs so nothing is
                // optimised away (outputs were declassified by the case).
                println!("{case}: ok ({digest:#018x})");
                ExitCode::SUCCESS
            }
            None => {
                eprintln!("unknown case {case}; try `list`");
                ExitCode::from(2)
            }
        },
        _ => {
            eprintln!("usage: pqkit-ctcheck list | CASE");
            ExitCode::from(2)
        }
    }
}
