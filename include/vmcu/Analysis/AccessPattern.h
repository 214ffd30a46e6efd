//===- AccessPattern.h - Segment-level kernel access pattern ----*- C++ -*-===//
//
// The schedule tree of one segment-tiled kernel: affine loops whose leaves
// load, store or free tensor segments. Plain C++17, no MLIR dependency.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_ANALYSIS_ACCESSPATTERN_H
#define VMCU_ANALYSIS_ACCESSPATTERN_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace mlir::vmcu::analysis {

/// constant + sum_i coeffs[i] * iv[i] over the enclosing induction variables,
/// outermost first. Missing trailing coefficients are zero.
struct AffineExpr {
  std::vector<int64_t> coeffs;
  int64_t constant = 0;
};

/// The expression `constant`.
AffineExpr affineConstant(int64_t constant);
/// The expression `coeff * iv[pos]`.
AffineExpr affineDim(size_t pos, int64_t coeff = 1);
AffineExpr operator+(const AffineExpr &lhs, const AffineExpr &rhs);
AffineExpr operator-(const AffineExpr &lhs, const AffineExpr &rhs);
AffineExpr operator+(const AffineExpr &lhs, int64_t rhs);
AffineExpr operator-(const AffineExpr &lhs, int64_t rhs);
AffineExpr operator*(const AffineExpr &lhs, int64_t rhs);

/// Evaluates `expr` at `ivs`; coefficients past `ivs.size()` are ignored
/// (validate() rejects them).
int64_t evaluate(const AffineExpr &expr, const std::vector<int64_t> &ivs);

/// A loop bound: a lower bound is the max of its terms, an (exclusive) upper
/// bound the min of its terms, like affine.for with max/min maps.
struct Bound {
  std::vector<AffineExpr> terms;
};

enum class TensorRole { Input, Output, Workspace };
enum class AccessKind { Load, Store, Free };

const char *stringifyTensorRole(TensorRole role);
const char *stringifyAccessKind(AccessKind kind);

/// One segment access: index d is indices[d](iv) (the paper's A*i+V) and the
/// linear segment address is sum_d mapping[d] * indices[d](iv) (L, row-major).
/// Only inputs are freed; inputs are never stored.
struct Access {
  AccessKind kind = AccessKind::Load;
  TensorRole role = TensorRole::Input;
  std::vector<AffineExpr> indices;
  std::vector<int64_t> mapping;
};

struct Node;

/// for (iv = lower; iv < upper; iv += step) body. The new iv is at position
/// "number of enclosing loops".
struct Loop {
  Bound lower;
  Bound upper;
  int64_t step = 1;
  std::vector<Node> body;
};

/// A schedule tree node: a loop or an access.
struct Node {
  std::variant<Loop, Access> value;

  Node(Loop loop) : value(std::move(loop)) {}
  Node(Access access) : value(std::move(access)) {}

  bool isLoop() const { return std::holds_alternative<Loop>(value); }
  const Loop &loop() const { return std::get<Loop>(value); }
  const Access &access() const { return std::get<Access>(value); }
};

/// The segment-level access pattern of one kernel. Sizes are in segments.
struct KernelPattern {
  std::string name;
  int64_t inputSegments = 0;
  int64_t outputSegments = 0;
  int64_t workspaceSegments = 0;
  std::vector<Node> body;
  /// Split iterations by which each Free takes effect late: a Free issued
  /// in iteration k applies at the start of iteration k + freeDelay, or at
  /// the end of the split loop (the first top-level loop that loads or
  /// stores; after it, Frees apply where they are). Two cores that take
  /// the iterations in turn, each waiting until the other is at most
  /// freeDelay - 1 iterations behind, and meet after the split loop, may
  /// store over a segment only then (vmcu-split-kernels). 0: one core,
  /// Frees apply where they are.
  int64_t freeDelay = 0;
  /// What a split iteration is: 1, one iteration of a top-level loop (up to
  /// the split loop); 2, one iteration of the loop inside the split loop
  /// that loads and stores, counted across the rows (a Free outside it
  /// belongs to the iteration last started).
  int64_t splitDepth = 1;
};

/// Number of segments of `role` in `pattern`.
int64_t segmentsOf(const KernelPattern &pattern, TensorRole role);

/// One executed access, in segments of its own tensor.
struct Event {
  AccessKind kind;
  TensorRole role;
  int64_t address;
};

using EventCallback = std::function<void(AccessKind, TensorRole, int64_t)>;

/// Calls `callback` for every executed access in execution order. The
/// pattern must pass validate().
void forEachEvent(const KernelPattern &pattern, const EventCallback &callback);

/// All events of `pattern` in execution order.
std::vector<Event> collectEvents(const KernelPattern &pattern);

/// Returns an error text if `pattern` is malformed: negative sizes, empty
/// bounds, non-positive steps, coefficients deeper than the loop nest, index/
/// mapping rank mismatch, a Store to the input or a Free of a non-input,
/// addresses out of range, double frees, loads of freed inputs, or loads of
/// output/workspace segments never stored.
std::optional<std::string> validate(const KernelPattern &pattern);

/// validate()'s checks that need no walk: sizes and the loop structure
/// (a pattern that fails them must not be walked).
std::optional<std::string> validateStructure(const KernelPattern &pattern);

/// validate()'s checks of the events, one at a time, so a walk that does
/// other work (computeForbiddenDistances) can validate on its way.
class EventChecker {
public:
  explicit EventChecker(const KernelPattern &pattern);
  void operator()(AccessKind kind, TensorRole role, int64_t address);
  /// The first event's error, if any.
  const std::optional<std::string> &error() const { return firstError; }

private:
  const KernelPattern &pattern;
  std::vector<bool> inputFreed, outputStored, workspaceStored;
  std::optional<std::string> firstError;
  int64_t eventIndex = 0;
};

} // namespace mlir::vmcu::analysis

#endif // VMCU_ANALYSIS_ACCESSPATTERN_H
