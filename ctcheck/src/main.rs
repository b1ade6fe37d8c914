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
    if std::env::var_os("PQKIT_CT_ASSUME_ADX").is_some_and(|v| v == "1") {
        pqkit_common::ctgrind::assume_bmi2_adx();
    }
    match args.as_slice() {
        // Asked natively (outside valgrind, whose CPUID hides ADX) by
        // scripts/ct-check.sh: exit 0 iff the CPU has BMI2 and ADX.
        #[cfg(target_arch = "x86_64")]
        [cmd] if cmd == "cpu-has-adx" => {
            if std::arch::is_x86_feature_detected!("bmi2")
                && std::arch::is_x86_feature_detected!("adx")
            {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
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
