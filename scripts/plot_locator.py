#!/usr/bin/env python3
"""Growth curves of the locator through a real broker (docs/performance.md, "The locator through
mosquitto"): reads a beacon2mqtt-bench results file with section locator-broker and writes a PNG.

    scripts/plot_locator.py bench/results/latest.json docs/images/locator-growth.png

Needs matplotlib (`make locator-plot` installs it into .build/plot-venv from PyPI)."""
import json
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def behind(beacons, result):
    """Every beacon is located once and 5 % move every 20 s: fewer locations than that, and the
    locator did not keep up."""
    return result["locations"] < beacons * 1.05


def main(results_path, png_path):
    with open(results_path) as f:
        results = json.load(f)
    rows = []
    for r in results["results"]:
        if r["section"] != "locator-broker" or "shards" in r["name"]:
            continue  # the sharded run is compared in the table, not drawn as a site
        m = re.match(r"(\d+) gateways × (\d+) beacons", r["name"])
        if m:
            rows.append((int(m.group(1)), int(m.group(2)), r))
    if not rows:
        sys.exit("no locator-broker results in " + results_path)
    fig, axes = plt.subplots(1, 3, figsize=(13, 4))
    panels = [
        ("messages_per_s", "messages in per CPU second of locate", "msg/s/core", None),
        ("latency_p99_ms", "decision latency p99 (arrival − tick)", "ms", 1050),
        ("bytes_per_beacon", "anonymous memory per tracked beacon", "bytes", None),
    ]
    for ax, (key, title, unit, target) in zip(axes, panels):
        for gateways in sorted({g for g, _, _ in rows}):
            points = sorted((b, r[key], behind(b, r)) for g, b, r in rows if g == gateways)
            line, = ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=f"{gateways} gateways")
            # A locator that fell behind (fewer locations than the moves make) read less than was
            # published: its point counts messages published, not read.
            late = [p for p in points if p[2]]
            if late:
                ax.plot([p[0] for p in late], [p[1] for p in late], "x", markersize=12, color=line.get_color())
        if any(behind(b, r) for _, b, r in rows):
            ax.plot([], [], "kx", label="fell behind (not all moves decided)")
        if target:
            ax.axhline(target, color="red", linestyle="--", linewidth=1, label="target (settle + 50 ms)")
        ax.set_xscale("log")
        ax.set_xlabel("beacons (each heard by 3 gateways, 1 msg/s each)")
        ax.set_ylabel(unit)
        ax.set_title(title, fontsize=10)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle(f"beacon2mqtt locate through mosquitto — {results['machine']}, {results['started']}", fontsize=10)
    fig.tight_layout()
    fig.savefig(png_path, dpi=110)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
