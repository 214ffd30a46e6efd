//===- RingSimulator.cpp - Brute-force circular pool simulator ------------===//
//
// Slot-by-slot replay of a kernel on the circular pool. Deliberately simple:
// it shares no logic with the offset solver.
//
//===----------------------------------------------------------------------===//

#include "TestAnalysis/RingSimulator.h"

#include <algorithm>
#include <sstream>

using namespace mlir::vmcu::analysis;

namespace {

/// What a pool slot holds.
struct Slot {
  bool occupied = false;
  TensorRole role = TensorRole::Input;
  int64_t index = 0;
  bool live = false;
};

std::string describe(TensorRole role, int64_t index) {
  return std::string(stringifyTensorRole(role)) + "[" + std::to_string(index) +
         "]";
}

int64_t positiveModulo(int64_t value, int64_t modulus) {
  int64_t result = value % modulus;
  return result < 0 ? result + modulus : result;
}

} // namespace

RingSimulator::RingSimulator(const KernelPattern &pattern)
    : inputSegments(pattern.inputSegments),
      outputSegments(pattern.outputSegments),
      workspaceSegments(pattern.workspaceSegments),
      events(collectEvents(pattern)) {}

SimulationResult RingSimulator::run(int64_t distance,
                                    std::optional<int64_t> poolSegments) const {
  SimulationResult result;
  int64_t inputBase = std::max<int64_t>(0, distance);
  int64_t outputBase = inputBase - distance;
  int64_t span =
      std::max(inputBase + inputSegments, outputBase + outputSegments);
  int64_t workspaceBase = span;
  int64_t pool = poolSegments.value_or(span + workspaceSegments);
  if (pool < 1) {
    result.message = "pool has no slots";
    return result;
  }

  auto slotOf = [&](TensorRole role, int64_t index) {
    int64_t base = role == TensorRole::Input    ? inputBase
                   : role == TensorRole::Output ? outputBase
                                                : workspaceBase;
    return positiveModulo(base + index, pool);
  };
  auto sizeOf = [&](TensorRole role) {
    return role == TensorRole::Input    ? inputSegments
           : role == TensorRole::Output ? outputSegments
                                        : workspaceSegments;
  };

  std::vector<Slot> slots(pool);
  for (int64_t x = 0; x < inputSegments; ++x) {
    Slot &slot = slots[slotOf(TensorRole::Input, x)];
    if (slot.occupied) {
      result.message =
          "pool smaller than the input: " + describe(TensorRole::Input, x) +
          " overlaps " + describe(slot.role, slot.index);
      return result;
    }
    slot = Slot{true, TensorRole::Input, x, true};
  }

  for (size_t i = 0; i < events.size(); ++i) {
    const Event &event = events[i];
    auto fail = [&](const std::string &why) {
      std::ostringstream os;
      os << "event #" << i << " " << stringifyAccessKind(event.kind) << " "
         << describe(event.role, event.address) << ": " << why;
      result.message = os.str();
      return result;
    };
    if (event.address < 0 || event.address >= sizeOf(event.role))
      return fail("address out of range");
    int64_t where = slotOf(event.role, event.address);
    Slot &slot = slots[where];
    bool own = slot.occupied && slot.live && slot.role == event.role &&
               slot.index == event.address;
    switch (event.kind) {
    case AccessKind::Load:
      if (!own)
        return fail("slot " + std::to_string(where) + " does not hold it");
      break;
    case AccessKind::Store:
      if (event.role == TensorRole::Input)
        return fail("stores to the input are invalid");
      if (slot.occupied && slot.live && !own)
        return fail("slot " + std::to_string(where) + " holds live " +
                    describe(slot.role, slot.index));
      slot = Slot{true, event.role, event.address, true};
      break;
    case AccessKind::Free:
      if (event.role != TensorRole::Input)
        return fail("only input segments are freed");
      if (!own)
        return fail("slot " + std::to_string(where) + " does not hold it");
      slot.live = false;
      break;
    }
  }

  for (int64_t o = 0; o < outputSegments; ++o) {
    const Slot &slot = slots[slotOf(TensorRole::Output, o)];
    if (!(slot.occupied && slot.live && slot.role == TensorRole::Output &&
          slot.index == o)) {
      result.message = "after the kernel, " + describe(TensorRole::Output, o) +
                       " is missing";
      return result;
    }
  }
  for (int64_t x = 0; x < inputSegments; ++x) {
    const Slot &slot = slots[slotOf(TensorRole::Input, x)];
    if (slot.occupied && slot.live && slot.role == TensorRole::Input &&
        slot.index == x)
      ++result.unfreedInputs;
  }
  result.ok = true;
  return result;
}

SimulationResult
mlir::vmcu::analysis::simulateRing(const KernelPattern &pattern,
                                   int64_t distance,
                                   std::optional<int64_t> poolSegments) {
  return RingSimulator(pattern).run(distance, poolSegments);
}
