// The congestion-control schemes' own settings (DcqcnParams, IbCcParams, TcpParams, ...), one
// value per settings type, so that PacketParams carries a scheme's settings without naming the
// scheme: adding a scheme adds its settings type in its own file and nothing here. Each scheme
// reads and writes its block through get<ItsParams>() (congestion_control.hpp); a block never set
// reads as its type's default member initializers, where each default's source is written.
// A copy is deep (std::any copies its value), so PacketParams keeps value semantics.
#pragma once

#include <any>
#include <map>
#include <typeindex>
#include <typeinfo>

namespace gf {

class CcSettings {
 public:
  // The block of type T, created with T's defaults on first use.
  template <class T>
  T& get() {
    auto [it, fresh] = blocks_.try_emplace(std::type_index(typeid(T)));
    if (fresh) it->second = T{};
    return *std::any_cast<T>(&it->second);
  }
  // The block of type T, or T's defaults when it was never set.
  template <class T>
  const T& get() const {
    const auto it = blocks_.find(std::type_index(typeid(T)));
    if (it != blocks_.end()) return *std::any_cast<T>(&it->second);
    static const T kDefaults{};  // immutable: the type's defaults, not simulation state
    return kDefaults;
  }

 private:
  std::map<std::type_index, std::any> blocks_;
};

}  // namespace gf
