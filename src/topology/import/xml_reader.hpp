// A small XML reader for the subset NCCL writes and reads as its topology file (NVIDIA/nccl
// src/graph/xml.cc: elements, attributes, self-closing tags, no text content). It also takes an
// optional `<?xml ...?>` prolog, `<!-- -->` comments (NCCL's own reader has none, but hand-edited
// files may) and attribute values in single or double quotes with the five predefined entities.
// Every element and attribute keeps its line so importers can point at the place a figure came
// from; anything malformed (unclosed or mismatched tag, bad attribute, text, truncated file) throws
// InputError naming the file and line. No DTDs, namespaces or CDATA: NCCL's files have none.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gf {

struct XmlAttr {
  std::string name;
  std::string value;  // entities decoded
  int line = 0;       // 1-based line of the attribute's name
};

struct XmlElement {
  std::string name;
  int line = 0;  // 1-based line of the opening '<'
  std::vector<XmlAttr> attrs;
  std::vector<XmlElement> children;

  // The attribute of that name, or nullptr when the element has none.
  const XmlAttr* attr(std::string_view attr_name) const;
};

// The document's single root element. `file` names the source in errors.
XmlElement read_xml(std::string_view text, const std::string& file);

}  // namespace gf
