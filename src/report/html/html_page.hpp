// The frame every HTML report shares: one self-contained file (styles and the one script inline,
// charts as inline SVG, nothing fetched when it is viewed), a header with the command line and
// version, and the page's self-check.
//
// The Content-Security-Policy forbids every fetch (default-src 'none') and lets only the page's own
// script run (its SHA-256 hash is listed, CSP level 2), so even a string that escaped escaping
// could not run script. The self-check script counts each chart's marks against the number the
// writer declared, looks for script elements and on* attributes the writer never writes, and
// counts dialogs opened; it writes the verdict into #selfcheck (data-ok="1" when clean), which
// the browser test reads with --dump-dom.
#pragma once

#include <string>
#include <vector>

namespace gf::html {

// Who made the report: the command (as an equivalent command line) and the program's version.
struct ReportMeta {
  std::string command_line;
  std::string version;
};

// A heading and its HTML body (already escaped where it holds user text).
struct Section {
  std::string id;     // [a-z0-9-]
  std::string title;  // plain text (escaped when written)
  std::string body;   // HTML
};

// The inline script and its CSP hash ('sha256-...' value, base64).
const std::string& selfcheck_script();
const std::string& selfcheck_script_hash();

// A two-column table of (name, value) facts, both plain text (escaped here).
std::string facts_table(const std::vector<std::pair<std::string, std::string>>& facts);

// The whole document. `title` is plain text.
std::string page(const std::string& title, const ReportMeta& meta, const std::vector<Section>& sections);

}  // namespace gf::html
