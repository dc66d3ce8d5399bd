// Where the project's shared validation data lives (../shared beside the repository, as CI lays it
// out; GPUFABRIC_SHARED_DIR in the environment overrides). Tests that read it skip, saying why,
// on a checkout that has no shared/ beside it.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

inline std::string shared_dir() {
  if (const char* env = std::getenv("GPUFABRIC_SHARED_DIR")) return env;
  return GPUFABRIC_SHARED_DIR;
}

#define REQUIRE_SHARED_DATA()                                                                  \
  do {                                                                                         \
    if (!std::filesystem::exists(shared_dir() + "/validation"))                                \
      GTEST_SKIP() << "no shared data at " << shared_dir() << " (set GPUFABRIC_SHARED_DIR)";   \
  } while (0)
