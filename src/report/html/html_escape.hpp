// Text made safe for HTML and SVG: every string that reaches a report from a user's file (cluster
// names, descriptions, paths, the command line) goes through here, so a cluster named
// `<script>alert(1)</script>` is shown as those characters and never parsed as markup.
#pragma once

#include <string>
#include <string_view>

namespace gf::html {

// Escapes & < > " ' (the five characters HTML's parser treats specially in text and in quoted
// attribute values; OWASP's XSS prevention cheat sheet, rule 1 and 2). Valid in element text and
// in double- or single-quoted attributes.
std::string escape(std::string_view text);

}  // namespace gf::html
