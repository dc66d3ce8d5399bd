#include "topology/import/xml_reader.hpp"

#include <cctype>

#include "core/error.hpp"

namespace gf {

const XmlAttr* XmlElement::attr(std::string_view attr_name) const {
  for (const auto& a : attrs)
    if (a.name == attr_name) return &a;
  return nullptr;
}

namespace {

// Deeper nesting than any real topology (NCCL's PCI trees are a handful of levels) is refused
// rather than recursed into, so a garbled file cannot exhaust the stack.
constexpr int kMaxDepth = 64;
// The hint of every syntax error: NCCL writes well-formed XML, so a break in it is damage.
constexpr const char* kNotNcclXml = "NCCL writes this file whole: check it was not edited or cut short";

bool name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == ':'; }
bool name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':' || c == '-' || c == '.';
}
bool space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// A character as an error message shows it.
std::string shown(char c) {
  if (c == '\n') return "end of line";
  if (std::isprint(static_cast<unsigned char>(c))) return std::string("'") + c + "'";
  return "byte " + std::to_string(static_cast<unsigned char>(c));
}

class Reader {
 public:
  Reader(std::string_view text, const std::string& file) : s_(text), file_(file) {}

  XmlElement document() {
    skip_misc(true);
    if (at_end()) fail("xml", "the file holds no XML element", "an NCCL topology file starts with <system version=\"1\">");
    if (peek() != '<') fail("xml", "text before the first element: " + shown(peek()), kNotNcclXml);
    XmlElement root = element(0);
    skip_misc(false);
    if (!at_end()) {
      if (peek() == '<')
        fail("xml", "a second top-level element after </" + root.name + "> (line " + std::to_string(root.line) + ")",
             "an XML file has one root element; NCCL's is <system>");
      fail("xml", "text after the root element: " + shown(peek()), kNotNcclXml);
    }
    return root;
  }

 private:
  bool at_end() const { return pos_ >= s_.size(); }
  char peek() const { return s_[pos_]; }
  bool starts(std::string_view w) const { return s_.substr(pos_, w.size()) == w; }
  void advance() {
    if (s_[pos_] == '\n') {
      ++line_;
      line_start_ = pos_ + 1;
    }
    ++pos_;
  }
  void skip_space() {
    while (!at_end() && space(peek())) advance();
  }
  SourceLocation here() const { return {file_, line_, static_cast<int>(pos_ - line_start_) + 1}; }
  [[noreturn]] void fail(const std::string& key, const std::string& msg, const std::string& hint) const {
    throw InputError(here(), key, msg, hint);
  }
  // Where the file ends inside `what` (an element, comment or tag opened at `line`).
  [[noreturn]] void truncated(const std::string& key, const std::string& what, int line) const {
    throw InputError(here(), key, "the file ends inside " + what + " opened at line " + std::to_string(line),
                     "the file looks truncated; dump it again (NCCL_TOPO_DUMP_FILE) or close the element");
  }

  // Whitespace, comments and (before the root) a prolog or other processing instructions.
  void skip_misc(bool prolog_allowed) {
    for (;;) {
      skip_space();
      if (starts("<!--")) {
        comment();
      } else if (starts("<?")) {
        if (!prolog_allowed) fail("xml", "a processing instruction <?...?> after the root element", kNotNcclXml);
        int open = line_;
        while (!at_end() && !starts("?>")) advance();
        if (at_end()) truncated("xml", "the <?...?> declaration", open);
        advance(), advance();
      } else {
        return;
      }
    }
  }
  void comment() {
    int open = line_;
    for (int i = 0; i < 4; ++i) advance();
    while (!at_end() && !starts("-->")) advance();
    if (at_end()) truncated("xml", "a <!-- comment", open);
    for (int i = 0; i < 3; ++i) advance();
  }

  std::string name(const std::string& key, const std::string& what) {
    if (at_end()) fail(key, "the file ends where " + what + " was expected", "the file looks truncated");
    if (!name_start(peek())) fail(key, "expected " + what + ", found " + shown(peek()), kNotNcclXml);
    size_t b = pos_;
    while (!at_end() && name_char(peek())) advance();
    return std::string(s_.substr(b, pos_ - b));
  }

  std::string value(const std::string& key, int open_line) {
    if (at_end()) truncated(key, "the attribute", open_line);
    char q = peek();
    if (q != '"' && q != '\'')
      fail(key, "attribute value must be in quotes, found " + shown(q), "write " + key + "=\"...\"");
    advance();
    std::string out;
    while (!at_end() && peek() != q) {
      char c = peek();
      if (c == '<') fail(key, "'<' inside an attribute value (a missing closing quote?)", "close the value with " + shown(q));
      if (c == '&') {
        out += entity(key);
        continue;
      }
      out += c;
      advance();
    }
    if (at_end()) truncated(key, "the attribute value", open_line);
    advance();
    return out;
  }

  char entity(const std::string& key) {
    static const std::pair<std::string_view, char> kEntities[] = {
        {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}};
    for (const auto& [text, c] : kEntities) {
      if (starts(text)) {
        for (size_t i = 0; i < text.size(); ++i) advance();
        return c;
      }
    }
    fail(key, "unknown entity in attribute value", "write & as &amp;");
  }

  XmlElement element(int depth) {
    XmlElement e;
    e.line = line_;
    advance();  // '<'
    e.name = name("xml", "an element name after '<'");
    if (depth >= kMaxDepth)
      fail(e.name, "elements nested deeper than " + std::to_string(kMaxDepth) + " levels", "the file is not an NCCL topology");
    // Attributes up to '>' or '/>'.
    for (;;) {
      bool spaced = !at_end() && space(peek());
      skip_space();
      if (at_end()) truncated(e.name, "the tag <" + e.name + ">", e.line);
      if (peek() == '>' || peek() == '/') break;
      if (!spaced) fail(e.name, "expected a space, '>' or '/>' after <" + e.name + "..., found " + shown(peek()), kNotNcclXml);
      XmlAttr a;
      a.line = line_;
      a.name = name(e.name, "an attribute name, '>' or '/>'");
      if (e.attr(a.name)) fail(a.name, "attribute given twice in <" + e.name + ">", "keep one");
      skip_space();
      if (at_end()) truncated(e.name, "the tag <" + e.name + ">", e.line);
      if (peek() != '=') fail(a.name, "expected '=' after the attribute name, found " + shown(peek()), "write " + a.name + "=\"...\"");
      advance();
      skip_space();
      a.value = value(a.name, e.line);
      e.attrs.push_back(std::move(a));
    }
    if (peek() == '/') {
      advance();
      if (at_end()) truncated(e.name, "the tag <" + e.name + ">", e.line);
      if (peek() != '>') fail(e.name, "expected '>' after '/', found " + shown(peek()), kNotNcclXml);
      advance();
      return e;
    }
    advance();  // '>'
    // Children up to the matching end tag.
    for (;;) {
      skip_space();
      if (at_end()) truncated(e.name, "<" + e.name + ">", e.line);
      if (starts("<!--")) {
        comment();
      } else if (starts("</")) {
        advance(), advance();
        std::string closing = name(e.name, "an element name after '</'");
        if (closing != e.name)
          fail(closing, "</" + closing + "> closes <" + e.name + "> opened at line " + std::to_string(e.line),
               "end <" + e.name + "> with </" + e.name + ">");
        skip_space();
        if (at_end()) truncated(e.name, "the end tag </" + e.name + ">", e.line);
        if (peek() != '>') fail(e.name, "expected '>' to end </" + e.name + ", found " + shown(peek()), kNotNcclXml);
        advance();
        return e;
      } else if (peek() == '<') {
        if (starts("<?") || starts("<!"))
          fail(e.name, "declarations <?...> and <!...> are only allowed before the root element", kNotNcclXml);
        e.children.push_back(element(depth + 1));
      } else {
        fail(e.name, "text inside <" + e.name + ">: " + shown(peek()),
             "NCCL topology files hold only elements and attributes");
      }
    }
  }

  std::string_view s_;
  const std::string& file_;
  size_t pos_ = 0;
  size_t line_start_ = 0;
  int line_ = 1;
};

}  // namespace

XmlElement read_xml(std::string_view text, const std::string& file) { return Reader(text, file).document(); }

}  // namespace gf
