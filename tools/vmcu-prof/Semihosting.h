//===- Semihosting.h - ARM semihosting host for vmcu-prof -------*- C++ -*-===//
//
// The host side of the ARM semihosting calls vmcu's runtime makes
// (runtime/vmcu_runtime.c: BKPT 0xAB with the operation in r0 and the
// argument or parameter block in r1), with the results QEMU 7.2's
// semihosting/arm-compat-semi.c gives, so the harness runs unchanged.
//
// The guest sees no host file system. Its command line names two files,
// the model's input and output, which live in memory: the input is read
// from --input before the run and the output is written to --output after
// it. Any other path fails to open, as a missing file would. ":tt" is the
// console.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_TOOLS_VMCU_PROF_SEMIHOSTING_H
#define VMCU_TOOLS_VMCU_PROF_SEMIHOSTING_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <unicorn/unicorn.h>

#include <cstdint>
#include <string>
#include <vector>

namespace vmcu::prof {

class Semihosting {
public:
  /// `commandLine` is what SYS_GET_CMDLINE returns; a guest SYS_OPEN of
  /// `inputName` reads `input`, one of `outputName` writes output().
  Semihosting(std::string commandLine, std::string inputName,
              std::vector<char> input, std::string outputName);

  enum class Outcome {
    Continue, ///< the call returned; r0 holds its result
    Exit,     ///< SYS_EXIT / SYS_EXIT_EXTENDED: see exitStatus()
    Error,    ///< unsupported call or bad guest pointer: see error()
  };

  /// Performs operation `op` with argument `arg` (r0, r1 at the BKPT) on
  /// the guest `uc`; on Continue, `result` is the value for r0.
  Outcome call(uc_engine *uc, uint32_t op, uint32_t arg, uint32_t &result);

  int exitStatus() const { return status; }
  const std::string &error() const { return errorMessage; }
  /// Everything the guest printed (SYS_WRITE0, SYS_WRITEC, SYS_WRITE to
  /// ":tt").
  const std::string &console() const { return consoleText; }
  /// Whether the guest opened the output file, and what it wrote.
  bool outputWritten() const { return outputOpened; }
  const std::vector<char> &output() const { return outputBytes; }

private:
  enum class FileKind { Console, Input, Output };
  struct Handle {
    FileKind kind;
    uint64_t position = 0;
    bool open = true;
  };

  // One per operation (SYS_WRITE and SYS_READ share sysWriteOrRead);
  // `arg` is r1 at the BKPT, `result` the value for r0 on Continue.
  Outcome sysOpen(uc_engine *uc, uint32_t arg, uint32_t &result);
  Outcome sysClose(uc_engine *uc, uint32_t arg, uint32_t &result);
  Outcome sysWriteC(uc_engine *uc, uint32_t arg, uint32_t &result);
  Outcome sysWrite0(uc_engine *uc, uint32_t arg, uint32_t &result);
  Outcome sysWriteOrRead(uc_engine *uc, uint32_t op, uint32_t arg,
                         uint32_t &result);
  Outcome sysIsTty(uc_engine *uc, uint32_t arg, uint32_t &result);
  Outcome sysSeek(uc_engine *uc, uint32_t arg, uint32_t &result);
  Outcome sysFlen(uc_engine *uc, uint32_t arg, uint32_t &result);
  Outcome sysGetCmdline(uc_engine *uc, uint32_t arg, uint32_t &result);
  Outcome sysExitExtended(uc_engine *uc, uint32_t arg);
  Outcome unsupported(uint32_t op);
  /// SYS_WRITE of the guest's `length` bytes at `address` to `handle`.
  Outcome writeToHandle(uc_engine *uc, Handle &handle, uint32_t address,
                        uint32_t length, uint32_t &result);
  /// SYS_READ of up to `length` bytes from `handle` to the guest's
  /// `address`.
  Outcome readFromHandle(uc_engine *uc, Handle &handle, uint32_t address,
                         uint32_t length, uint32_t &result);

  Outcome badAddress(const char *what, uint32_t address);
  bool readWords(uc_engine *uc, uint32_t address, uint32_t *words,
                 unsigned count);
  bool readString(uc_engine *uc, uint32_t address, std::string &out);
  Handle *lookup(uint32_t fd);
  /// For a call whose parameter block (`count` words at `arg`, read into
  /// `block`) starts with a handle: runs `body` on the handle if it is
  /// open, else fails the call with EBADF (Error if the block is not in
  /// memory).
  Outcome withHandle(uc_engine *uc, uint32_t arg, uint32_t *block,
                     unsigned count, uint32_t &result,
                     llvm::function_ref<Outcome(Handle &)> body);
  /// withHandle() for a parameter block that is the handle alone.
  Outcome withHandle(uc_engine *uc, uint32_t arg, uint32_t &result,
                     llvm::function_ref<Outcome(Handle &)> body);
  /// Fails the call: `result` is kFailure and SYS_ERRNO will return
  /// `hostErrno`.
  Outcome fail(int hostErrno, uint32_t &result);

  std::string commandLine, inputName, outputName;
  std::vector<char> inputBytes, outputBytes;
  bool outputOpened = false;
  std::vector<Handle> handles;
  std::string consoleText;
  std::string errorMessage;
  int status = 0;
  int lastErrno = 0;
};

} // namespace vmcu::prof

#endif // VMCU_TOOLS_VMCU_PROF_SEMIHOSTING_H
