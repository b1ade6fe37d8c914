//! The `pqkit` command (see the `pqkit_cli` library, which is all of it).

fn main() -> std::process::ExitCode {
    pqkit_cli::main()
}
