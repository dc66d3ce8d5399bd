"""The Python module against the command line: the same inputs give the same data.

Run by ctest (python/CMakeLists.txt) with PYTHONPATH at the built package and GPUFABRIC at the
CLI binary built beside it. Every expected value comes from the CLI's own `--format json` run in
the test, never from numbers copied here.
"""

import copy
import json
import os
import subprocess
import tempfile
import threading
import time
import unittest

import gpufabric

CLI = os.environ.get("GPUFABRIC")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def cli_json(*args):
    out = subprocess.run([CLI, *args, "--format", "json"], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def cli_error(*args):
    out = subprocess.run([CLI, *args], capture_output=True, text=True)
    assert out.returncode == 2, (out.returncode, out.stderr)
    return out.stderr


def flatten(row, prefix=""):
    # pandas.json_normalize's naming, written out here so the test does not lean on the module's.
    out = {}
    for k, v in row.items():
        if isinstance(v, dict):
            out.update(flatten(v, prefix + k + "."))
        else:
            out[prefix + k] = v
    return out


# A cluster as a dict (the keys of docs/cluster-yaml.md): four DGX H100 on a 4:1 leaf-spine of
# 16-port switches, so that the servers sit under different leaves and rings cross the spine.
CLUSTER = {
    "name": "py-leafspine-4to1",
    "server": "dgx-h100",
    "servers": 4,
    "fabric": {"kind": "leaf_spine", "link": "ib-ndr", "switch_radix": 16, "oversubscription": 4},
}


@unittest.skipUnless(CLI, "GPUFABRIC (the CLI binary) is not set; ctest sets it")
class SameAsTheCommandLine(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, text):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def assert_perf_equal(self, table, doc):
        self.assertEqual(list(table), [flatten(r) for r in doc["results"]])
        self.assertEqual(table.meta, {k: v for k, v in doc.items() if k != "results"})

    def test_perf_on_a_preset(self):
        t = gpufabric.perf("all_reduce", cluster="dgx-h100-2node", minbytes="1M", maxbytes="4M", stepfactor=2)
        self.assertEqual(len(t), 3)  # 1M, 2M, 4M
        self.assert_perf_equal(t, cli_json("perf", "all_reduce", "--cluster", "dgx-h100-2node",
                                           "-b", "1M", "-e", "4M", "-f", "2"))

    def test_perf_with_options(self):
        t = gpufabric.perf("all_gather", "dgx-h100", nodes=2, gpus_per_node=4, minbytes=1 << 20,
                           maxbytes=3 << 20, stepbytes="1M", algo="ring", proto="simple", model="analytical",
                           datatype="half", env={"NCCL_MAX_NCHANNELS": "4"})
        self.assertEqual([r["size"] for r in t], [1 << 20, 2 << 20, 3 << 20])
        self.assert_perf_equal(t, cli_json("perf", "all_gather", "--cluster", "dgx-h100", "--nodes", "2",
                                           "--gpus-per-node", "4", "-b", "1M", "-e", "3M", "-i", "1M",
                                           "--algo", "ring", "--proto", "simple", "--model", "analytical",
                                           "-d", "half", "--env", "NCCL_MAX_NCHANNELS=4"))

    def test_nccl_ib_hca_picks_nics_as_on_the_command_line(self):
        # NCCL_IB_HCA acts where the cluster is loaded: the same rows and `# nccl:` lines as the CLI,
        # and slower than with every NIC (one NIC left out of eight per server).
        t = gpufabric.perf("all_reduce", "dgx-h100", nodes=2, minbytes="1G", maxbytes="1G", algo="ring",
                           proto="simple", env={"NCCL_IB_HCA": "^=mlx5_1"})
        self.assert_perf_equal(t, cli_json("perf", "all_reduce", "--cluster", "dgx-h100", "--nodes", "2", "-b", "1G",
                                           "-e", "1G", "--algo", "ring", "--proto", "simple",
                                           "--env", "NCCL_IB_HCA=^=mlx5_1"))
        every = gpufabric.perf("all_reduce", "dgx-h100", nodes=2, minbytes="1G", maxbytes="1G", algo="ring",
                               proto="simple")
        self.assertLess(t[0]["out_of_place.bus_bw"], every[0]["out_of_place.bus_bw"])

    def test_perf_on_a_dict_equals_the_file(self):
        path = self.write("cluster.yaml", gpufabric.cluster_yaml(CLUSTER))
        t = gpufabric.perf("all_reduce", cluster=CLUSTER, minbytes="64M", maxbytes="64M")
        self.assertEqual(t.meta["config"]["cluster"], "py-leafspine-4to1")
        self.assert_perf_equal(t, cli_json("perf", "all_reduce", "--cluster", path, "-b", "64M", "-e", "64M"))

    def test_oversubscription_in_the_dict_is_used(self):
        # Same dict but 1:1: a quarter of the uplinks is gone at 4:1, so a ring crossing the spine
        # must be slower there (a check that the dict's key reaches the fabric, not a number).
        full = dict(CLUSTER, fabric=dict(CLUSTER["fabric"], oversubscription=1))
        a = gpufabric.perf("all_reduce", cluster=full, minbytes="256M", maxbytes="256M", algo="ring")
        b = gpufabric.perf("all_reduce", cluster=CLUSTER, minbytes="256M", maxbytes="256M", algo="ring")
        self.assertGreater(a[0]["out_of_place.bus_bw"], b[0]["out_of_place.bus_bw"])

    def test_sweep_equals_perf_set(self):
        # The same grid through the CLI's --set: rows equal, in the same order, on 2 threads.
        t = gpufabric.sweep("all_reduce", "dgx-h100", grid={"servers": [1, 2], "algo": ["ring", "tree"]},
                            threads=2, minbytes="1M", maxbytes="4M", stepfactor=4)
        doc = cli_json("perf", "all_reduce", "--cluster", "dgx-h100", "--set", "servers=1,2", "--set", "algo=ring,tree",
                       "-b", "1M", "-e", "4M", "-f", "4")
        self.assertEqual(len(t), 2 * 2 * 2)  # 2 servers x 2 algorithms x sizes 1M, 4M
        self.assertEqual(list(t), doc["rows"])
        self.assertEqual(t.meta, doc["sweep"])

    def test_sweep_zip_and_bad_key(self):
        t = gpufabric.sweep("all_reduce", "dgx-h100", zip={"servers": [1, 2], "algo": ["ring", "tree"]},
                            minbytes="1M", maxbytes="1M")
        self.assertEqual([(r["servers"], r["algorithm"]) for r in t], [(1, "ring"), (2, "tree")])
        with self.assertRaises(gpufabric.InputError) as e:
            gpufabric.sweep("all_reduce", "dgx-h100", grid={"fabric.oversubscriptoin": [1, 2]})
        self.assertIn("oversubscription", str(e.exception))  # the did-you-mean
        with self.assertRaises(gpufabric.InputError) as e:
            gpufabric.sweep("all_reduce", CLUSTER, grid={"servers": [2]})
        self.assertEqual(e.exception.key, "cluster")

    def test_topo(self):
        self.assertEqual(gpufabric.topo("dgx-h100", nodes=4, fabric="leaf_spine"),
                         cli_json("topo", "dgx-h100", "--nodes", "4", "--fabric", "leaf_spine"))
        path = self.write("cluster.yaml", gpufabric.cluster_yaml(CLUSTER))

        def from_file(*flags):
            doc = cli_json("topo", path, *flags)
            self.assertEqual(doc["source"], path)  # a cluster without `source:` is said to come from
            doc["source"] = "<dict>"               # where it was read, for a dict "<dict>"
            return doc

        self.assertEqual(gpufabric.topo(CLUSTER), from_file())
        # Keyword overrides on a dict: as the flags on its file, and the caller's dict untouched.
        before = copy.deepcopy(CLUSTER)
        self.assertEqual(gpufabric.topo(CLUSTER, nodes=8, fabric="rail_optimized"),
                         from_file("--nodes", "8", "--fabric", "rail_optimized"))
        self.assertEqual(CLUSTER, before)

    def test_run_a_scenario_file_and_dict(self):
        cluster = self.write("cluster.yaml", gpufabric.cluster_yaml(CLUSTER))
        scenario = {
            "name": "py-two-jobs",
            "cluster": cluster,
            "model": "flow",
            "jobs": [
                {"name": "a", "servers": [0, 2], "calls": [{"collective": "all_reduce", "size": "64M", "algo": "ring"}]},
                {"name": "b", "servers": [1, 3], "calls": [{"collective": "all_reduce", "size": "64M", "algo": "ring"}]},
            ],
        }
        path = self.write("scenario.yaml", gpufabric.cluster_yaml(scenario))
        expected = cli_json("run", path, "--top", "3")
        self.assertEqual(gpufabric.run(path, top=3), expected)
        expected["scenario"]["file"] = "<dict>"  # the report names where the scenario came from
        self.assertEqual(gpufabric.run(scenario, top=3), expected)


@unittest.skipUnless(CLI, "GPUFABRIC (the CLI binary) is not set; ctest sets it")
class Errors(unittest.TestCase):
    def test_a_bad_dict_key_is_named(self):
        bad = {"name": "t", "server": "dgx-h100", "servers": 2,
               "fabric": {"kind": "leaf_spine", "oversubscripton": 2}}
        with self.assertRaises(gpufabric.InputError) as cm:
            gpufabric.perf("all_reduce", cluster=bad)
        e = cm.exception
        self.assertIsInstance(e, ValueError)
        self.assertEqual(e.key, "fabric.oversubscripton")
        self.assertEqual(e.file, "<dict>")
        self.assertIn("oversubscription", e.hint)  # the did-you-mean
        # The line counts in the YAML the dict is loaded as.
        line = gpufabric.cluster_yaml(bad).splitlines()[e.line - 1]
        self.assertIn("oversubscripton", line)
        # The same text as the command line's for the same YAML in a file, but for the file's name.
        with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
            f.write(gpufabric.cluster_yaml(bad))
        try:
            err = cli_error("perf", "all_reduce", "--cluster", f.name)
        finally:
            os.unlink(f.name)
        self.assertEqual("gpufabric: error: " + str(e).replace("<dict>", f.name) + "\n", err)

    def test_a_bad_argument_names_the_keyword(self):
        with self.assertRaises(gpufabric.InputError) as cm:
            gpufabric.perf("all_reduce", minbytes="1X")
        self.assertEqual(cm.exception.key, "minbytes")
        self.assertIsNone(cm.exception.file)
        with self.assertRaises(gpufabric.InputError) as cm:
            gpufabric.perf("all_reduse")
        self.assertEqual(cm.exception.key, "collective")
        self.assertIn("all_reduce", cm.exception.hint)
        with self.assertRaises(gpufabric.InputError) as cm:
            gpufabric.perf("all_reduce", cluster="dgx-h100", nodes=0)
        self.assertEqual(cm.exception.key, "nodes")

    def test_an_unknown_preset(self):
        with self.assertRaises(gpufabric.InputError) as cm:
            gpufabric.topo("dgx-h10")
        self.assertEqual(cm.exception.key, "cluster")
        self.assertIn("did you mean", cm.exception.hint)

    def test_a_value_that_is_not_yaml_data(self):
        with self.assertRaises(TypeError):
            gpufabric.perf("all_reduce", cluster={"server": object()})


@unittest.skipUnless(CLI, "GPUFABRIC (the CLI binary) is not set; ctest sets it")
class Threads(unittest.TestCase):
    # About a CPU-second of simulation (8 DGX H100, 64M..256M): long beside a thread switch (5 ms).
    ARGS = dict(cluster="dgx-h100", nodes=8, minbytes="64M", maxbytes="256M", stepfactor=2)

    def test_the_gil_is_released_during_a_simulation(self):
        # While another thread simulates, this one keeps running Python. Were the GIL held for the
        # whole call, this loop would stall for the call's length; the longest gap between its
        # turns must instead be a small part of the call.
        t0 = time.perf_counter()
        alone = gpufabric.perf("all_reduce", **self.ARGS)
        call = time.perf_counter() - t0
        result = {}
        worker = threading.Thread(target=lambda: result.update(t=gpufabric.perf("all_reduce", **self.ARGS)))
        last, longest = time.perf_counter(), 0.0
        worker.start()
        while worker.is_alive():
            now = time.perf_counter()
            longest = max(longest, now - last)
            last = now
            time.sleep(0.001)
        worker.join()
        self.assertEqual(list(result["t"]), list(alone))
        self.assertLess(longest, call / 2, f"main thread stalled {longest:.3f} s of a {call:.3f} s call")

    def test_two_threads_at_once_give_the_results_of_one_after_another(self):
        a = gpufabric.perf("all_reduce", **self.ARGS)
        b = gpufabric.perf("reduce_scatter", **self.ARGS)
        out = {}
        threads = [threading.Thread(target=lambda k=k: out.update({k: gpufabric.perf(k, **self.ARGS)}))
                   for k in ("all_reduce", "reduce_scatter")]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(list(out["all_reduce"]), list(a))
        self.assertEqual(list(out["reduce_scatter"]), list(b))


if __name__ == "__main__":
    unittest.main()
