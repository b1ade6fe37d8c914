//! Stack probe: runs exactly one operation, so that
//! `valgrind --tool=massif --stacks=yes` (see `scripts/stack-probe.sh`)
//! measures its peak stack. The `noop` operation is the baseline the script
//! subtracts (process start-up and `main`).
//!
//! `stack_probe list` prints the operation names.

use std::hint::black_box;
use std::process::ExitCode;

use pqkit_benches::probes;

/// How many times the operation runs.
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
                let f = prepare();
                // massif samples the stack periodically: repeat the
                // operation so the samples land everywhere inside it.
                // A 1 MiB heap block marks the measured phase for the script
                // (massif records heap and stack in the same snapshots).
                let marker = black_box(vec![1u8; MARKER]);
                for _ in 0..REPEAT {
                    black_box(f());
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
