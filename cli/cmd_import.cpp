// gpufabric import FORMAT FILE [--gpu G] [--pcie T] [--nic-tech T] [--nvlink T] [--nodes N] [--fabric K]
//                  [-o OUT [--force]]
// A server described by the machine itself (`nvidia-smi topo -m`, NCCL topology XML) as a cluster
// YAML file every other command takes, headed by what the format left out and what was assumed.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <gpufabric/gpufabric.hpp>

#include "commands.hpp"

namespace gfcli {

namespace {

struct ImportCli {
  std::string format, file, output;
  gf::ImportOptions opt;
  int64_t nodes = 0;
  CLI::Option* nodes_opt = nullptr;
  std::string fabric;
  bool force = false;
};

// rocm-smi --showtopo text goes through the nvidia-smi importer (same matrix form).
const std::vector<std::string> kFormats = {"nvidia-smi", "nccl-xml", "rocm-smi"};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in || std::filesystem::is_directory(path))
    throw gf::InputError({}, "FILE", "'" + path + "' cannot be read", "give the path of the saved tool output");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The comment block above the YAML: where it came from, what was assumed, what is missing.
std::string header(const ImportCli& o, const gf::ImportedServer& imp) {
  std::string h = "# gpufabric import " + o.format + " " + o.file + "\n";
  h += "# " + imp.server.description + "\n";
  if (!imp.assumed.empty()) {
    h += "# Assumed, because the file (" + imp.format + ") does not say (change with the option shown, or edit below):\n";
    for (const auto& a : imp.assumed)
      h += "#   " + a.what + " = " + a.value + "  [" + a.override_with + "]  -- " + a.why + "\n";
  }
  if (!imp.not_recovered.empty()) {
    h += "# Not recovered from the file:\n";
    for (const auto& n : imp.not_recovered) h += "#   " + n + "\n";
  }
  return h;
}

int run_import(const ImportCli& o) {
  if (std::find(kFormats.begin(), kFormats.end(), o.format) == kFormats.end())
    throw gf::InputError({}, "FORMAT", "unknown format '" + o.format + "'", gf::suggest(o.format, kFormats));
  if (o.nodes_opt->count() > 0 && o.nodes < 1) throw gf::InputError({}, "--nodes", "must be at least 1", "e.g. --nodes 4");
  const std::string text = read_file(o.file);
  const gf::TopologyFormat want = o.format == "nccl-xml" ? gf::TopologyFormat::NcclXml : gf::TopologyFormat::NvidiaSmi;
  const gf::TopologyFormat found = gf::detect_topology_format(text);
  if (found != want && found != gf::TopologyFormat::Yaml)
    throw gf::InputError({o.file, 0, 0}, "FORMAT",
                         "the file holds " + std::string(found == gf::TopologyFormat::NcclXml ? "NCCL topology XML" : "nvidia-smi/rocm-smi text") +
                             ", not " + o.format + " output",
                         "gpufabric import " + gf::import_format_word(found) + " " + o.file);
  // A file of neither kind goes to the importer asked for, which says what it expected.
  gf::ImportedServer imp = want == gf::TopologyFormat::NcclXml ? gf::import_nccl_xml(text, o.file, o.opt)
                                                               : gf::import_nvidia_smi(text, o.file, o.opt);
  gf::ClusterSpec spec = gf::imported_cluster(imp, o.file, want);
  if (o.nodes_opt->count() > 0) spec.servers = o.nodes;
  if (!o.fabric.empty()) {
    spec.fabric.kind = o.fabric;
    spec.fabric.where = {"--fabric", 0, 0};
    gf::find_fabric(o.fabric, spec.fabric.where);  // checked even for one server, which builds no fabric
  }
  gf::count_cluster(spec);  // a bad --fabric or --nodes fails here, before anything is written
  const std::string out = header(o, imp) + gf::cluster_to_yaml(spec);
  if (o.output.empty()) {
    std::cout << out;
    return 0;
  }
  if (std::filesystem::exists(o.output) && !o.force)
    throw gf::InputError({}, "-o", "'" + o.output + "' exists and was not overwritten", "add --force to replace it, or pick another name");
  std::ofstream f(o.output, std::ios::binary | std::ios::trunc);
  if (!(f << out) || !f.flush()) throw gf::InputError({}, "-o", "cannot write '" + o.output + "'", "check the folder exists and is writable");
  std::cout << "wrote " << o.output << ": " << imp.server.count(gf::NodeKind::Gpu) << " GPUs, "
            << imp.server.count(gf::NodeKind::Nic) << " NICs; " << imp.assumed.size() << " assumed figure(s) and "
            << imp.not_recovered.size() << " gap(s) listed at its top\n";
  return 0;
}

}  // namespace

Command add_import(CLI::App& root) {
  auto o = std::make_shared<ImportCli>();
  CLI::App* sub = root.add_subcommand(
      "import", "Turn a server's own topology output (nvidia-smi topo -m, NCCL topology XML) into cluster YAML");
  sub->add_option("format", o->format, "nvidia-smi (`nvidia-smi topo -m` or -mp text; rocm-smi --showtopo too), "
                                       "nccl-xml (NCCL_TOPO_FILE / NCCL_TOPO_DUMP_FILE) or rocm-smi")
      ->required();
  sub->add_option("file", o->file, "The saved output")->required();
  sub->add_option("--gpu", o->opt.gpu, "GPU model or built-in server whose GPU to take (default: from the links)");
  sub->add_option("--pcie", o->opt.pcie, "PCIe technology, e.g. pcie-gen4-x16 (gpufabric list links)");
  sub->add_option("--nic-tech", o->opt.nic_tech, "NIC port technology, e.g. ib-ndr, roce-400g");
  sub->add_option("--nvlink", o->opt.nvlink, "NVLink (or xGMI) technology, e.g. nvlink4, nvlink5");
  o->nodes_opt = sub->add_option("--nodes", o->nodes, "Servers in the cluster (default 1)");
  sub->add_option("--fabric", o->fabric, "Scale-out fabric kind (default: the server's usual one)");
  sub->add_option("-o,--output", o->output, "Write the YAML to this file instead of printing it");
  sub->add_flag("--force", o->force, "Replace the -o file if it exists");
  return {sub, [o] { return run_import(*o); }};
}

}  // namespace gfcli
