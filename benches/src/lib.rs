//! pqkit benchmarks (criterion, in `benches/`, each pqkit operation beside
//! the best peer crates) and stack probes (`src/bin/stack_probe.rs`, driven
//! by `scripts/stack-probe.sh`).

pub mod probes {
    //! One-operation functions for the stack probe. Each prepares its inputs
    //! on the heap where possible and runs one operation; its return value is
    //! kept alive with `black_box`.

    use std::hint::black_box;

    use pqkit_common::keccak::{SHAKE128_RATE, Shake128X4};
    use pqkit_common::{Backend, Kernel, dispatch};

    /// A probe: name and operation.
    pub type Probe = (&'static str, fn() -> u64);

    /// Every probe; `noop` is the baseline.
    pub const ALL: &[Probe] = &[("noop", noop), ("keccak-x4", keccak_x4)];

    #[inline(never)]
    fn noop() -> u64 {
        black_box(0)
    }

    struct X4;
    impl Kernel for X4 {
        type Output = u64;
        fn run<B: Backend>(self, b: B) -> u64 {
            let mut x = Shake128X4::absorb(b, &[[7u8; 34]; 4]);
            let mut out = [[0u8; SHAKE128_RATE]; 4];
            x.squeeze_block(&mut out);
            u64::from(out[3][5])
        }
    }

    #[inline(never)]
    fn keccak_x4() -> u64 {
        dispatch(X4)
    }
}
