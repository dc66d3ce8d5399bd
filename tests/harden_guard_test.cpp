// The command line's last handler (cli/guard.hpp): whatever a command throws ends as a message in
// the `gpufabric: error:` form and a status, 2 for bad input and 3 for a fault of gpufabric, so
// that no input can end in an abort (status 134, what an uncaught exception gives).
#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>

#include "../cli/guard.hpp"

namespace {

int run(const std::function<int()>& body, std::string& err) {
  std::ostringstream out;
  int status = gfcli::run_guarded(body, out);
  err = out.str();
  return status;
}

TEST(CliGuard, PassesTheCommandsStatusThrough) {
  std::string err;
  EXPECT_EQ(run([] { return 1; }, err), 1);
  EXPECT_EQ(err, "");
}

TEST(CliGuard, InputErrorIsBadInput) {
  std::string err;
  EXPECT_EQ(run([]() -> int { throw gf::InputError({"c.yaml", 3, 1}, "fabric", "bad", "fix it"); }, err), 2);
  EXPECT_EQ(err, "gpufabric: error: c.yaml:3:1: 'fabric': bad\n  hint: fix it\n");
}

TEST(CliGuard, AnyOtherExceptionIsAnInternalErrorNotAnAbort) {
  std::string err;
  EXPECT_EQ(run([]() -> int { throw std::runtime_error("no route"); }, err), 3);
  EXPECT_EQ(err.rfind("gpufabric: error: internal error: no route\n  hint: ", 0), 0u) << err;
  EXPECT_NE(err.find("report"), std::string::npos);
  EXPECT_EQ(run([]() -> int { throw std::bad_alloc(); }, err), 3);
  EXPECT_EQ(err.rfind("gpufabric: error: out of memory\n  hint: ", 0), 0u) << err;
  EXPECT_EQ(run([]() -> int { throw 42; }, err), 3);
  EXPECT_EQ(err.rfind("gpufabric: error: internal error: ", 0), 0u) << err;
}

}  // namespace
