//===- StackBound.cpp - the model's worst-case stack, from its object -----===//
//
// Each function's frame comes from the .stack_sizes section (an address
// relocated against the code, then the size as ULEB128). Calls come from
// the code: BL, B.W and B instructions whose target starts a function of
// the object (LLVM resolves calls within a section without relocations),
// and call relocations against undefined functions (the C library, the
// runtime). A branch to a function is a tail call, made after the caller's
// epilogue: the callee's stack does not add to the caller's frame. The
// bound is the deepest path from vmcu_invoke.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Tools/vmcuc/StackBound.h"

#include "vmcu/Dialect/VMCU/IR/ModelABI.h"
#include "vmcu/Tools/vmcuc/Compiler.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/LEB128.h"

using namespace mlir;
using namespace mlir::vmcu;
namespace obj = llvm::object;

namespace {

constexpr llvm::StringLiteral kLibcFunctions[] = {"memset", "memcpy",
                                                  "memmove"};
/// An address field in .stack_sizes on a 32-bit target.
constexpr uint64_t kAddressBytes = 4;

/// A function of the object: where its code lies in its section.
struct Function {
  std::string name;
  uint64_t section = 0;
  uint64_t begin = 0, end = 0;
};

struct CallGraph {
  std::vector<Function> functions;
  /// Mapping-symbol starts of data ($d) and code ($t, $a) in each section.
  std::map<uint64_t, std::map<uint64_t, bool>> dataAt;
  llvm::StringMap<uint64_t> frames;
  llvm::StringMap<llvm::StringSet<>> callees;
  /// Functions each function branches to after its epilogue (B.W, B).
  llvm::StringMap<llvm::StringSet<>> tailCallees;

  const Function *at(uint64_t section, uint64_t address) const {
    for (const Function &f : functions)
      if (f.section == section && f.begin <= address && address < f.end)
        return &f;
    return nullptr;
  }
  bool isData(uint64_t section, uint64_t address) const {
    auto it = dataAt.find(section);
    if (it == dataAt.end())
      return false;
    auto mark = it->second.upper_bound(address);
    return mark != it->second.begin() && std::prev(mark)->second;
  }
};

/// The functions and mapping symbols of `file`.
void readSymbols(const obj::ObjectFile &file, CallGraph &graph) {
  for (const obj::SymbolRef &symbol : file.symbols()) {
    std::optional<StringRef> name = llvm::expectedToOptional(symbol.getName());
    std::optional<obj::section_iterator> section =
        llvm::expectedToOptional(symbol.getSection());
    std::optional<uint64_t> value = llvm::expectedToOptional(symbol.getValue());
    std::optional<obj::SymbolRef::Type> type =
        llvm::expectedToOptional(symbol.getType());
    if (!name || !section || !value || !type || *section == file.section_end())
      continue;
    uint64_t index = (*section)->getIndex();
    // Thumb functions have the low bit of their address set.
    uint64_t address = *value & ~uint64_t(1);
    if (*type == obj::SymbolRef::ST_Function) {
      uint64_t size = obj::ELFSymbolRef(symbol).getSize();
      graph.functions.push_back({name->str(), index, address, address + size});
    } else if (name->starts_with("$d") || name->starts_with("$t") ||
               name->starts_with("$a")) {
      graph.dataAt[index][address] = name->starts_with("$d");
    }
  }
}

/// Frames from a .stack_sizes section and its relocations (REL: the
/// address's addend is in place).
void readFrames(const obj::ObjectFile &file, const obj::SectionRef &sizes,
                const obj::SectionRef &relocations, CallGraph &graph) {
  std::optional<StringRef> contents =
      llvm::expectedToOptional(sizes.getContents());
  if (!contents)
    return;
  for (const obj::RelocationRef &reloc : relocations.relocations()) {
    uint64_t offset = reloc.getOffset();
    if (offset + kAddressBytes >= contents->size())
      continue;
    obj::symbol_iterator symbol = reloc.getSymbol();
    if (symbol == file.symbol_end())
      continue;
    std::optional<obj::section_iterator> section =
        llvm::expectedToOptional(symbol->getSection());
    std::optional<uint64_t> value =
        llvm::expectedToOptional(symbol->getValue());
    if (!section || !value || *section == file.section_end())
      continue;
    uint64_t addend =
        llvm::support::endian::read32le(contents->data() + offset);
    const Function *f =
        graph.at((*section)->getIndex(), (*value + addend) & ~uint64_t(1));
    if (!f)
      continue;
    unsigned length = 0;
    graph.frames[f->name] =
        llvm::decodeULEB128(contents->bytes_begin() + offset + kAddressBytes,
                            &length, contents->bytes_end());
  }
}

/// A Thumb BL, B.W (encoding T4) or B (T2): its target, and whether it is
/// a branch (a tail call where it leaves the function).
struct Branch {
  uint64_t target;
  bool tail;
};

/// The BL or B.W at `address` made of halfwords `hi` and `lo`, if it is
/// one.
std::optional<Branch> decodeBranch(uint64_t address, uint16_t hi, uint16_t lo) {
  bool bl = (hi & 0xF800) == 0xF000 && (lo & 0xD000) == 0xD000;
  bool bw = (hi & 0xF800) == 0xF000 && (lo & 0xD000) == 0x9000;
  if (!bl && !bw)
    return std::nullopt;
  uint32_t s = (hi >> 10) & 1, j1 = (lo >> 13) & 1, j2 = (lo >> 11) & 1;
  uint32_t i1 = !(j1 ^ s), i2 = !(j2 ^ s);
  int32_t imm =
      static_cast<int32_t>((s << 24) | (i1 << 23) | (i2 << 22) |
                           ((hi & 0x3FF) << 12) | ((lo & 0x7FF) << 1));
  imm = (imm << 7) >> 7; // Sign-extend the 25-bit offset.
  return Branch{address + 4 + imm, bw};
}

/// The 16-bit unconditional B (encoding T2) at `address`, if `half` is one.
std::optional<Branch> decodeNarrowBranch(uint64_t address, uint16_t half) {
  if ((half & 0xF800) != 0xE000)
    return std::nullopt;
  int32_t imm = static_cast<int32_t>((half & 0x7FF) << 1);
  imm = (imm << 20) >> 20; // Sign-extend the 12-bit offset.
  return Branch{address + 4 + imm, /*tail=*/true};
}

/// Calls between the object's functions: each BL, B.W or B whose target
/// starts another function.
void readBranches(const obj::SectionRef &section, CallGraph &graph) {
  std::optional<StringRef> code =
      llvm::expectedToOptional(section.getContents());
  if (!code)
    return;
  uint64_t index = section.getIndex();
  for (const Function &caller : graph.functions) {
    if (caller.section != index)
      continue;
    for (uint64_t pc = caller.begin;
         pc + 2 <= caller.end && pc + 2 <= code->size();) {
      uint16_t hi = llvm::support::endian::read16le(code->data() + pc);
      if (graph.isData(index, pc)) {
        pc += 2;
        continue;
      }
      bool wide = (hi & 0xE000) == 0xE000 && (hi & 0x1800) != 0;
      bool code16 = !wide || pc + 4 > code->size();
      std::optional<Branch> branch =
          code16 ? decodeNarrowBranch(pc, hi)
                 : decodeBranch(
                       pc, hi,
                       llvm::support::endian::read16le(code->data() + pc + 2));
      if (branch)
        for (const Function &callee : graph.functions)
          if (callee.section == index && callee.begin == branch->target &&
              callee.name != caller.name)
            (branch->tail ? graph.tailCallees : graph.callees)[caller.name]
                .insert(callee.name);
      pc += code16 ? 2 : 4;
    }
  }
}

/// Calls through relocations: to functions outside the object.
void readCallRelocations(const obj::ObjectFile &file,
                         const obj::SectionRef &code,
                         const obj::SectionRef &relocations, CallGraph &graph) {
  for (const obj::RelocationRef &reloc : relocations.relocations()) {
    uint64_t type = reloc.getType();
    if (type != llvm::ELF::R_ARM_THM_CALL &&
        type != llvm::ELF::R_ARM_THM_JUMP24)
      continue;
    const Function *caller = graph.at(code.getIndex(), reloc.getOffset());
    obj::symbol_iterator symbol = reloc.getSymbol();
    if (!caller || symbol == file.symbol_end())
      continue;
    std::optional<obj::SymbolRef::Type> kind =
        llvm::expectedToOptional(symbol->getType());
    std::optional<StringRef> name = llvm::expectedToOptional(symbol->getName());
    bool tail = type == llvm::ELF::R_ARM_THM_JUMP24;
    if (kind && name && *kind != obj::SymbolRef::ST_Debug && !name->empty())
      (tail ? graph.tailCallees : graph.callees)[caller->name].insert(*name);
  }
}

CallGraph readCallGraph(const obj::ObjectFile &file) {
  CallGraph graph;
  readSymbols(file, graph);
  for (const obj::SectionRef &section : file.sections()) {
    std::optional<obj::section_iterator> target =
        llvm::expectedToOptional(section.getRelocatedSection());
    if (!target || *target == file.section_end()) {
      if (section.isText())
        readBranches(section, graph);
      continue;
    }
    std::optional<StringRef> name =
        llvm::expectedToOptional((*target)->getName());
    if (name && *name == ".stack_sizes")
      readFrames(file, **target, section, graph);
    else if ((*target)->isText())
      readCallRelocations(file, **target, section, graph);
  }
  return graph;
}

/// The deepest stack from `function` down; nullopt (and `unknown` set) if
/// a function on the way has no known frame.
std::optional<uint64_t> deepest(StringRef function, const CallGraph &graph,
                                llvm::StringMap<uint64_t> &memo,
                                llvm::StringSet<> &onPath,
                                std::string &unknown) {
  if (auto it = memo.find(function); it != memo.end())
    return it->second;
  if (llvm::is_contained(kLibcFunctions, function))
    return kLibcFrameBytes;
  if (llvm::is_contained(ring_check_abi::kEntryPoints, function))
    return kRingCheckFrameBytes;
  auto frame = graph.frames.find(function);
  if (frame == graph.frames.end() || onPath.contains(function)) {
    unknown = function.str(); // No frame, or recursion: no bound.
    return std::nullopt;
  }
  onPath.insert(function);
  // The deepest of `function`'s callees in `calls`; nullopt if unknown.
  auto deepestCallee = [&](const llvm::StringMap<llvm::StringSet<>> &calls)
      -> std::optional<uint64_t> {
    uint64_t depth = 0;
    if (auto it = calls.find(function); it != calls.end())
      for (const auto &callee : it->second) {
        std::optional<uint64_t> d =
            deepest(callee.getKey(), graph, memo, onPath, unknown);
        if (!d)
          return std::nullopt;
        depth = std::max(depth, *d);
      }
    return depth;
  };
  std::optional<uint64_t> below = deepestCallee(graph.callees);
  std::optional<uint64_t> after = deepestCallee(graph.tailCallees);
  if (!below || !after)
    return std::nullopt;
  onPath.erase(function);
  return memo[function] = std::max(frame->second + *below, *after);
}

} // namespace

StackBound mlir::vmcu::getObjectStackBound(ArrayRef<char> object,
                                           StringRef symbolPrefix) {
  // The model's entry point (runtime/vmcu_model_api.h).
  std::string entry = model_abi::prefixed(model_abi::kInvokeFn, symbolPrefix);
  StackBound bound;
  std::unique_ptr<obj::ObjectFile> file = openELFObject(object);
  if (!file) {
    bound.unknown = entry;
    return bound;
  }
  CallGraph graph = readCallGraph(*file);
  llvm::StringMap<uint64_t> memo;
  llvm::StringSet<> onPath;
  bound.bytes = deepest(entry, graph, memo, onPath, bound.unknown);
  return bound;
}
