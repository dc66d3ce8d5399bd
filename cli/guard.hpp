// The last line of defence of the command line: every exception that leaves a command becomes a
// message in the one error form and an exit status, never an abort (exit 134). Header-only so the
// unit tests can drive it with thrown exceptions of every kind.
#pragma once

#include <exception>
#include <functional>
#include <new>
#include <ostream>

#include <gpufabric/gpufabric.hpp>

namespace gfcli {

// Exit statuses: 0 ok, 1 findings (doctor), 2 bad input, 3 a fault of gpufabric itself.
constexpr int kBadInput = 2;
constexpr int kInternalError = 3;

inline int run_guarded(const std::function<int()>& body, std::ostream& err) {
  try {
    return body();
  } catch (const gf::InputError& e) {
    err << "gpufabric: error: " << e.what() << "\n";
    return kBadInput;
  } catch (const std::bad_alloc&) {
    err << "gpufabric: error: out of memory\n  hint: the run needs more memory than this machine has; "
           "docs/limits.md lists what each size costs\n";
    return kInternalError;
  } catch (const std::exception& e) {
    err << "gpufabric: error: internal error: " << e.what()
        << "\n  hint: this is a fault of gpufabric, not of your input; please report it with the command line "
           "and the input files\n";
    return kInternalError;
  } catch (...) {
    err << "gpufabric: error: internal error: an exception of unknown type\n  hint: this is a fault of gpufabric, "
           "not of your input; please report it with the command line and the input files\n";
    return kInternalError;
  }
}

}  // namespace gfcli
