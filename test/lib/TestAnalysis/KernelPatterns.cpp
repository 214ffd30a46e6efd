//===- KernelPatterns.cpp - Access patterns of segment-tiled kernels ------===//
//
// Each spatial axis of a windowed kernel is split into index families: the
// rows whose last reader is output u, and the rows no output reads.
//
//===----------------------------------------------------------------------===//

#include "TestAnalysis/KernelPatterns.h"

#include <algorithm>
#include <functional>
#include <utility>

using namespace mlir::vmcu::analysis;

namespace {

constexpr int64_t kUnitStep = 1;
/// Trip count of a guard loop whose condition holds.
constexpr int64_t kGuardTrips = 1;
/// Bottleneck workspace: R*R segments of B, one of C and one of D.
constexpr int64_t kBottleneckExtraWorkspace = 2;

PatternResult failure(std::string message) {
  PatternResult result;
  result.error = std::move(message);
  return result;
}

PatternResult success(KernelPattern pattern) {
  PatternResult result;
  result.pattern = std::move(pattern);
  return result;
}

Node makeLoop(std::vector<AffineExpr> lower, std::vector<AffineExpr> upper,
              std::vector<Node> body) {
  return Loop{Bound{std::move(lower)}, Bound{std::move(upper)}, kUnitStep,
              std::move(body)};
}

Node makeAccess(AccessKind kind, TensorRole role,
                std::vector<AffineExpr> indices, std::vector<int64_t> mapping) {
  return Access{kind, role, std::move(indices), std::move(mapping)};
}

/// A loop (whose iv is unused) running `body` once iff value >= threshold.
Node guardAtLeast(const AffineExpr &value, int64_t threshold,
                  std::vector<Node> body) {
  return makeLoop(
      {affineConstant(0)},
      {affineConstant(kGuardTrips), value - threshold + kGuardTrips},
      std::move(body));
}

void append(std::vector<Node> &to, std::vector<Node> nodes) {
  for (Node &node : nodes)
    to.push_back(std::move(node));
}

/// One spatial axis. Input index y = sub * t with t in [0, conv); output u
/// reads t in its window [u * stride - pad, u * stride - pad + kernel).
struct Axis {
  int64_t in;     // input extent
  int64_t sub;    // subsampling before the window (expand pw stride)
  int64_t conv;   // extent the window slides over: (in - 1) / sub + 1
  int64_t kernel; // window size
  int64_t stride; // window stride
  int64_t pad;    // padding before the first window
  int64_t out;    // number of outputs
};

/// Input index of an axis and its position inside the current window.
struct AxisIndex {
  AffineExpr index;
  AffineExpr windowPos;
};

/// Builds the loop body given the next free iv position and the axis index.
using Inner = std::function<std::vector<Node>(size_t, const AxisIndex &)>;
/// Builds the loops enumerating a family of indices of one axis.
using AxisLoops = std::function<std::vector<Node>(size_t, const Inner &)>;
/// Builds the body for one pixel (row index, column index).
using PixelBody = std::function<std::vector<Node>(size_t, const AxisIndex &,
                                                  const AxisIndex &)>;

AffineExpr windowStart(const Axis &axis, size_t uPos) {
  return affineDim(uPos, axis.stride) - axis.pad;
}

/// t in [lo, hi) at iv `depth`, clipped to [0, conv).
Node tLoop(const Axis &axis, const AffineExpr &start, const AffineExpr &lo,
           const AffineExpr &hi, size_t depth, const Inner &inner) {
  AffineExpr t = affineDim(depth);
  return makeLoop({affineConstant(0), lo}, {affineConstant(axis.conv), hi},
                  inner(depth + 1, AxisIndex{t * axis.sub, t - start}));
}

/// The in-bounds window of output u.
AxisLoops windowOf(const Axis &axis, size_t uPos) {
  return [axis, uPos](size_t depth, const Inner &inner) {
    AffineExpr start = windowStart(axis, uPos);
    return std::vector<Node>{
        tLoop(axis, start, start, start + axis.kernel, depth, inner)};
  };
}

/// Indices whose last reader is output u: the first min(stride, kernel) rows
/// of its window, plus the rest of the window when u is the last output.
AxisLoops lastUseOf(const Axis &axis, size_t uPos) {
  return [axis, uPos](size_t depth, const Inner &inner) {
    AffineExpr start = windowStart(axis, uPos);
    int64_t ownSpan = std::min(axis.stride, axis.kernel);
    std::vector<Node> nodes;
    nodes.push_back(tLoop(axis, start, start, start + ownSpan, depth, inner));
    if (axis.kernel > axis.stride) {
      Node tail = tLoop(axis, start, start + axis.stride, start + axis.kernel,
                        depth + 1, inner);
      nodes.push_back(guardAtLeast(affineDim(uPos), axis.out - 1, {tail}));
    }
    return nodes;
  };
}

/// Every index some output reads, grouped by last reader.
AxisLoops allReadOf(const Axis &axis) {
  return [axis](size_t depth, const Inner &inner) {
    return std::vector<Node>{
        makeLoop({affineConstant(0)}, {affineConstant(axis.out)},
                 lastUseOf(axis, depth)(depth + 1, inner))};
  };
}

/// Every index of the axis.
AxisLoops allOf(const Axis &axis) {
  return [axis](size_t depth, const Inner &inner) {
    AffineExpr y = affineDim(depth);
    return std::vector<Node>{
        makeLoop({affineConstant(0)}, {affineConstant(axis.in)},
                 inner(depth + 1, AxisIndex{y, affineConstant(0)}))};
  };
}

/// Indices no output reads: skipped by the subsampling, in gaps between
/// windows (stride > kernel), and after the last window.
AxisLoops unreadOf(const Axis &axis) {
  return [axis](size_t depth, const Inner &inner) {
    std::vector<Node> nodes;
    AxisIndex none{affineConstant(0), affineConstant(0)};
    if (axis.sub > 1) {
      AffineExpr t = affineDim(depth);
      AffineExpr y = affineDim(depth + 1);
      none.index = y;
      Node skipped =
          makeLoop({t * axis.sub + 1},
                   {affineConstant(axis.in), t * axis.sub + axis.sub},
                   inner(depth + 2, none));
      nodes.push_back(makeLoop({affineConstant(0)}, {affineConstant(axis.conv)},
                               {skipped}));
    }
    if (axis.stride > axis.kernel && axis.out > 1) {
      AffineExpr start = windowStart(axis, depth);
      AffineExpr t = affineDim(depth + 1);
      none.index = t * axis.sub;
      Node gap = makeLoop({affineConstant(0), start + axis.kernel},
                          {affineConstant(axis.conv), start + axis.stride},
                          inner(depth + 2, none));
      nodes.push_back(
          makeLoop({affineConstant(0)}, {affineConstant(axis.out - 1)}, {gap}));
    }
    int64_t tailStart = std::max<int64_t>(0, (axis.out - 1) * axis.stride -
                                                 axis.pad + axis.kernel);
    if (tailStart < axis.conv) {
      AffineExpr t = affineDim(depth);
      none.index = t * axis.sub;
      nodes.push_back(makeLoop({affineConstant(tailStart)},
                               {affineConstant(axis.conv)},
                               inner(depth + 1, none)));
    }
    return nodes;
  };
}

/// rows x cols x body.
std::vector<Node> product(size_t depth, const AxisLoops &rows,
                          const AxisLoops &cols, const PixelBody &body) {
  return rows(depth, [&](size_t rowDepth, const AxisIndex &row) {
    return cols(rowDepth, [&](size_t colDepth, const AxisIndex &col) {
      return body(colDepth, row, col);
    });
  });
}

/// Frees of every pixel no output reads, before the main nest.
std::vector<Node> freeUnread(const Axis &rows, const Axis &cols,
                             const PixelBody &freePixel) {
  std::vector<Node> nodes = product(0, unreadOf(rows), allOf(cols), freePixel);
  append(nodes, product(0, allReadOf(rows), unreadOf(cols), freePixel));
  return nodes;
}

/// Output extent of a window of `kernel` over `extent` padded by `pads`.
int64_t windowOutputs(int64_t extent, int64_t pads, int64_t kernel,
                      int64_t stride) {
  return (extent + pads - kernel) / stride + 1;
}

std::optional<std::string> checkWindowed(int64_t h, int64_t w, int64_t cSeg,
                                         int64_t r, int64_t s, int64_t strideH,
                                         int64_t strideW, int64_t padTop,
                                         int64_t padLeft, int64_t padBottom,
                                         int64_t padRight) {
  if (h < 1 || w < 1 || cSeg < 1)
    return std::string("input extents must be positive");
  if (r < 1 || s < 1)
    return std::string("kernel extents must be positive");
  if (strideH < 1 || strideW < 1)
    return std::string("strides must be positive");
  if (padTop < 0 || padLeft < 0 || padBottom < 0 || padRight < 0)
    return std::string("padding must be non-negative");
  if (h + padTop + padBottom < r || w + padLeft + padRight < s)
    return std::string("kernel larger than the padded input");
  return std::nullopt;
}

} // namespace

PatternResult mlir::vmcu::analysis::fullyConnected(int64_t m, int64_t k,
                                                   int64_t n) {
  if (m < 1 || k < 1 || n < 1)
    return failure("fully connected extents must be positive");
  constexpr size_t mPos = 0, nPos = 1, kPos = 2, freeKPos = 3;
  std::vector<int64_t> inMap = {k, 1}, outMap = {n, 1};
  Node loads =
      makeLoop({affineConstant(0)}, {affineConstant(k)},
               {makeAccess(AccessKind::Load, TensorRole::Input,
                           {affineDim(mPos), affineDim(kPos)}, inMap)});
  Node frees =
      makeLoop({affineConstant(0)}, {affineConstant(k)},
               {makeAccess(AccessKind::Free, TensorRole::Input,
                           {affineDim(mPos), affineDim(freeKPos)}, inMap)});
  Node store = makeAccess(AccessKind::Store, TensorRole::Output,
                          {affineDim(mPos), affineDim(nPos)}, outMap);
  Node nLoop =
      makeLoop({affineConstant(0)}, {affineConstant(n)},
               {loads, guardAtLeast(affineDim(nPos), n - 1, {frees}), store});
  KernelPattern pattern{"fully_connected", m * k, m * n, 0, {}};
  pattern.body.push_back(
      makeLoop({affineConstant(0)}, {affineConstant(m)}, {nLoop}));
  return success(std::move(pattern));
}

PatternResult mlir::vmcu::analysis::conv2d(int64_t h, int64_t w, int64_t cSeg,
                                           int64_t r, int64_t s,
                                           int64_t strideH, int64_t strideW,
                                           int64_t padTop, int64_t padLeft,
                                           int64_t padBottom, int64_t padRight,
                                           int64_t kSeg) {
  if (auto error = checkWindowed(h, w, cSeg, r, s, strideH, strideW, padTop,
                                 padLeft, padBottom, padRight))
    return failure(*error);
  if (kSeg < 1)
    return failure("output channels must be positive");
  int64_t p = windowOutputs(h, padTop + padBottom, r, strideH);
  int64_t q = windowOutputs(w, padLeft + padRight, s, strideW);
  Axis rows{h, 1, h, r, strideH, padTop, p};
  Axis cols{w, 1, w, s, strideW, padLeft, q};
  std::vector<int64_t> inMap = {w * cSeg, cSeg, 1};
  std::vector<int64_t> outMap = {q * kSeg, kSeg, 1};

  auto allChannels = [&](AccessKind kind) -> PixelBody {
    return [kind, cSeg, inMap](size_t depth, const AxisIndex &row,
                               const AxisIndex &col) {
      return std::vector<Node>{makeLoop(
          {affineConstant(0)}, {affineConstant(cSeg)},
          {makeAccess(kind, TensorRole::Input,
                      {row.index, col.index, affineDim(depth)}, inMap)})};
    };
  };

  KernelPattern pattern{"conv2d", h * w * cSeg, p * q * kSeg, 0, {}};
  pattern.body = freeUnread(rows, cols, allChannels(AccessKind::Free));

  constexpr size_t pPos = 0, qPos = 1, kPos = 2, bodyDepth = 3;
  std::vector<Node> kBody =
      product(bodyDepth, windowOf(rows, pPos), windowOf(cols, qPos),
              allChannels(AccessKind::Load));
  kBody.push_back(guardAtLeast(affineDim(kPos), kSeg - 1,
                               product(bodyDepth + 1, lastUseOf(rows, pPos),
                                       lastUseOf(cols, qPos),
                                       allChannels(AccessKind::Free))));
  kBody.push_back(
      makeAccess(AccessKind::Store, TensorRole::Output,
                 {affineDim(pPos), affineDim(qPos), affineDim(kPos)}, outMap));
  Node kLoop =
      makeLoop({affineConstant(0)}, {affineConstant(kSeg)}, std::move(kBody));
  Node qLoop = makeLoop({affineConstant(0)}, {affineConstant(q)}, {kLoop});
  pattern.body.push_back(
      makeLoop({affineConstant(0)}, {affineConstant(p)}, {qLoop}));
  return success(std::move(pattern));
}

PatternResult mlir::vmcu::analysis::depthwiseConv2d(
    int64_t h, int64_t w, int64_t cSeg, int64_t r, int64_t s, int64_t strideH,
    int64_t strideW, int64_t padTop, int64_t padLeft, int64_t padBottom,
    int64_t padRight) {
  if (auto error = checkWindowed(h, w, cSeg, r, s, strideH, strideW, padTop,
                                 padLeft, padBottom, padRight))
    return failure(*error);
  int64_t p = windowOutputs(h, padTop + padBottom, r, strideH);
  int64_t q = windowOutputs(w, padLeft + padRight, s, strideW);
  Axis rows{h, 1, h, r, strideH, padTop, p};
  Axis cols{w, 1, w, s, strideW, padLeft, q};
  std::vector<int64_t> inMap = {w * cSeg, cSeg, 1};
  std::vector<int64_t> outMap = {q * cSeg, cSeg, 1};
  constexpr size_t pPos = 0, qPos = 1, cPos = 2, bodyDepth = 3;

  // One channel segment, either a loop (up-front frees) or the iv at cPos.
  auto channel = [&](AccessKind kind, bool loopOverChannels) -> PixelBody {
    return [=](size_t depth, const AxisIndex &row, const AxisIndex &col) {
      AffineExpr c = affineDim(loopOverChannels ? depth : cPos);
      Node access =
          makeAccess(kind, TensorRole::Input, {row.index, col.index, c}, inMap);
      if (!loopOverChannels)
        return std::vector<Node>{access};
      return std::vector<Node>{
          makeLoop({affineConstant(0)}, {affineConstant(cSeg)}, {access})};
    };
  };

  KernelPattern pattern{"depthwise_conv2d", h * w * cSeg, p * q * cSeg, 0, {}};
  pattern.body = freeUnread(rows, cols, channel(AccessKind::Free, true));

  std::vector<Node> cBody =
      product(bodyDepth, windowOf(rows, pPos), windowOf(cols, qPos),
              channel(AccessKind::Load, false));
  append(cBody, product(bodyDepth, lastUseOf(rows, pPos), lastUseOf(cols, qPos),
                        channel(AccessKind::Free, false)));
  cBody.push_back(
      makeAccess(AccessKind::Store, TensorRole::Output,
                 {affineDim(pPos), affineDim(qPos), affineDim(cPos)}, outMap));
  Node cLoop =
      makeLoop({affineConstant(0)}, {affineConstant(cSeg)}, std::move(cBody));
  Node qLoop = makeLoop({affineConstant(0)}, {affineConstant(q)}, {cLoop});
  pattern.body.push_back(
      makeLoop({affineConstant(0)}, {affineConstant(p)}, {qLoop}));
  return success(std::move(pattern));
}

PatternResult mlir::vmcu::analysis::bottleneck(
    int64_t h, int64_t w, int64_t cinSeg, int64_t coutSeg, int64_t r,
    const std::array<int64_t, 3> &strides, bool residual) {
  if (h < 1 || w < 1 || cinSeg < 1 || coutSeg < 1 || r < 1)
    return failure("bottleneck extents must be positive");
  if (r % 2 == 0)
    return failure("the depthwise kernel of a bottleneck must be odd");
  for (int64_t stride : strides)
    if (stride < 1)
      return failure("strides must be positive");
  const int64_t expandStride = strides[0], dwStride = strides[1],
                projectStride = strides[2];
  int64_t pad = r / 2;
  auto makeAxis = [&](int64_t extent) {
    int64_t expanded = (extent - 1) / expandStride + 1;
    int64_t dw = windowOutputs(expanded, 2 * pad, r, dwStride);
    int64_t projected = (dw - 1) / projectStride + 1;
    return Axis{extent, expandStride, expanded, r, dwStride * projectStride,
                pad,    projected};
  };
  Axis rows = makeAxis(h), cols = makeAxis(w);
  if (residual && (rows.out != h || cols.out != w || coutSeg != cinSeg))
    return failure("the residual add needs the output shape to equal the "
                   "input shape");

  std::vector<int64_t> inMap = {w * cinSeg, cinSeg, 1};
  std::vector<int64_t> outMap = {cols.out * coutSeg, coutSeg, 1};
  std::vector<int64_t> wsMap = {1};
  int64_t cSlot = r * r, dSlot = r * r + 1;

  auto allChannels = [&](AccessKind kind) -> PixelBody {
    return [kind, cinSeg, inMap](size_t depth, const AxisIndex &row,
                                 const AxisIndex &col) {
      return std::vector<Node>{makeLoop(
          {affineConstant(0)}, {affineConstant(cinSeg)},
          {makeAccess(kind, TensorRole::Input,
                      {row.index, col.index, affineDim(depth)}, inMap)})};
    };
  };
  auto windowSlot = [&](AccessKind kind) -> PixelBody {
    return
        [kind, r, wsMap](size_t, const AxisIndex &row, const AxisIndex &col) {
          return std::vector<Node>{
              makeAccess(kind, TensorRole::Workspace,
                         {row.windowPos * r + col.windowPos}, wsMap)};
        };
  };
  auto slot = [&](AccessKind kind, int64_t index) {
    return makeAccess(kind, TensorRole::Workspace, {affineConstant(index)},
                      wsMap);
  };

  KernelPattern pattern{"bottleneck",
                        h * w * cinSeg,
                        rows.out * cols.out * coutSeg,
                        r * r + kBottleneckExtraWorkspace,
                        {}};
  pattern.body = freeUnread(rows, cols, allChannels(AccessKind::Free));

  constexpr size_t aPos = 0, bPos = 1, bodyDepth = 2;
  AxisLoops rowWindow = windowOf(rows, aPos), colWindow = windowOf(cols, bPos);
  std::vector<Node> body =
      product(bodyDepth, rowWindow, colWindow, allChannels(AccessKind::Load));
  if (residual) {
    AxisIndex row{affineDim(aPos), affineConstant(0)};
    AxisIndex col{affineDim(bPos), affineConstant(0)};
    append(body, allChannels(AccessKind::Load)(bodyDepth, row, col));
  }
  append(body, product(bodyDepth, rowWindow, colWindow,
                       windowSlot(AccessKind::Store)));
  append(body, product(bodyDepth, rowWindow, colWindow,
                       windowSlot(AccessKind::Load)));
  body.push_back(slot(AccessKind::Store, cSlot));
  body.push_back(slot(AccessKind::Load, cSlot));
  body.push_back(slot(AccessKind::Store, dSlot));
  append(body, product(bodyDepth, lastUseOf(rows, aPos), lastUseOf(cols, bPos),
                       allChannels(AccessKind::Free)));
  Node kLoop = makeLoop(
      {affineConstant(0)}, {affineConstant(coutSeg)},
      {slot(AccessKind::Load, dSlot),
       makeAccess(AccessKind::Store, TensorRole::Output,
                  {affineDim(aPos), affineDim(bPos), affineDim(bodyDepth)},
                  outMap)});
  body.push_back(kLoop);
  Node bLoop = makeLoop({affineConstant(0)}, {affineConstant(cols.out)},
                        std::move(body));
  pattern.body.push_back(
      makeLoop({affineConstant(0)}, {affineConstant(rows.out)}, {bLoop}));
  return success(std::move(pattern));
}
