//===- ElfImage.cpp - what vmcu-prof reads from the ELF -------------------===//
//
// Reads the load segments and symbols of an ARM ELF executable with
// llvm::object, and the model's constants from its load segments (what the
// loaded flash holds).
//
//===----------------------------------------------------------------------===//

#include "ElfImage.h"

#include "llvm/ADT/Twine.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/ELF.h"
#include "llvm/Support/Error.h"

#include <algorithm>
#include <cstring>

using llvm::StringRef;
using llvm::Twine;

namespace vmcu::prof {

std::optional<std::string> readImage(StringRef path, StringRef contents,
                                     Image &image) {
  using ELFT = llvm::object::ELF32LE;
  auto notArm = [&](const Twine &why) {
    return ("'" + path + "' is not a 32-bit ARM ELF executable: " + why).str();
  };
  if (contents.size() < llvm::ELF::EI_NIDENT ||
      !contents.starts_with(llvm::ELF::ElfMagic))
    return notArm("no ELF header");
  if (contents[llvm::ELF::EI_CLASS] != llvm::ELF::ELFCLASS32 ||
      contents[llvm::ELF::EI_DATA] != llvm::ELF::ELFDATA2LSB)
    return notArm("not ELF32 little-endian");
  llvm::Expected<llvm::object::ELFFile<ELFT>> file =
      llvm::object::ELFFile<ELFT>::create(contents);
  if (!file)
    return notArm(llvm::toString(file.takeError()));
  const auto &header = file->getHeader();
  if (header.e_machine != llvm::ELF::EM_ARM)
    return notArm("machine is not EM_ARM");
  if (header.e_type != llvm::ELF::ET_EXEC)
    return notArm("not an executable (link it with vmcu-run --keep-temps)");

  auto phdrs = file->program_headers();
  if (!phdrs)
    return notArm(llvm::toString(phdrs.takeError()));
  bool haveCode = false;
  for (const auto &phdr : *phdrs) {
    if (phdr.p_type != llvm::ELF::PT_LOAD || phdr.p_memsz == 0)
      continue;
    if (phdr.p_offset + phdr.p_filesz > contents.size() ||
        phdr.p_filesz > phdr.p_memsz)
      return notArm("a load segment lies outside the file");
    // Loaded at its physical (load) address, as QEMU's -kernel does.
    image.segments.push_back({static_cast<uint32_t>(phdr.p_paddr),
                              static_cast<uint32_t>(phdr.p_filesz),
                              static_cast<uint32_t>(phdr.p_memsz),
                              contents.substr(phdr.p_offset, phdr.p_filesz)});
    if (phdr.p_flags & llvm::ELF::PF_X) {
      uint32_t low = phdr.p_paddr, high = phdr.p_paddr + phdr.p_filesz;
      image.codeLow = haveCode ? std::min(image.codeLow, low) : low;
      image.codeHigh = haveCode ? std::max(image.codeHigh, high) : high;
      haveCode = true;
    }
  }
  if (!haveCode)
    return notArm("no executable load segment");

  auto sections = file->sections();
  if (!sections)
    return notArm(llvm::toString(sections.takeError()));
  for (const auto &section : *sections) {
    if (section.sh_type != llvm::ELF::SHT_SYMTAB)
      continue;
    auto strtab = file->getStringTableForSymtab(section);
    auto syms = file->symbols(&section);
    if (!strtab || !syms) {
      llvm::consumeError(strtab.takeError());
      llvm::consumeError(syms.takeError());
      return notArm("unreadable symbol table");
    }
    for (const auto &sym : *syms) {
      auto name = sym.getName(*strtab);
      if (!name) {
        llvm::consumeError(name.takeError());
        continue;
      }
      if (name->empty() || sym.getType() == llvm::ELF::STT_SECTION ||
          sym.getType() == llvm::ELF::STT_FILE)
        continue;
      uint32_t value = sym.st_value;
      if (sym.getType() == llvm::ELF::STT_FUNC) {
        value &= ~kThumbBit;
        if (sym.st_size)
          image.functions.push_back(
              {value, static_cast<uint32_t>(sym.st_size), name->str()});
      }
      // Globals win over locals of the same name.
      if (sym.getBinding() != llvm::ELF::STB_LOCAL ||
          !image.symbols.count(name->str()))
        image.symbols[name->str()] = value;
    }
  }
  std::sort(image.functions.begin(), image.functions.end(),
            [](const FunctionSymbol &a, const FunctionSymbol &b) {
              return a.address < b.address ||
                     (a.address == b.address && a.name < b.name);
            });
  image.functions.erase(
      std::unique(image.functions.begin(), image.functions.end(),
                  [](const FunctionSymbol &a, const FunctionSymbol &b) {
                    return a.address == b.address;
                  }),
      image.functions.end());
  return std::nullopt;
}

std::optional<uint32_t> readConstant(const Image &image, StringRef name,
                                     uint32_t index) {
  auto address = image.lookup(name);
  uint32_t value;
  if (!address)
    return std::nullopt;
  *address += index * sizeof(value);
  for (const Image::Segment &segment : image.segments)
    if (*address >= segment.address &&
        *address + sizeof(value) <= segment.address + segment.fileSize) {
      std::memcpy(&value, segment.bytes.data() + (*address - segment.address),
                  sizeof(value));
      return value;
    }
  return std::nullopt;
}

std::optional<uint32_t> totalBytes(const Image &image, StringRef count,
                                   StringRef sizes) {
  std::optional<uint32_t> n = readConstant(image, count);
  if (!n)
    return std::nullopt;
  uint32_t total = 0;
  for (uint32_t i = 0; i < *n; ++i) {
    std::optional<uint32_t> size = readConstant(image, sizes, i);
    if (!size)
      return std::nullopt;
    total += *size;
  }
  return total;
}

} // namespace vmcu::prof
