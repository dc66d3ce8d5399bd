// Cluster and scenario files that are valid YAML but not what gpufabric reads: a list or mapping
// as a key (yaml-cpp aborted converting it), a key given twice (yaml-cpp kept the first silently),
// a second document after `---` (ignored), and bytes that are not UTF-8 (aborted the JSON writer).
// Each is an InputError naming the file and line.
#include <gtest/gtest.h>

#include "config/cluster_yaml.hpp"
#include "core/utf8.hpp"
#include "workload/scenario_yaml.hpp"

using namespace gf;

namespace {

template <class F>
InputError error_of(F&& parse) {
  try {
    parse();
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "expected an InputError";
  return InputError({}, "", "");
}

InputError cluster_error(const std::string& text) {
  return error_of([&] { parse_cluster_yaml(text, "c.yaml"); });
}
InputError scenario_error(const std::string& text) {
  return error_of([&] { parse_scenario_yaml(text, "s.yaml", "."); });
}

TEST(HardenYaml, ListAsKeyIsAnErrorAtItsLine) {
  InputError nested = cluster_error("name: x\nserver: dgx-h100\nfabric: {? [kind] : leaf_spine}\n");
  EXPECT_EQ(nested.where().line, 3);
  EXPECT_EQ(nested.key(), "fabric");
  EXPECT_NE(nested.message().find("plain name"), std::string::npos) << nested.what();
  InputError top = cluster_error("? [name]\n: x\nserver: dgx-h100\n");
  EXPECT_EQ(top.where().line, 1);
  InputError call = scenario_error(
      "cluster: dgx-h100-2node\njobs:\n  - name: a\n    servers: 0\n    calls:\n      - {? {collective: x} : all_reduce, size: 1M}\n");
  EXPECT_EQ(call.where().line, 6);
  EXPECT_EQ(call.key(), "jobs[0].calls[0]");
}

TEST(HardenYaml, DuplicateKeyNamesBothLines) {
  InputError e = cluster_error("name: x\nserver: dgx-h100\nservers: 2\nservers: 4\n");
  EXPECT_EQ(e.where().line, 4);
  EXPECT_EQ(e.key(), "servers");
  EXPECT_NE(e.message().find("line 3 and at line 4"), std::string::npos) << e.what();
  InputError nested = cluster_error("name: x\nserver: dgx-h100\nfabric:\n  kind: leaf_spine\n  kind: full_mesh\n");
  EXPECT_EQ(nested.key(), "fabric.kind");
  InputError sc = scenario_error("cluster: dgx-h100-2node\njobs:\n  - name: a\n    name: b\n    calls: []\n");
  EXPECT_EQ(sc.key(), "jobs[0].name");
  EXPECT_EQ(sc.where().line, 4);
}

TEST(HardenYaml, SecondDocumentIsRefused) {
  InputError e = cluster_error("name: x\nserver: dgx-h100\n---\nname: y\nserver: dgx-a100\n");
  EXPECT_EQ(e.where().line, 3);
  EXPECT_NE(e.message().find("second YAML document"), std::string::npos) << e.what();
  // An empty second document is still a second document (a stray `---` at the end).
  EXPECT_NE(cluster_error("name: x\nserver: dgx-h100\n---\n").message().find("second"), std::string::npos);
  EXPECT_NE(scenario_error("cluster: dgx-h100-2node\n---\njobs: []\n").message().find("second"), std::string::npos);
  // One document with its start marker is fine.
  EXPECT_EQ(parse_cluster_yaml("---\nname: x\nserver: dgx-h100\n", "c.yaml").name, "x");
}

TEST(HardenYaml, NonUtf8IsRefusedAtItsLine) {
  // "café" as Latin-1 writes é as the single byte 0xE9, which UTF-8 never has alone.
  InputError e = cluster_error("name: ok\nserver: dgx-h100\ndescription: caf\xE9\n");
  EXPECT_EQ(e.where().line, 3);
  EXPECT_EQ(e.where().column, 17);  // d-e-s-c-r-i-p-t-i-o-n-:-space = 13 characters, then c, a, f
  EXPECT_NE(e.message().find("0xE9"), std::string::npos) << e.what();
  // The same name in UTF-8 (0xC3 0xA9) loads.
  EXPECT_EQ(parse_cluster_yaml("name: caf\xC3\xA9\nserver: dgx-h100\n", "c.yaml").name, "caf\xC3\xA9");
}

TEST(HardenYaml, UnclosedQuoteIsNamedNotAMissingKey) {
  // yaml-cpp reads `"x` to the end of the file, so `server:` below became part of the name.
  InputError d = cluster_error("name: \"x\nserver: dgx-h100\nservers: 2\n");
  EXPECT_EQ(d.where().line, 1);
  EXPECT_EQ(d.where().column, 7);  // n-a-m-e-:-space, then the quote
  EXPECT_NE(d.message().find("double quote that never closes"), std::string::npos) << d.what();
  InputError q = cluster_error("name: 'x\nserver: dgx-h100\n");
  EXPECT_NE(q.message().find("single quote that never closes"), std::string::npos) << q.what();
  // Closed quotes, escaped quotes and '' inside single quotes are fine.
  EXPECT_EQ(parse_cluster_yaml("name: \"a \\\" b\"\nserver: dgx-h100\n", "c.yaml").name, "a \" b");
  EXPECT_EQ(parse_cluster_yaml("name: 'it''s'\nserver: dgx-h100\n", "c.yaml").name, "it's");
}

TEST(HardenYaml, FuzzerFoundLoopsAreGone) {
  // A first line starting with `,`: yaml-cpp 0.7's LoadAll made empty documents from it forever
  // (found by fuzz_cluster_yaml, kept in fuzz/regressions/). Now an error at that line.
  InputError e = cluster_error(",# a comment\nname: x\nserver: dgx-h100\n");
  EXPECT_EQ(e.where().line, 1);
  EXPECT_NE(e.message().find("malformed YAML"), std::string::npos) << e.what();
  // A comment-only file is still empty.
  EXPECT_NE(cluster_error("# nothing\n\n").message().find("the file is empty"), std::string::npos);
}

TEST(HardenYaml, Utf8ValidatorFollowsTheUnicodeTable) {
  const size_t ok = std::string_view::npos;
  EXPECT_EQ(first_invalid_utf8("plain ascii"), ok);
  EXPECT_EQ(first_invalid_utf8("\xCE\xBCs \xE2\x82\xAC \xF0\x9F\x98\x80"), ok);  // µ, €, an emoji
  EXPECT_EQ(first_invalid_utf8("a\xC0\xAF"), 1u);      // overlong '/'
  EXPECT_EQ(first_invalid_utf8("ab\xED\xA0\x80"), 2u);  // a UTF-16 surrogate
  EXPECT_EQ(first_invalid_utf8("\xF4\x90\x80\x80"), 0u);  // past U+10FFFF
  EXPECT_EQ(first_invalid_utf8("x\xE2\x82"), 1u);      // cut short at the end
  EXPECT_EQ(first_invalid_utf8("\x80"), 0u);            // a continuation byte alone
}

}  // namespace
