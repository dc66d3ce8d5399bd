#include "workload/param_result.hpp"

#include <nlohmann/json.hpp>

#include "core/protocol.hpp"

namespace gf {

// nlohmann writes a double in the shortest form that reads back to the same bits, so a decoded
// row is the row that was encoded.
std::string encode_param_results(const std::vector<ParamPointResult>& results, const std::optional<ParamPointError>& error) {
  nlohmann::json points = nlohmann::json::array();
  for (size_t i = 0; i < results.size(); ++i) {
    const ParamPointResult& r = results[i];
    if (!r.ran) continue;
    nlohmann::json rows = nlohmann::json::array();
    for (const SweepRow& w : r.rows)
      rows.push_back({w.size.count(), w.count, w.time.picoseconds(), w.algbw_gBps, w.busbw_gBps, w.choice.algorithm,
                      to_string(w.choice.proto), w.choice.channels, w.choice.predicted.picoseconds(), w.choice.note});
    points.push_back({{"point", i}, {"nranks", r.nranks}, {"nnodes", r.nnodes}, {"ppn", r.ppn}, {"rows", rows}});
  }
  nlohmann::json j = {{"points", points}};
  if (error)
    j["error"] = {{"point", error->point}, {"file", error->where.file}, {"line", error->where.line},
                  {"column", error->where.column}, {"key", error->key}, {"message", error->message},
                  {"hint", error->hint}, {"input", error->input}};
  return j.dump();
}

std::optional<ParamPointError> decode_param_results(const std::string& text, std::vector<ParamPointResult>& results) {
  const nlohmann::json j = nlohmann::json::parse(text);
  for (const auto& p : j.at("points")) {
    ParamPointResult& r = results.at(p.at("point").get<size_t>());
    r.ran = true;
    r.nranks = p.at("nranks").get<int64_t>();
    r.nnodes = p.at("nnodes").get<int64_t>();
    r.ppn = p.at("ppn").get<int64_t>();
    r.rows.clear();
    for (const auto& w : p.at("rows")) {
      SweepRow row;
      row.size = Bytes(w.at(0).get<int64_t>());
      row.count = w.at(1).get<int64_t>();
      row.time = Time::ps(w.at(2).get<int64_t>());
      row.algbw_gBps = w.at(3).get<double>();
      row.busbw_gBps = w.at(4).get<double>();
      row.choice.algorithm = w.at(5).get<std::string>();
      row.choice.proto = *parse_protocol(w.at(6).get<std::string>());
      row.choice.channels = w.at(7).get<int>();
      row.choice.predicted = Time::ps(w.at(8).get<int64_t>());
      row.choice.note = w.at(9).get<std::string>();
      r.rows.push_back(std::move(row));
    }
  }
  if (!j.contains("error")) return std::nullopt;
  const auto& e = j.at("error");
  ParamPointError err;
  err.point = e.at("point").get<size_t>();
  err.where = {e.at("file").get<std::string>(), e.at("line").get<int>(), e.at("column").get<int>()};
  err.key = e.at("key").get<std::string>();
  err.message = e.at("message").get<std::string>();
  err.hint = e.at("hint").get<std::string>();
  err.input = e.at("input").get<bool>();
  return err;
}

}  // namespace gf
