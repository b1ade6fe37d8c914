"""BENCHMARKS.md from the raw outputs of one `scripts/benchmarks.sh` run.

    python3 scripts/benchmarks-md.py RAW_DIR > BENCHMARKS.md

RAW_DIR holds what `scripts/benchmarks.sh` saved:

* `meta.txt`: `key: value` lines (cpu, avx512, commit, rustc, command,
  interleaved_date, stack_date);
* `interleaved/BUILD-RUN.txt`: the `interleaved` example's output, one file
  per build (`downstream`, `native`, `avx512-off`) and run, as
  `scripts/bench-interleaved.sh` writes them;
* `stack-probe.txt`: the output of `scripts/stack-probe.sh`.

A missing part is reported in the page, not guessed. The interleaved files
are parsed by `scripts/interleaved-table.py`'s parser.
"""
import importlib.util
import os
import re
import sys
import textwrap
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "interleaved_table", os.path.join(HERE, "interleaved-table.py")
)
interleaved_table = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(interleaved_table)
fmt = interleaved_table.fmt

BUILDS = {
    "downstream": "`--profile downstream` (release without LTO, 16 codegen "
    "units: what a dependent crate's `cargo build --release` gives)",
    "native": '`--profile downstream` with `RUSTFLAGS="-C target-cpu=native"`',
    "avx512-off": "`--profile downstream`, run with `PQKIT_BACKEND=avx2` "
    "(pqkit's AVX-512 kernels off, as on an AVX2-only CPU)",
}

# The rows of the summary: the first operation of each kind per algorithm.
SUMMARY_COLUMNS = [
    ("key generation", re.compile(r"^keygen(-\d+-seeds)?$")),
    ("sign / encaps (from key bytes)", re.compile(r"^(sign|sign-from-bytes|encaps-from-bytes|.*/seal-1KiB)$")),
    ("verify / decaps (from key bytes)", re.compile(r"^((verify|decaps)-(64-)?from-bytes|.*/open-1KiB)")),
    ("agree / handshake", re.compile(r"^(agree|handshake-.*)$")),
]


def para(text):
    """A paragraph of prose, wrapped for the Markdown source."""
    return textwrap.fill(text, width=76, break_long_words=False, break_on_hyphens=False) + "\n"


def span(values):
    lo, hi = min(values), max(values)
    return f"{lo:.2f}" if f"{lo:.2f}" == f"{hi:.2f}" else f"{lo:.2f}-{hi:.2f}"


def read_meta(raw):
    meta = {}
    path = os.path.join(raw, "meta.txt")
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                key, sep, value = line.partition(":")
                if sep:
                    meta[key.strip()] = value.strip()
    return meta


def cpu_of(path):
    """The `model name` line the interleaved example prints first."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("model name"):
                return line.partition(":")[2].strip()
    return None


def stamp(meta, cpu, date, build):
    avx512 = meta.get("avx512", "?")
    return (
        f"CPU: {cpu or meta.get('cpu', 'unknown')} (AVX-512: {avx512}); "
        f"commit {meta.get('commit', 'unknown')}; {date or 'date unknown'}; "
        f"build: {build}."
    )


def family(alg):
    """ML-KEM-768 -> ML-KEM, FireSaber -> Saber."""
    if alg.endswith("Saber"):
        return "Saber"
    return re.sub(r"-\d+$", "", alg)


def interleaved_runs(raw):
    """{build: [(run name, parsed rows, cpu)]} in build and run order."""
    folder = os.path.join(raw, "interleaved")
    runs = defaultdict(list)
    if not os.path.isdir(folder):
        return runs
    names = sorted(
        (n for n in os.listdir(folder) if n.endswith(".txt")),
        key=lambda n: (n.rsplit("-", 1)[0], int(re.sub(r"\D", "", n.rsplit("-", 1)[1]) or 0)),
    )
    for name in names:
        path = os.path.join(folder, name)
        build = name[:-4].rsplit("-", 1)[0]
        rows = {k: v for k, v in interleaved_table.parse(path).items() if v["ratio"]}
        runs[build].append((name[:-4], rows, cpu_of(path)))
    order = [b for b in BUILDS if b in runs] + sorted(b for b in runs if b not in BUILDS)
    return {b: runs[b] for b in order}


def best_peer(row):
    peers = {k: v for k, v in row["min"].items() if k not in row["ratio"]}
    name = min(peers, key=peers.get)
    return name, peers[name]


def summary(out, runs):
    """One line per algorithm: ranges of the fastest-batch ratio."""
    cells = defaultdict(list)
    peers = defaultdict(set)
    for build in ("downstream", "native", "avx512-off"):
        for _, rows, _ in runs.get(build, []):
            for name, row in rows.items():
                alg, _, op = name.partition("/")
                for col, pattern in SUMMARY_COLUMNS:
                    if pattern.match(op):
                        cells[(family(alg), col)] += row["ratio"].values()
                        peers[family(alg)].add(best_peer(row)[0])
    if not cells:
        return
    out.append("## Summary\n")
    out.append(para(
        "pqkit's time over the best peer's, by fastest batch (below 1: pqkit "
        "is faster), the range over parameter sets, runs and builds of the "
        "tables below (downstream, native, and with AVX-512 off where the "
        "CPU has it: what an AVX2-only CPU runs)."
    ))
    cols = [c for c, _ in SUMMARY_COLUMNS]
    out.append("| algorithm | best peer | " + " | ".join(cols) + " |")
    out.append("|---" * (len(cols) + 2) + "|")
    for fam in dict.fromkeys(f for f, _ in cells):
        line = []
        for col in cols:
            v = cells.get((fam, col))
            line.append(span(v) if v else "")
        out.append(f"| {fam} | {', '.join(sorted(peers[fam]))} | " + " | ".join(line) + " |")
    out.append("")


def speed(out, meta, runs):
    out.append("## Speed: pqkit beside the best peer (`scripts/bench-interleaved.sh`)\n")
    if not runs:
        out.append("Not measured in this run.\n")
        return
    out.append(para(
        "The `interleaved` example (`benches/examples/interleaved.rs`) runs "
        "each row's implementations in turn, one batch of about 3 ms each "
        "per round (30 ms for hedged signing, whose time is random), for "
        "every round, in one process. A cell is `pqkit / best peer` in µs "
        "per operation (each one's fastest batch), then in parentheses the "
        "ratio of those fastest batches and the median over rounds of "
        "pqkit's batch over the best peer's batch of the same round (steadier "
        "when the machine has slow spells). Below 1: pqkit is faster. One "
        "column per run, each a separate process. Rows named `-64-` cycle "
        "through 64 distinct inputs; `from-bytes` rows decode the key first."
    ))
    for build, build_runs in runs.items():
        cpu = next((c for _, _, c in build_runs if c), None)
        out.append(f"### {build} build\n")
        out.append(para(stamp(meta, cpu, meta.get("interleaved_date"), BUILDS.get(build, build))))
        names = [n for n, _, _ in build_runs]
        out.append("| row | best peer | " + " | ".join(names) + " |")
        out.append("|---" * (len(names) + 2) + "|")
        first = build_runs[0][1]
        for name, row in first.items():
            for imp in row["ratio"]:
                cells, peers = [], []
                for _, rows, _ in build_runs:
                    x = rows.get(name)
                    if x is None or imp not in x["ratio"]:
                        cells.append("")
                        continue
                    peer, best = best_peer(x)
                    peers.append(peer)
                    cells.append(
                        f"{fmt(x['min'][imp])} / {fmt(best)} "
                        f"({x['ratio'][imp]:.2f}; {x['rounds'][imp]:.2f})"
                    )
                label = name if imp == "pqkit" else f"{name} {imp.removeprefix('pqkit ')}"
                peer_names = ", ".join(dict.fromkeys(peers))
                out.append(f"| {label} | {peer_names} | " + " | ".join(cells) + " |")
        out.append("")


PEER_PREFIXES = {"libcrux-": "libcrux", "aws-lc-": "aws-lc-rs", "pqclean-": "PQClean"}


def stack(out, meta, raw):
    out.append("## Peak stack (`scripts/stack-probe.sh`)\n")
    path = os.path.join(raw, "stack-probe.txt")
    rows = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                parts = line.split()
                if len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit():
                    rows[parts[0]] = (int(parts[1]), int(parts[2]))
    if not rows:
        out.append("Not measured in this run.\n")
        return
    out.append(para(
        "valgrind massif (`--stacks=yes`) on `stack_probe`, a binary that runs "
        "one operation at least 300 times (`benches/src/bin/stack_probe.rs`). "
        "`operation` is the highest stack while the operation runs minus the "
        "idle baseline (`noop`); `whole process` is the highest stack of the "
        "whole run, dynamic loader and start-up included. Bytes; massif "
        "samples, so a peak can move by a few hundred bytes between runs. "
        "valgrind does not report AVX-512, so these are the AVX2 code paths. "
        "Peers measured the same way are in the last column."
    ))
    out.append(para(stamp(meta, None, meta.get("stack_date"), "`--profile release`")))
    out.append("| probe | operation (B) | whole process (B) | peers: operation (B) |")
    out.append("|---|---|---|---|")
    peer_of = {}
    for name in rows:
        for prefix, peer in PEER_PREFIXES.items():
            if name.startswith(prefix) and name[len(prefix):] in rows:
                peer_of.setdefault(name[len(prefix):], []).append((peer, rows[name][0]))
    for name, (op, whole) in rows.items():
        if any(name.startswith(p) and name[len(p):] in rows for p in PEER_PREFIXES):
            continue
        peers = "; ".join(f"{p} {v:,}" for p, v in peer_of.get(name, []))
        out.append(f"| {name} | {op:,} | {whole:,} | {peers} |")
    out.append("")


def measured_alone(out, meta, raw, title, name, text, key, build):
    """A table measured by its own script into `raw/name`, stamped with
    its own `key_date` and `key_commit` from meta.txt. The lines of the
    file that are tables are copied; a line ending in ':' heads a table."""
    out.append(f"## {title}\n")
    path = os.path.join(raw, name)
    if not os.path.exists(path):
        out.append("Not measured in this run.\n")
        return
    out.append(para(text))
    own = dict(meta)
    own["commit"] = meta.get(f"{key}_commit", meta.get("commit", "unknown"))
    out.append(para(stamp(own, None, meta.get(f"{key}_date"), build)))
    with open(path, encoding="utf-8") as f:
        for line in f.read().splitlines():
            if line.startswith("|"):
                out.append(line)
            elif line.endswith(":"):
                out.extend(["", line, ""])
    out.append("")


def lean(out, meta, raw):
    measured_alone(
        out, meta, raw, "Build cost (`scripts/lean-build.sh`)", "lean-build.md",
        "What depending on each crate costs a user: a fresh downstream crate "
        "with the default features and the workspace's `Cargo.lock`; the "
        "crates in its dependency tree (`cargo tree -e normal,build`, the "
        "crate itself and the downstream crate not counted), the proc macros "
        "among them, and the cold `cargo build --release` time in seconds "
        "(an empty target directory, all cores; the fastest of three "
        "builds, alternating with the peer's), beside the RustCrypto or "
        "reference peer built the same way. `scripts/lean-build.sh --check` "
        "(run by `scripts/test.sh`) fails when a pqkit tree outgrows "
        "`scripts/lean-build-limits.txt`.",
        "lean", f"`cargo build --release`, {os.cpu_count()} cores",
    )


def wasm(out, meta, raw):
    measured_alone(
        out, meta, raw, "WebAssembly (`scripts/wasm.sh --bench`)", "wasm-bench.md",
        "First pqkit-common's kernels on the portable and the Simd128 "
        "backend in one run (`common/examples/kernels.rs`, nanoseconds per "
        "call, best of five rounds). Then the `pqkit-wasm` package (release "
        "build for `wasm32-unknown-unknown` with `simd128`, bound by "
        "wasm-bindgen) beside noble-post-quantum (JavaScript) on the same "
        "inputs, in one process: Node, the same package built without SIMD "
        "(portable kernels only) in Node, then headless Chromium on the page "
        "`wasm/www/` (`wasm/js/bench-lib.mjs` for all). Microseconds per "
        "operation, the fastest of seven batches; the last column is "
        "noble's time over pqkit's. \"Key from bytes\" rows parse the key "
        "in each call, as noble does; decapsulation and signing use a key "
        "object made once (noble parses its expanded secret key each call).",
        "wasm", "`--release`, wasm32 (`-C target-feature=+simd128` unless said)",
    )


def aarch64(out, meta, raw):
    measured_alone(
        out, meta, raw, "aarch64 NEON kernels (`scripts/aarch64.sh --count`)",
        "aarch64-count.md",
        "No aarch64 hardware measured these: pqkit-common's kernels "
        "(`common/examples/kernels.rs`, built for `aarch64-unknown-linux-gnu`) "
        "run under `qemu-aarch64`, which counts the instructions each call "
        "executes (the process for 11 calls minus the process for 1, over "
        "10) on the portable and the NEON backend. An instruction count is "
        "not a time (latencies, dual issue and memory are not in it); it "
        "shows the expected gain until someone measures on hardware. Where "
        "the two counts are equal, LLVM vectorises the portable kernel into "
        "the same instructions by itself.",
        "aarch64", "`--release`, aarch64, qemu's default CPU (with FEAT_SHA3)",
    )


def slh_dsa(out, meta, raw):
    measured_alone(
        out, meta, raw,
        "SLH-DSA beside RustCrypto `slh-dsa` and `fips205` "
        "(`cargo run --profile downstream -p pqkit-slh-dsa --example peers`)",
        "slh-dsa-peers.md",
        "All twelve parameter sets in one process: key generation from "
        "fixed seeds, deterministic signing (`slh_sign_internal`) and "
        "verification of one signature, milliseconds per operation, the "
        "fastest of three rounds in which every implementation runs a "
        "30 ms batch in turn (the three agree on the key and signature "
        "before anything is timed). The last column is pqkit's time over "
        "the faster peer's. \"sign\" signs with a key made once: a pqkit "
        "key keeps the top XMSS tree's nodes at height 3, made with PK.root, "
        "so its signatures compute eight of that tree's leaves, not all. "
        "\"sign, key from bytes\" decodes the key every time, as the peers' "
        "sign rows always do: pqkit's `from_bytes` recomputes that tree "
        "(PK.root is checked), the peers' do not. "
        "pqkit picks its hashing kernels at run time: "
        "here SHA-256 eight-way interleaved on the SHA extensions, SHA-512 "
        "eight-way (two interleaved groups of four AVX-512VL lanes, or of "
        "four AVX2 lanes with AVX-512 off), Keccak four-way; the peers hash "
        "one call at a time (RustCrypto's `sha2` uses the SHA extensions "
        "too). The AVX-512-off table is what an AVX2-only CPU with the SHA "
        "extensions runs (Zen 2/3, Alder Lake). PQClean's SPHINCS+ (C, through "
        "`pqcrypto-sphincsplus`, its AVX2 code: eight-way SHA-256 in AVX2 "
        "lanes, four-way Keccak) is a timing peer in its own table: round "
        "3.1 has FIPS 205's parameters and trees but not its outputs. The "
        "last table is the peak "
        "stack of one operation beside the peers' (the stack probe, "
        "`STACK_PROBE_REPEAT=3` runs each).",
        "slh_dsa", "`--profile downstream` (and `-C target-cpu=native` where named)",
    )


def main(raw):
    meta = read_meta(raw)
    runs = interleaved_runs(raw)
    command = meta.get("command", "bash scripts/benchmarks.sh")
    out = [
        "# pqkit benchmarks\n",
        "<!-- Generated by scripts/benchmarks.sh; do not edit by hand. -->\n",
        para(
            f"Generated by `{command}` from one run; do not edit by hand. "
            "Re-render from the saved raw outputs with "
            "`bash scripts/benchmarks.sh --from DIR` (the raw folder, "
            "`target/benchmarks` by default)."
        ),
        para(
            "Every table names its CPU, commit (`-dirty`: uncommitted changes "
            f"in the tree), date (UTC) and build. Compiler: {meta.get('rustc', 'unknown')}."
        ),
    ]
    summary(out, runs)
    speed(out, meta, runs)
    stack(out, meta, raw)
    lean(out, meta, raw)
    wasm(out, meta, raw)
    aarch64(out, meta, raw)
    slh_dsa(out, meta, raw)
    sys.stdout.write("\n".join(out).rstrip("\n") + "\n")


def sections(text):
    """The document's preamble and its `## ` sections, in order."""
    head, blocks, cur = [], [], None
    for line in text.splitlines(keepends=True):
        if line.startswith("## "):
            cur = [line.strip(), line]
            blocks.append(cur)
        elif cur is None:
            head.append(line)
        else:
            cur.append(line)
    return "".join(head), [(b[0], "".join(b[1:])) for b in blocks]


def keep_old(new, old):
    """`new`, with every section it could not measure ("Not measured in this
    run.") and every section only `old` has (the summary of a speed run)
    taken from `old`: a partial run (`--lean`, `--wasm`) re-measures its
    table and leaves the others as they were."""
    head, new_secs = sections(new)
    _, old_secs = sections(old)
    old_map = dict(old_secs)
    new_names = [name for name, _ in new_secs]
    out = [head]
    placed = set()
    for name, body in new_secs:
        # Sections only the old file has, that came before this one there.
        for oname, obody in old_secs:
            if oname == name:
                break
            if oname not in new_names and oname not in placed:
                out.append(obody)
                placed.add(oname)
        if "Not measured in this run." in body and name in old_map and \
                "Not measured in this run." not in old_map[name]:
            body = old_map[name]
        out.append(body)
    # One blank line after each section (a section kept from the end of the
    # old file may not have had one).
    return "".join(b.rstrip("\n") + "\n\n" for b in out).rstrip("\n") + "\n"


if __name__ == "__main__":
    args = sys.argv[1:]
    if len(args) == 3 and args[1] == "--keep":
        import io
        buf = io.StringIO()
        real = sys.stdout
        sys.stdout = buf
        main(args[0])
        sys.stdout = real
        with open(args[2], encoding="utf-8") as f:
            sys.stdout.write(keep_old(buf.getvalue(), f.read()))
    elif len(args) == 1:
        main(args[0])
    else:
        sys.exit(__doc__)
