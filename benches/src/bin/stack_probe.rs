//! Stack probe: runs exactly one operation, so that
//! `valgrind --tool=massif --stacks=yes` (see `scripts/stack-probe.sh`)
//! measures its peak stack. The `noop` operation is the baseline the script
//! subtracts (process start-up and `main`).
//!
//! `stack_probe list` prints the operation names.

use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

use pqkit_benches::probes;

/// How many times the operation runs at least, unless
/// `STACK_PROBE_REPEAT` says otherwise (the script lowers it for
/// operations of milliseconds, such as SLH-DSA signing, whose one run
/// already spans many massif snapshots).
const REPEAT: usize = 300;
/// Size of the heap block that marks the measured phase.
const MARKER: usize = 1 << 20;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [cmd] if cmd == "list" => {
            for (name, _) in probes::ALL {
                println!("{name}");
            }
            ExitCode::SUCCESS
        }
        [op] => match probes::ALL.iter().find(|(n, _)| n == op) {
            Some((_, prepare)) => {
                // Inputs (keys, messages) are made before the measured phase.
                let start = Instant::now();
                let f = prepare();
                let setup = start.elapsed();
                // massif samples the stack periodically: repeat the
                // operation so the samples land everywhere inside it.
                // massif spreads its snapshots over the whole run, so the
                // loop also runs at least twice as long as the set-up did
                // (an FN-DSA-1024 key generation before a verification
                // loop otherwise took every snapshot).
                // A 1 MiB heap block marks the measured phase for the script
                // (massif records heap and stack in the same snapshots).
                let repeat = std::env::var("STACK_PROBE_REPEAT")
                    .ok()
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(REPEAT);
                let marker = black_box(vec![1u8; MARKER]);
                let looped = Instant::now();
                let mut runs = 0usize;
                while runs < repeat || looped.elapsed() < 2 * setup {
                    black_box(f());
                    runs += 1;
                }
                drop(black_box(marker));
                ExitCode::SUCCESS
            }
            None => {
                eprintln!("unknown operation {op}; try `list`");
                ExitCode::from(2)
            }
        },
        _ => {
            eprintln!("usage: stack_probe list | OPERATION");
            ExitCode::from(2)
        }
    }
}
