//===- Random.h - Portable seeded random numbers for vmcu-gen ---*- C++ -*-===//
//
// A SplitMix64 generator with hand-written integer and real draws. The
// <random> distributions are implementation-defined, so they would make the
// same seed give different models on different standard libraries; these
// helpers give byte-identical output everywhere.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_TOOLS_VMCUGEN_RANDOM_H
#define VMCU_TOOLS_VMCUGEN_RANDOM_H

#include <cassert>
#include <cstdint>

namespace mlir::vmcu::gen {

class Rng {
public:
  explicit Rng(uint64_t seed) : state(seed) {}

  /// The next 64 random bits (SplitMix64, Steele et al. 2014).
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  /// Uniform integer in [lo, hi]. The modulo bias is below 2^-40 for the
  /// ranges vmcu-gen draws from; what matters here is that it is portable.
  int64_t uniformInt(int64_t lo, int64_t hi) {
    assert(lo <= hi && "empty range");
    uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
    return lo + static_cast<int64_t>(next() % span);
  }

  /// Uniform real in [lo, hi), from the top 53 bits.
  double uniformReal(double lo, double hi) {
    double unit = static_cast<double>(next() >> 11) * 0x1.0p-53;
    return lo + (hi - lo) * unit;
  }

private:
  uint64_t state;
};

} // namespace mlir::vmcu::gen

#endif // VMCU_TOOLS_VMCUGEN_RANDOM_H
