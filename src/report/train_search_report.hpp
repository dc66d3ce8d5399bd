// `train --search` for people and scripts: how many layouts divide and fit, the best estimates of
// the closed-form network with their simulated step where refined, and the fastest layout's full
// step report (report/train_report).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "training/search.hpp"

namespace gf {

std::string search_text(const SearchResult& r, const std::string& cluster, const std::string& network_model);
nlohmann::ordered_json search_json(const SearchResult& r, const std::string& cluster,
                                   const std::string& network_model);

}  // namespace gf
