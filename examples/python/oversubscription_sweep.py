"""What does an oversubscribed spine cost all-reduce? A notebook-style what-if in plain Python.

Four DGX H100 servers on a two-tier leaf-spine of NDR InfiniBand (16-port switches, so the servers
sit under different leaves), the leaves' uplinks oversubscribed 1:1 to 4:1; for each, an nccl-tests all-reduce sweep (ring, so every byte crosses the spine), plotted as
bus bandwidth against message size. Each design point is a dict with the cluster YAML's keys
(docs/cluster-yaml.md), so no file is written.

    PYTHONPATH=build/python python3 examples/python/oversubscription_sweep.py --out busbw.png

Runs headless (matplotlib's Agg backend) and writes a PNG; prints the table it plotted.
"""

import argparse
import sys

import gpufabric


def design(oversubscription):
    return {
        "name": f"dgx-h100-x4-leafspine-{oversubscription}to1",
        "server": "dgx-h100",
        "servers": 4,
        "fabric": {"kind": "leaf_spine", "link": "ib-ndr", "switch_radix": 16, "oversubscription": oversubscription},
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="oversubscription_sweep.png", help="PNG to write")
    parser.add_argument("--maxbytes", default="1G", help="largest size (default 1G)")
    args = parser.parse_args()

    rows, built = [], {}
    for ratio in (1, 2, 3, 4):
        # Whole switch ports: the ratio built is the nearest a 16-port leaf allows (topo says which).
        built[ratio] = gpufabric.topo(design(ratio))["fabric"]["tiers"][0]["oversubscription"]
        table = gpufabric.perf("all_reduce", cluster=design(ratio), minbytes="1M", maxbytes=args.maxbytes,
                               stepfactor=4, algo="ring")
        rows += [dict(row, oversubscription=ratio) for row in table]

    print(f"{'asked':>6} {'built':>6} {'size':>12} {'busbw GB/s':>11}")
    for r in rows:
        ratio = r["oversubscription"]
        print(f"{ratio:>4}:1 {built[ratio]:>4.2f}:1 {r['size']:>12} {r['out_of_place.bus_bw']:>11.2f}")

    try:
        import matplotlib
    except ImportError:
        print("matplotlib is not installed (Debian: python3-matplotlib; scripts/setup.sh installs it)", file=sys.stderr)
        return 77  # ctest's "skipped"
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for ratio in (1, 2, 3, 4):
        mine = [r for r in rows if r["oversubscription"] == ratio]
        ax.plot([r["size"] for r in mine], [r["out_of_place.bus_bw"] for r in mine], marker="o", label=f"{built[ratio]:.2g}:1")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("message size (bytes)")
    ax.set_ylabel("all-reduce bus bandwidth (GB/s)")
    ax.set_title("4x DGX H100, NDR leaf-spine, ring all-reduce (simulated)")
    ax.legend(title="leaf uplink oversubscription")
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(args.out, dpi=100)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
