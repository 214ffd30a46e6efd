//===- AccessPattern.cpp - Segment-level kernel access pattern ------------===//
//
// Affine helpers, event enumeration and validation of kernel schedule trees.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Analysis/AccessPattern.h"

#include <algorithm>
#include <limits>
#include <sstream>

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

const char *mlir::vmcu::analysis::stringifyTensorRole(TensorRole role) {
  switch (role) {
  case TensorRole::Input:
    return "Input";
  case TensorRole::Output:
    return "Output";
  case TensorRole::Workspace:
    return "Workspace";
  }
  return "?";
}

const char *mlir::vmcu::analysis::stringifyAccessKind(AccessKind kind) {
  switch (kind) {
  case AccessKind::Load:
    return "Load";
  case AccessKind::Store:
    return "Store";
  case AccessKind::Free:
    return "Free";
  }
  return "?";
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

int64_t linearAddress(const Access &access, const std::vector<int64_t> &ivs) {
  int64_t address = 0;
  for (size_t d = 0; d < access.indices.size(); ++d)
    address += access.mapping[d] * evaluate(access.indices[d], ivs);
  return address;
}

template <typename Fn>
void walk(const std::vector<Node> &body, std::vector<int64_t> &ivs, Fn &fn) {
  for (const Node &node : body) {
    if (!node.isLoop()) {
      const Access &access = node.access();
      fn(access.kind, access.role, linearAddress(access, ivs));
      continue;
    }
    const Loop &loop = node.loop();
    int64_t lo = lowerBound(loop.lower, ivs);
    int64_t hi = upperBound(loop.upper, ivs);
    ivs.push_back(lo);
    for (int64_t iv = lo; iv < hi; iv += loop.step) {
      ivs.back() = iv;
      walk(loop.body, ivs, fn);
    }
    ivs.pop_back();
  }
}

} // namespace

void mlir::vmcu::analysis::forEachEvent(const KernelPattern &pattern,
                                        const EventCallback &callback) {
  std::vector<int64_t> ivs;
  walk(pattern.body, ivs, callback);
}

std::vector<Event>
mlir::vmcu::analysis::collectEvents(const KernelPattern &pattern) {
  std::vector<Event> events;
  std::vector<int64_t> ivs;
  auto record = [&](AccessKind kind, TensorRole role, int64_t address) {
    events.push_back(Event{kind, role, address});
  };
  walk(pattern.body, ivs, record);
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
mlir::vmcu::analysis::validate(const KernelPattern &pattern) {
  if (pattern.inputSegments < 0 || pattern.outputSegments < 0 ||
      pattern.workspaceSegments < 0)
    return std::string("negative tensor size");
  if (auto error = checkStructure(pattern.body, 0))
    return error;

  // Replay: per-segment state of every tensor.
  std::vector<bool> inputFreed(pattern.inputSegments, false);
  std::vector<bool> outputStored(pattern.outputSegments, false);
  std::vector<bool> workspaceStored(pattern.workspaceSegments, false);
  std::optional<std::string> error;
  int64_t eventIndex = 0;
  auto check = [&](AccessKind kind, TensorRole role, int64_t address) {
    int64_t index = eventIndex++;
    if (error)
      return;
    auto fail = [&](const char *why) {
      std::ostringstream os;
      os << "event #" << index << " (" << stringifyAccessKind(kind) << " "
         << stringifyTensorRole(role) << "[" << address << "]): " << why;
      error = os.str();
    };
    int64_t size = segmentsOf(pattern, role);
    if (address < 0 || address >= size)
      return fail(
          ("address outside [0, " + std::to_string(size) + ")").c_str());
    switch (role) {
    case TensorRole::Input:
      if (inputFreed[address])
        return fail(kind == AccessKind::Free ? "double free"
                                             : "load after free");
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
  };
  std::vector<int64_t> ivs;
  walk(pattern.body, ivs, check);
  return error;
}
