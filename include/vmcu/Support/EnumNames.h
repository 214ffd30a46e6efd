//===- EnumNames.h - the names of an option's enum values -------*- C++ -*-===//
//
// One table per enum option (its values, their names and their help), from
// which the option parsers, the checks and the messages all read.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_SUPPORT_ENUMNAMES_H
#define VMCU_SUPPORT_ENUMNAMES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/ErrorHandling.h"

#include <optional>
#include <string>

namespace mlir::vmcu {

/// A value of an enum option: its name on the command line and its help.
template <typename E> struct EnumName {
  E value;
  llvm::StringLiteral name;
  llvm::StringLiteral help;
};

/// The name of `value` in `table`.
template <typename E, size_t N>
llvm::StringRef nameOf(const EnumName<E> (&table)[N], E value) {
  for (const EnumName<E> &entry : table)
    if (entry.value == value)
      return entry.name;
  llvm_unreachable("value missing from its name table");
}

/// The value named `name` in `table`, if any.
template <typename E, size_t N>
std::optional<E> parseName(const EnumName<E> (&table)[N],
                           llvm::StringRef name) {
  for (const EnumName<E> &entry : table)
    if (entry.name == name)
      return entry.value;
  return std::nullopt;
}

/// "a, b or c", for messages.
template <typename E, size_t N>
std::string nameList(const EnumName<E> (&table)[N]) {
  std::string list;
  for (size_t i = 0; i < N; ++i) {
    if (i > 0)
      list += i + 1 == N ? " or " : ", ";
    list += table[i].name.str();
  }
  return list;
}

} // namespace mlir::vmcu

#endif // VMCU_SUPPORT_ENUMNAMES_H
