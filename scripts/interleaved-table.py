"""Markdown table from runs of the `interleaved` example.

    python3 scripts/interleaved-table.py RUN.txt...

One row per implementation of pqkit's in each of the example's rows, one
column per file (named by the file's stem): pqkit's fastest batch / the
best peer's fastest batch (µs per operation), then the ratio of those
fastest batches and the median over rounds of pqkit's batch over the best
peer's batch of the same round, as the example prints them.
"""
import os
import re
import sys

ROW = re.compile(r"\s+(.+?)\s+min\s+([\d.]+)\s+median\s+([\d.]+)")
RATIO = re.compile(r"\s+(.+?)\s+vs best peer ([\d.]+)\s+\(median of rounds ([\d.]+)\)")


def parse(path):
    rows = {}
    cur = None
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.startswith(" ") and "/" in line:
                cur = line.strip()
                rows[cur] = {"min": {}, "ratio": {}, "rounds": {}}
                continue
            if cur is None:
                continue
            m = RATIO.match(line)
            if m:
                rows[cur]["ratio"][m.group(1)] = float(m.group(2))
                rows[cur]["rounds"][m.group(1)] = float(m.group(3))
                continue
            m = ROW.match(line)
            if m:
                rows[cur]["min"][m.group(1)] = float(m.group(2))
    return rows


def fmt(v):
    return f"{v:.0f}" if v >= 1000 else f"{v:.3g}"


def main(paths):
    runs = [parse(p) for p in paths]
    names = [os.path.splitext(os.path.basename(p))[0] for p in paths]
    print("| row | " + " | ".join(names) + " |")
    print("|---" * (len(paths) + 1) + "|")
    for name, row in runs[0].items():
        for imp in row["ratio"]:
            cells = []
            for run in runs:
                x = run.get(name)
                if x is None or imp not in x["ratio"]:
                    cells.append("")
                    continue
                peers = {k: v for k, v in x["min"].items() if k not in x["ratio"]}
                best = min(peers.values())
                cells.append(
                    f"{fmt(x['min'][imp])} / {fmt(best)} "
                    f"({x['ratio'][imp]:.2f}; {x['rounds'][imp]:.2f})"
                )
            label = name if imp == "pqkit" else f"{name} {imp.removeprefix('pqkit ')}"
            print(f"| {label} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv[1:])
