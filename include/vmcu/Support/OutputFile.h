//===- OutputFile.h - write a tool's output file ----------------*- C++ -*-===//

#ifndef VMCU_SUPPORT_OUTPUTFILE_H
#define VMCU_SUPPORT_OUTPUTFILE_H

#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::vmcu {

/// Writes through `print` to `path` ("-" is stdout) and keeps the file;
/// a file that cannot be opened or written is reported through `report`
/// (the tool's `error:` line) and removed.
inline LogicalResult writeOutputFile(StringRef path,
                                     function_ref<void(raw_ostream &)> print,
                                     function_ref<void(const Twine &)> report) {
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(path, &error);
  if (!file) {
    report(error);
    return failure();
  }
  print(file->os());
  file->os().flush();
  if (file->os().has_error()) {
    report("cannot write '" + path + "'");
    file->os().clear_error();
    return failure();
  }
  file->keep();
  return success();
}

} // namespace mlir::vmcu

#endif // VMCU_SUPPORT_OUTPUTFILE_H
