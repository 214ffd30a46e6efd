//===- Semihosting.cpp - ARM semihosting host for vmcu-prof ---------------===//
//
// Operation numbers, parameter blocks and results follow "Semihosting for
// AArch32 and AArch64" (ARM IHI 0045) as QEMU 7.2 implements them
// (semihosting/arm-compat-semi.c), which is what vmcu-run's QEMU gives the
// harness.
//
//===----------------------------------------------------------------------===//

#include "Semihosting.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <iterator>

namespace vmcu::prof {
namespace {

enum : uint32_t {
  SYS_OPEN = 0x01,
  SYS_CLOSE = 0x02,
  SYS_WRITEC = 0x03,
  SYS_WRITE0 = 0x04,
  SYS_WRITE = 0x05,
  SYS_READ = 0x06,
  SYS_ISTTY = 0x09,
  SYS_SEEK = 0x0A,
  SYS_FLEN = 0x0C,
  SYS_ERRNO = 0x13,
  SYS_GET_CMDLINE = 0x15,
  SYS_EXIT = 0x18,
  SYS_EXIT_EXTENDED = 0x20,
};

/// The "normal exit" reason of SYS_EXIT / SYS_EXIT_EXTENDED.
constexpr uint32_t kAdpStoppedApplicationExit = 0x20026;
/// SYS_OPEN modes 0-3 are fopen's "r", "rb", "r+", "r+b"; 4-7 "w".."w+b";
/// 8-11 "a".."a+b".
constexpr uint32_t kFirstWriteMode = 4;
constexpr uint32_t kLastMode = 11;
/// The console's special file name.
constexpr const char *kConsoleName = ":tt";
/// Longest string SYS_WRITE0 / SYS_OPEN read from the guest.
constexpr size_t kMaxGuestString = 1 << 16;
/// Largest SYS_READ / SYS_WRITE transfer accepted: more than the board's
/// memory, so only a corrupt length reaches it.
constexpr uint32_t kMaxTransfer = 1u << 26;
/// What a failed call returns in r0.
constexpr uint32_t kFailure = static_cast<uint32_t>(-1);

} // namespace

Semihosting::Semihosting(std::string commandLine, std::string inputName,
                         std::vector<char> input, std::string outputName)
    : commandLine(std::move(commandLine)), inputName(std::move(inputName)),
      outputName(std::move(outputName)), inputBytes(std::move(input)) {}

Semihosting::Outcome Semihosting::badAddress(const char *what,
                                             uint32_t address) {
  char buf[128];
  std::snprintf(buf, sizeof(buf), "semihosting %s at 0x%08x is not in memory",
                what, address);
  errorMessage = buf;
  return Outcome::Error;
}

bool Semihosting::readWords(uc_engine *uc, uint32_t address, uint32_t *words,
                            unsigned count) {
  if (uc_mem_read(uc, address, words, count * sizeof(uint32_t)) == UC_ERR_OK)
    return true;
  badAddress("parameter block", address);
  return false;
}

bool Semihosting::readString(uc_engine *uc, uint32_t address,
                             std::string &out) {
  out.clear();
  for (size_t i = 0; i < kMaxGuestString; ++i) {
    char c;
    if (uc_mem_read(uc, address + i, &c, 1) != UC_ERR_OK) {
      badAddress("string", address);
      return false;
    }
    if (c == '\0')
      return true;
    out.push_back(c);
  }
  errorMessage = "semihosting string longer than 64 KiB";
  return false;
}

Semihosting::Handle *Semihosting::lookup(uint32_t fd) {
  // Handles are 1-based indices into `handles`.
  if (fd == 0 || fd > handles.size() || !handles[fd - 1].open)
    return nullptr;
  return &handles[fd - 1];
}

Semihosting::Outcome Semihosting::fail(int hostErrno, uint32_t &result) {
  lastErrno = hostErrno;
  result = kFailure;
  return Outcome::Continue;
}

Semihosting::Outcome
Semihosting::withHandle(uc_engine *uc, uint32_t arg, uint32_t *block,
                        unsigned count, uint32_t &result,
                        llvm::function_ref<Outcome(Handle &)> body) {
  if (!readWords(uc, arg, block, count))
    return Outcome::Error;
  Handle *handle = lookup(block[0]);
  if (!handle)
    return fail(EBADF, result);
  return body(*handle);
}

Semihosting::Outcome
Semihosting::withHandle(uc_engine *uc, uint32_t arg, uint32_t &result,
                        llvm::function_ref<Outcome(Handle &)> body) {
  uint32_t block[1]; // handle
  return withHandle(uc, arg, block, std::size(block), result, body);
}

Semihosting::Outcome Semihosting::call(uc_engine *uc, uint32_t op, uint32_t arg,
                                       uint32_t &result) {
  switch (op) {
  case SYS_OPEN:
    return sysOpen(uc, arg, result);
  case SYS_CLOSE:
    return sysClose(uc, arg, result);
  case SYS_WRITEC:
    return sysWriteC(uc, arg, result);
  case SYS_WRITE0:
    return sysWrite0(uc, arg, result);
  case SYS_WRITE:
  case SYS_READ:
    return sysWriteOrRead(uc, op, arg, result);
  case SYS_ISTTY:
    return sysIsTty(uc, arg, result);
  case SYS_SEEK:
    return sysSeek(uc, arg, result);
  case SYS_FLEN:
    return sysFlen(uc, arg, result);
  case SYS_ERRNO:
    result = static_cast<uint32_t>(lastErrno);
    return Outcome::Continue;
  case SYS_GET_CMDLINE:
    return sysGetCmdline(uc, arg, result);
  case SYS_EXIT:
    // AArch32: r1 is the reason itself; only a normal application exit
    // is status 0 (QEMU).
    status = arg == kAdpStoppedApplicationExit ? 0 : 1;
    return Outcome::Exit;
  case SYS_EXIT_EXTENDED:
    return sysExitExtended(uc, arg);
  default:
    return unsupported(op);
  }
}

Semihosting::Outcome Semihosting::sysOpen(uc_engine *uc, uint32_t arg,
                                          uint32_t &result) {
  uint32_t block[3]; // path, mode, path length
  if (!readWords(uc, arg, block, std::size(block)))
    return Outcome::Error;
  std::string path;
  if (!readString(uc, block[0], path))
    return Outcome::Error;
  uint32_t mode = block[1];
  if (mode > kLastMode)
    return fail(EINVAL, result);
  bool writing = mode >= kFirstWriteMode;
  FileKind kind;
  if (path == kConsoleName) {
    kind = FileKind::Console;
  } else if (path == inputName && !writing) {
    kind = FileKind::Input;
  } else if (path == outputName && writing) {
    kind = FileKind::Output;
    outputOpened = true;
    outputBytes.clear();
  } else {
    return fail(ENOENT, result);
  }
  handles.push_back(Handle{kind});
  result = static_cast<uint32_t>(handles.size());
  return Outcome::Continue;
}

Semihosting::Outcome Semihosting::sysClose(uc_engine *uc, uint32_t arg,
                                           uint32_t &result) {
  return withHandle(uc, arg, result, [&](Handle &handle) {
    handle.open = false;
    result = 0;
    return Outcome::Continue;
  });
}

Semihosting::Outcome Semihosting::sysWriteC(uc_engine *uc, uint32_t arg,
                                            uint32_t &result) {
  char c;
  if (uc_mem_read(uc, arg, &c, 1) != UC_ERR_OK)
    return badAddress("character", arg);
  consoleText.push_back(c);
  result = 0;
  return Outcome::Continue;
}

Semihosting::Outcome Semihosting::sysWrite0(uc_engine *uc, uint32_t arg,
                                            uint32_t &result) {
  std::string text;
  if (!readString(uc, arg, text))
    return Outcome::Error;
  consoleText += text;
  result = 0;
  return Outcome::Continue;
}

Semihosting::Outcome Semihosting::sysWriteOrRead(uc_engine *uc, uint32_t op,
                                                 uint32_t arg,
                                                 uint32_t &result) {
  uint32_t block[3]; // handle, buffer, length
  return withHandle(
      uc, arg, block, std::size(block), result, [&](Handle &handle) {
        uint32_t address = block[1], length = block[2];
        if (length > kMaxTransfer)
          return badAddress(op == SYS_WRITE ? "SYS_WRITE buffer"
                                            : "SYS_READ buffer",
                            address);
        if (op == SYS_WRITE)
          return writeToHandle(uc, handle, address, length, result);
        return readFromHandle(uc, handle, address, length, result);
      });
}

Semihosting::Outcome Semihosting::writeToHandle(uc_engine *uc, Handle &handle,
                                                uint32_t address,
                                                uint32_t length,
                                                uint32_t &result) {
  std::vector<char> data(length);
  if (length && uc_mem_read(uc, address, data.data(), length) != UC_ERR_OK)
    return badAddress("SYS_WRITE buffer", address);
  if (handle.kind == FileKind::Console) {
    consoleText.append(data.begin(), data.end());
  } else if (handle.kind == FileKind::Output) {
    if (outputBytes.size() < handle.position + length)
      outputBytes.resize(handle.position + length);
    std::copy(data.begin(), data.end(), outputBytes.begin() + handle.position);
    handle.position += length;
  } else {
    result = length; // nothing written: the input is read-only
    lastErrno = EBADF;
    return Outcome::Continue;
  }
  result = 0; // SYS_WRITE returns the number of bytes NOT written
  return Outcome::Continue;
}

Semihosting::Outcome Semihosting::readFromHandle(uc_engine *uc, Handle &handle,
                                                 uint32_t address,
                                                 uint32_t length,
                                                 uint32_t &result) {
  // SYS_READ returns the number of bytes NOT read; the console has no
  // input (stdin is never the model's).
  const std::vector<char> *source = handle.kind == FileKind::Input ? &inputBytes
                                    : handle.kind == FileKind::Output
                                        ? &outputBytes
                                        : nullptr;
  uint64_t available = source && handle.position < source->size()
                           ? source->size() - handle.position
                           : 0;
  uint32_t count = static_cast<uint32_t>(std::min<uint64_t>(available, length));
  if (count && uc_mem_write(uc, address, source->data() + handle.position,
                            count) != UC_ERR_OK)
    return badAddress("SYS_READ buffer", address);
  handle.position += count;
  result = length - count;
  return Outcome::Continue;
}

Semihosting::Outcome Semihosting::sysIsTty(uc_engine *uc, uint32_t arg,
                                           uint32_t &result) {
  return withHandle(uc, arg, result, [&](Handle &handle) {
    result = handle.kind == FileKind::Console ? 1 : 0;
    return Outcome::Continue;
  });
}

Semihosting::Outcome Semihosting::sysSeek(uc_engine *uc, uint32_t arg,
                                          uint32_t &result) {
  uint32_t block[2]; // handle, position
  return withHandle(uc, arg, block, std::size(block), result,
                    [&](Handle &handle) {
                      if (handle.kind == FileKind::Console)
                        return fail(EBADF, result);
                      handle.position = block[1];
                      result = 0;
                      return Outcome::Continue;
                    });
}

Semihosting::Outcome Semihosting::sysFlen(uc_engine *uc, uint32_t arg,
                                          uint32_t &result) {
  return withHandle(uc, arg, result, [&](Handle &handle) {
    if (handle.kind == FileKind::Console)
      return fail(EBADF, result);
    result = static_cast<uint32_t>(handle.kind == FileKind::Input
                                       ? inputBytes.size()
                                       : outputBytes.size());
    return Outcome::Continue;
  });
}

Semihosting::Outcome Semihosting::sysGetCmdline(uc_engine *uc, uint32_t arg,
                                                uint32_t &result) {
  uint32_t block[2]; // buffer, its size (in) / the line's length (out)
  if (!readWords(uc, arg, block, std::size(block)))
    return Outcome::Error;
  // Fails if the line and its NUL do not fit; else sets the length word.
  if (commandLine.size() + 1 > block[1]) {
    result = kFailure;
    return Outcome::Continue;
  }
  if (uc_mem_write(uc, block[0], commandLine.c_str(), commandLine.size() + 1) !=
      UC_ERR_OK)
    return badAddress("SYS_GET_CMDLINE buffer", block[0]);
  uint32_t length = static_cast<uint32_t>(commandLine.size());
  if (uc_mem_write(uc, arg + sizeof(uint32_t), &length, sizeof(length)) !=
      UC_ERR_OK)
    return badAddress("parameter block", arg);
  result = 0;
  return Outcome::Continue;
}

Semihosting::Outcome Semihosting::sysExitExtended(uc_engine *uc, uint32_t arg) {
  uint32_t block[2]; // reason, subcode (the exit status)
  if (!readWords(uc, arg, block, std::size(block)))
    return Outcome::Error;
  status =
      block[0] == kAdpStoppedApplicationExit ? static_cast<int>(block[1]) : 1;
  return Outcome::Exit;
}

Semihosting::Outcome Semihosting::unsupported(uint32_t op) {
  char buf[96];
  std::snprintf(buf, sizeof(buf), "unsupported semihosting operation 0x%02x",
                op);
  errorMessage = buf;
  return Outcome::Error;
}

} // namespace vmcu::prof
