"""gpufabric from Python: the simulator's commands as functions returning plain data.

    import gpufabric, pandas
    rows = gpufabric.perf("all_reduce", cluster="dgx-h100-2node", minbytes="8", maxbytes="8G", stepfactor=2)
    df = pandas.DataFrame(rows)          # one row per size; rows.meta holds the rest of the report

A cluster is a preset or server name (gpufabric.presets()), a cluster YAML file, or a dict with
the cluster YAML's keys (docs/cluster-yaml.md). Bad input raises gpufabric.InputError, a
ValueError whose message, file, line, key and hint are those the command line prints. The
simulations run without the GIL, so threads may run several at once. docs/python.md has the rest.
"""

from ._gpufabric import InputError, cluster_yaml, presets
from . import _gpufabric as _core

__all__ = ["InputError", "Table", "perf", "sweep", "topo", "run", "presets", "cluster_yaml"]


class Table(list):
    """A list of rows (dicts), ready for pandas.DataFrame; `meta` is the rest of the report."""

    def __init__(self, rows=(), meta=None):
        super().__init__(rows)
        self.meta = {} if meta is None else meta


def _flatten(row, prefix=""):
    # Nested objects become dotted columns ("out_of_place.bus_bw"), as pandas.json_normalize names them.
    out = {}
    for key, value in row.items():
        name = prefix + key
        if isinstance(value, dict):
            out.update(_flatten(value, name + "."))
        else:
            out[name] = value
    return out


def perf(collective, cluster=None, **options):
    """An nccl-tests sweep, simulated: `gpufabric perf COLLECTIVE --format json`, as a Table.

    One row per size with the JSON's `results` fields, nested ones dotted ("out_of_place.bus_bw",
    GB/s; "out_of_place.time", us); `meta` holds `config`, `nccl` and `notes`. Keyword options,
    as the command's flags: minbytes, maxbytes (int or text such as '8G'), stepfactor, stepbytes,
    nodes, gpus_per_node, op, datatype, root, algo, proto, model, routing, seed, fabric,
    fabric_link, and env (a dict of NCCL_* settings, applied after the process environment's).
    """
    doc = _core.perf(collective, cluster, **options)
    rows = doc.pop("results")
    return Table([_flatten(r) for r in rows], doc)


def sweep(collective, cluster=None, grid=None, zip=None, threads=1, **options):
    """A parameter sweep, `gpufabric perf COLLECTIVE --set KEY=V1,V2 ... -j N --format json`, as a Table.

    grid: {key: [values]}, every combination, the first key varying slowest; zip: {key: [values]},
    lists of equal length advancing together (crossed with grid). Keys are cluster YAML key paths
    (servers, fabric.oversubscription, fabric.link, ...) or algo, proto, model, routing, seed and
    NCCL_* (docs/sweeps.md). One row per (point, size), with a column per swept key; the rows are
    in grid order however many `threads` ran them. `meta` holds the sweep's title and keys. The
    cluster is a preset, server name or file (a dict: sweep its keys instead). Other keyword
    options as for perf().
    """
    doc = _core.sweep(collective, cluster, grid=grid, zip=zip, threads=threads, **options)
    return Table(doc["rows"], doc["sweep"])


def topo(cluster=None, **options):
    """The cluster's summary, `gpufabric topo CLUSTER --format json`, as a dict.

    Keyword options: nodes, fabric, fabric_link.
    """
    return _core.topo(cluster, **options)


def run(scenario, **options):
    """A scenario file or dict (docs/scenarios.md) run: `gpufabric run SCENARIO --format json`, as a dict.

    Keyword options: model, routing (override the scenario's), top (links listed, default 10).
    """
    return _core.run(scenario, **options)
