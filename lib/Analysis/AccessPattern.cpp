//===- AccessPattern.cpp - Segment-level kernel access pattern ------------===//
//
// Affine helpers, event enumeration and validation of kernel schedule trees.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Analysis/AccessPattern.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <sstream>
#include <utility>

using namespace mlir::vmcu::analysis;

//===----------------------------------------------------------------------===//
// AffineExpr
//===----------------------------------------------------------------------===//

AffineExpr mlir::vmcu::analysis::affineConstant(int64_t constant) {
  return AffineExpr{{}, constant};
}

AffineExpr mlir::vmcu::analysis::affineDim(size_t pos, int64_t coeff) {
  AffineExpr expr;
  expr.coeffs.assign(pos + 1, 0);
  expr.coeffs[pos] = coeff;
  return expr;
}

AffineExpr mlir::vmcu::analysis::operator+(const AffineExpr &lhs,
                                           const AffineExpr &rhs) {
  AffineExpr result = lhs;
  if (result.coeffs.size() < rhs.coeffs.size())
    result.coeffs.resize(rhs.coeffs.size(), 0);
  for (size_t i = 0; i < rhs.coeffs.size(); ++i)
    result.coeffs[i] += rhs.coeffs[i];
  result.constant += rhs.constant;
  return result;
}

AffineExpr mlir::vmcu::analysis::operator*(const AffineExpr &lhs, int64_t rhs) {
  AffineExpr result = lhs;
  for (int64_t &coeff : result.coeffs)
    coeff *= rhs;
  result.constant *= rhs;
  return result;
}

AffineExpr mlir::vmcu::analysis::operator-(const AffineExpr &lhs,
                                           const AffineExpr &rhs) {
  return lhs + rhs * -1;
}

AffineExpr mlir::vmcu::analysis::operator+(const AffineExpr &lhs, int64_t rhs) {
  AffineExpr result = lhs;
  result.constant += rhs;
  return result;
}

AffineExpr mlir::vmcu::analysis::operator-(const AffineExpr &lhs, int64_t rhs) {
  return lhs + -rhs;
}

int64_t mlir::vmcu::analysis::evaluate(const AffineExpr &expr,
                                       const std::vector<int64_t> &ivs) {
  int64_t value = expr.constant;
  size_t n = std::min(expr.coeffs.size(), ivs.size());
  for (size_t i = 0; i < n; ++i)
    value += expr.coeffs[i] * ivs[i];
  return value;
}

//===----------------------------------------------------------------------===//
// Enumerations
//===----------------------------------------------------------------------===//

/// Names of the enumerators, in declaration order.
static constexpr const char *kTensorRoleNames[] = {"Input", "Output",
                                                   "Workspace"};
static constexpr const char *kAccessKindNames[] = {"Load", "Store", "Free"};

const char *mlir::vmcu::analysis::stringifyTensorRole(TensorRole role) {
  return kTensorRoleNames[static_cast<size_t>(role)];
}

const char *mlir::vmcu::analysis::stringifyAccessKind(AccessKind kind) {
  return kAccessKindNames[static_cast<size_t>(kind)];
}

int64_t mlir::vmcu::analysis::segmentsOf(const KernelPattern &pattern,
                                         TensorRole role) {
  switch (role) {
  case TensorRole::Input:
    return pattern.inputSegments;
  case TensorRole::Output:
    return pattern.outputSegments;
  case TensorRole::Workspace:
    return pattern.workspaceSegments;
  }
  return 0;
}

//===----------------------------------------------------------------------===//
// Event enumeration
//===----------------------------------------------------------------------===//

namespace {

int64_t lowerBound(const Bound &bound, const std::vector<int64_t> &ivs) {
  int64_t value = std::numeric_limits<int64_t>::min();
  for (const AffineExpr &term : bound.terms)
    value = std::max(value, evaluate(term, ivs));
  return value;
}

int64_t upperBound(const Bound &bound, const std::vector<int64_t> &ivs) {
  int64_t value = std::numeric_limits<int64_t>::max();
  for (const AffineExpr &term : bound.terms)
    value = std::min(value, evaluate(term, ivs));
  return value;
}

/// A schedule tree node with each access's address folded into one affine
/// expression over the ivs (sum over d of mapping[d] * indices[d]), so an
/// event costs one evaluation: the walk runs once per executed access, over
/// every kernel of every plan the schedule chooser tries.
struct FlatNode {
  /// The loop, or null for an access.
  const Loop *loop = nullptr;
  AccessKind kind = AccessKind::Load;
  TensorRole role = TensorRole::Input;
  AffineExpr address;
  std::vector<FlatNode> body;
  /// A loop whose body holds accesses only, with the current address of
  /// each and its step per iteration (walkInnermost's scratch).
  bool innermost = false;
  std::vector<int64_t> addresses, deltas;
  /// A loop's bounds where they use no iv (most do), else nullopt.
  std::optional<int64_t> constantLower, constantUpper;
};

/// Whether some term of `bound` uses an iv.
bool usesIvs(const Bound &bound) {
  return std::any_of(
      bound.terms.begin(), bound.terms.end(), [](const AffineExpr &term) {
        return std::any_of(term.coeffs.begin(), term.coeffs.end(),
                           [](int64_t c) { return c != 0; });
      });
}

/// Whether `body` holds accesses only (an innermost loop's body).
bool accessesOnly(const std::vector<FlatNode> &body) {
  return std::none_of(body.begin(), body.end(),
                      [](const FlatNode &node) { return node.loop; });
}

std::vector<FlatNode> flatten(const std::vector<Node> &body) {
  std::vector<FlatNode> flat;
  flat.reserve(body.size());
  for (const Node &node : body) {
    FlatNode &f = flat.emplace_back();
    if (node.isLoop()) {
      f.loop = &node.loop();
      f.body = flatten(f.loop->body);
      f.innermost = accessesOnly(f.body);
      if (!usesIvs(f.loop->lower))
        f.constantLower = lowerBound(f.loop->lower, {});
      if (!usesIvs(f.loop->upper))
        f.constantUpper = upperBound(f.loop->upper, {});
      if (f.innermost) {
        f.addresses.resize(f.body.size());
        f.deltas.resize(f.body.size());
      }
      continue;
    }
    const Access &access = node.access();
    f.kind = access.kind;
    f.role = access.role;
    size_t dims = std::min(access.indices.size(), access.mapping.size());
    for (size_t d = 0; d < dims; ++d)
      f.address = f.address + access.indices[d] * access.mapping[d];
  }
  return flat;
}

/// An innermost loop from `lo` to `hi`: each access's address is evaluated
/// once and then stepped by its iv coefficient, so an event costs an
/// addition.
template <typename Fn>
void walkInnermost(FlatNode &loop, int64_t lo, int64_t hi,
                   std::vector<int64_t> &ivs, Fn &fn) {
  size_t depth = ivs.size();
  int64_t step = loop.loop->step;
  ivs.push_back(lo);
  for (size_t a = 0; a < loop.body.size(); ++a) {
    const AffineExpr &address = loop.body[a].address;
    loop.addresses[a] = evaluate(address, ivs);
    loop.deltas[a] =
        depth < address.coeffs.size() ? address.coeffs[depth] * step : 0;
  }
  ivs.pop_back();
  for (int64_t iv = lo; iv < hi; iv += step)
    for (size_t a = 0; a < loop.body.size(); ++a) {
      fn(loop.body[a].kind, loop.body[a].role, loop.addresses[a]);
      loop.addresses[a] += loop.deltas[a];
    }
}

template <typename Fn>
void walk(std::vector<FlatNode> &body, std::vector<int64_t> &ivs, Fn &fn) {
  for (FlatNode &node : body) {
    if (!node.loop) {
      fn(node.kind, node.role, evaluate(node.address, ivs));
      continue;
    }
    int64_t lo = node.constantLower ? *node.constantLower
                                    : lowerBound(node.loop->lower, ivs);
    int64_t hi = node.constantUpper ? *node.constantUpper
                                    : upperBound(node.loop->upper, ivs);
    int64_t step = node.loop->step;
    if (node.innermost) {
      walkInnermost(node, lo, hi, ivs, fn);
      continue;
    }
    ivs.push_back(lo);
    for (int64_t iv = lo; iv < hi; iv += step) {
      ivs.back() = iv;
      walk(node.body, ivs, fn);
    }
    ivs.pop_back();
  }
}

/// Whether `node` or a node inside it loads or stores.
bool loadsOrStores(const FlatNode &node) {
  if (!node.loop)
    return node.kind != AccessKind::Free;
  return std::any_of(node.body.begin(), node.body.end(), loadsOrStores);
}

/// The walk of a pattern with KernelPattern::freeDelay: each Free issued in
/// split iteration k reaches `fn` at the start of iteration k + delay, or
/// at the end of the split loop, the first top-level loop that loads or
/// stores. A split iteration is one iteration of a top-level loop up to the
/// split loop or, with splitDepth 2, of the loop inside the split loop that
/// loads and stores (row by row, the iterations counted across rows). A
/// Free outside those belongs to the iteration last started; after the
/// split loop, Frees apply where they are.
template <typename Fn> class DelayedFreeWalk {
public:
  DelayedFreeWalk(const KernelPattern &pattern, Fn &fn)
      : delay(pattern.freeDelay), depth(pattern.splitDepth), fn(fn) {}

  void run(std::vector<FlatNode> &body) {
    for (FlatNode &node : body) {
      if (!node.loop) {
        issue(node.kind, node.role, evaluate(node.address, ivs));
        continue;
      }
      bool split = !splitDone && loadsOrStores(node);
      runTopLevelLoop(node, split);
      // After the split loop both cores meet: its frees all apply, and
      // the rest of the kernel runs on one core.
      splitDone |= split;
      if (split)
        flushPending();
    }
    flushPending();
  }

private:
  void flushPending() {
    for (const auto &[due, address] : pending)
      fn(AccessKind::Free, TensorRole::Input, address);
    pending.clear();
  }

  void runTopLevelLoop(FlatNode &loop, bool split) {
    bool twoLevels = depth == 2 && split;
    for (int64_t iv = *loop.constantLower; iv < *loop.constantUpper;
         iv += loop.loop->step) {
      ivs.assign(1, iv);
      if (!twoLevels) {
        if (depth == 1 && !splitDone)
          startIteration();
        walk(loop.body, ivs, *this);
        continue;
      }
      for (FlatNode &node : loop.body)
        if (node.loop && loadsOrStores(node))
          runInnerLoop(node);
        else
          walkOne(node);
    }
  }

  void runInnerLoop(FlatNode &loop) {
    int64_t lo = lowerBound(loop.loop->lower, ivs);
    int64_t hi = upperBound(loop.loop->upper, ivs);
    for (int64_t iv = lo; iv < hi; iv += loop.loop->step) {
      startIteration();
      ivs.resize(1);
      ivs.push_back(iv);
      walk(loop.body, ivs, *this);
    }
    ivs.resize(1);
  }

  /// One node of a top-level loop's body (ivs = its iv).
  void walkOne(FlatNode &node) {
    if (!node.loop) {
      issue(node.kind, node.role, evaluate(node.address, ivs));
      return;
    }
    std::vector<FlatNode> one(1, node);
    walk(one, ivs, *this);
  }

  void startIteration() {
    ++iteration;
    while (!pending.empty() && pending.front().first <= iteration) {
      fn(AccessKind::Free, TensorRole::Input, pending.front().second);
      pending.pop_front();
    }
  }

public:
  /// An event of the pattern, as walk() reports it.
  void operator()(AccessKind kind, TensorRole role, int64_t address) {
    issue(kind, role, address);
  }

private:
  void issue(AccessKind kind, TensorRole role, int64_t address) {
    if (kind == AccessKind::Free && !splitDone)
      pending.emplace_back(iteration + delay, address);
    else
      fn(kind, role, address);
  }

  int64_t delay, depth;
  Fn &fn;
  std::vector<int64_t> ivs;
  /// The split iteration last started (-1: none yet).
  int64_t iteration = -1;
  /// Whether the split loop (the first top-level loop that loads or
  /// stores) has finished.
  bool splitDone = false;
  /// (iteration it takes effect in, address), in issue order.
  std::deque<std::pair<int64_t, int64_t>> pending;
};

/// Calls `fn` on every event of `pattern`, in execution order, its Frees
/// delayed by pattern.freeDelay split iterations.
template <typename Fn> void walk(const KernelPattern &pattern, Fn &fn) {
  std::vector<int64_t> ivs;
  std::vector<FlatNode> flat = flatten(pattern.body);
  if (pattern.freeDelay == 0) {
    walk(flat, ivs, fn);
    return;
  }
  DelayedFreeWalk<Fn>(pattern, fn).run(flat);
}

} // namespace

void mlir::vmcu::analysis::forEachEvent(const KernelPattern &pattern,
                                        const EventCallback &callback) {
  walk(pattern, callback);
}

std::vector<Event>
mlir::vmcu::analysis::collectEvents(const KernelPattern &pattern) {
  std::vector<Event> events;
  auto record = [&](AccessKind kind, TensorRole role, int64_t address) {
    events.push_back(Event{kind, role, address});
  };
  walk(pattern, record);
  return events;
}

//===----------------------------------------------------------------------===//
// Validation
//===----------------------------------------------------------------------===//

namespace {

std::optional<std::string> checkExpr(const AffineExpr &expr, size_t depth,
                                     const char *what) {
  if (expr.coeffs.size() <= depth)
    return std::nullopt;
  for (size_t i = depth; i < expr.coeffs.size(); ++i)
    if (expr.coeffs[i] != 0)
      return std::string(what) + " uses induction variable " +
             std::to_string(i) + " at loop depth " + std::to_string(depth);
  return std::nullopt;
}

std::optional<std::string> checkStructure(const std::vector<Node> &body,
                                          size_t depth) {
  for (const Node &node : body) {
    if (node.isLoop()) {
      const Loop &loop = node.loop();
      if (loop.step <= 0)
        return "loop at depth " + std::to_string(depth) +
               " has non-positive step " + std::to_string(loop.step);
      if (loop.lower.terms.empty() || loop.upper.terms.empty())
        return "loop at depth " + std::to_string(depth) + " has an empty bound";
      for (const AffineExpr &term : loop.lower.terms)
        if (auto error = checkExpr(term, depth, "lower bound"))
          return error;
      for (const AffineExpr &term : loop.upper.terms)
        if (auto error = checkExpr(term, depth, "upper bound"))
          return error;
      if (auto error = checkStructure(loop.body, depth + 1))
        return error;
      continue;
    }
    const Access &access = node.access();
    std::string name = std::string(stringifyAccessKind(access.kind)) + " " +
                       stringifyTensorRole(access.role);
    if (access.indices.size() != access.mapping.size())
      return name + " has " + std::to_string(access.indices.size()) +
             " indices but " + std::to_string(access.mapping.size()) +
             " mapping entries";
    if (access.kind == AccessKind::Store && access.role == TensorRole::Input)
      return std::string("the input is read-only: ") + name;
    if (access.kind == AccessKind::Free && access.role != TensorRole::Input)
      return std::string("only input segments are freed: ") + name;
    for (const AffineExpr &index : access.indices)
      if (auto error = checkExpr(index, depth, "access index"))
        return error;
  }
  return std::nullopt;
}

} // namespace

std::optional<std::string>
mlir::vmcu::analysis::validateStructure(const KernelPattern &pattern) {
  if (pattern.inputSegments < 0 || pattern.outputSegments < 0 ||
      pattern.workspaceSegments < 0)
    return std::string("negative tensor size");
  if (pattern.freeDelay < 0)
    return std::string("negative free delay");
  if (pattern.splitDepth != 1 && pattern.splitDepth != 2)
    return "split depth " + std::to_string(pattern.splitDepth) +
           " is neither 1 nor 2";
  return checkStructure(pattern.body, 0);
}

EventChecker::EventChecker(const KernelPattern &pattern)
    : pattern(pattern), inputFreed(pattern.inputSegments, false),
      outputStored(pattern.outputSegments, false),
      workspaceStored(pattern.workspaceSegments, false) {}

void EventChecker::operator()(AccessKind kind, TensorRole role,
                              int64_t address) {
  int64_t index = eventIndex++;
  if (firstError)
    return;
  auto fail = [&](const char *why) {
    std::ostringstream os;
    os << "event #" << index << " (" << stringifyAccessKind(kind) << " "
       << stringifyTensorRole(role) << "[" << address << "]): " << why;
    firstError = os.str();
  };
  int64_t size = segmentsOf(pattern, role);
  if (address < 0 || address >= size)
    return fail(("address outside [0, " + std::to_string(size) + ")").c_str());
  switch (role) {
  case TensorRole::Input:
    if (inputFreed[address])
      return fail(kind == AccessKind::Free ? "double free" : "load after free");
    if (kind == AccessKind::Free)
      inputFreed[address] = true;
    return;
  case TensorRole::Output:
  case TensorRole::Workspace: {
    std::vector<bool> &stored =
        role == TensorRole::Output ? outputStored : workspaceStored;
    if (kind == AccessKind::Store)
      stored[address] = true;
    else if (!stored[address])
      fail("load of a segment never stored");
    return;
  }
  }
}

std::optional<std::string>
mlir::vmcu::analysis::validate(const KernelPattern &pattern) {
  if (auto error = validateStructure(pattern))
    return error;
  EventChecker check(pattern);
  walk(pattern, check);
  return check.error();
}
