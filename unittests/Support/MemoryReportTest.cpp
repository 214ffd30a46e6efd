//===- MemoryReportTest.cpp - Tests for the residual-block bounds ---------===//
//
// getResidualBlocks on hand-built reports: a basic block whose last conv
// stores over the skip it adds, a skip that outlives its add, and a skip
// that is the model's input.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Support/MemoryReport.h"

#include "gtest/gtest.h"

using namespace mlir::vmcu;
using llvm::SmallVector;

namespace {

/// Appends tensor `name` of `bytes` bytes and returns its index.
unsigned addTensor(MemoryReport &report, const char *name, int64_t bytes) {
  report.tensors.push_back({name, 0, bytes});
  return report.tensors.size() - 1;
}

/// Appends a kernel from `input` to `output` with `footprint` bytes.
ReportLayer &addLayer(MemoryReport &report, unsigned input, unsigned output,
                      int64_t footprint) {
  ReportLayer layer;
  layer.name = "k" + std::to_string(report.layers.size());
  layer.input = input;
  layer.output = output;
  layer.footprintBytes = footprint;
  report.layers.push_back(layer);
  return report.layers.back();
}

/// x -> conv0 -> a -> conv1 -> t -> conv2 (+ a) -> y: the skip `a` is read
/// by conv1 and added by conv2, which stores y over it.
MemoryReport basicBlock() {
  MemoryReport report;
  unsigned x = addTensor(report, "x", 50), a = addTensor(report, "a", 100),
           t = addTensor(report, "t", 80), y = addTensor(report, "y", 100);
  addLayer(report, x, a, 150);
  addLayer(report, a, t, 180).tensorLevelBytes = 180;
  ReportLayer &add = addLayer(report, t, y, 190);
  add.alsoLive = {a};
  add.skips = {a};
  add.tensorLevelBytes = 280;
  return report;
}

TEST(MemoryReportTest, BasicBlockNeedsSkipPlusIntermediate) {
  MemoryReport report = basicBlock();
  SmallVector<ResidualBlock> blocks = getResidualBlocks(report);
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].first, 1u);
  EXPECT_EQ(blocks[0].last, 2u);
  EXPECT_EQ(blocks[0].skip, 1u);
  // conv1: a + t; conv2: t + a, y stored over a.
  EXPECT_EQ(blocks[0].boundBytes, 180);
  EXPECT_EQ(blocks[0].footprintBytes, 190);
  EXPECT_EQ(blocks[0].tensorLevelBytes, 280);
}

TEST(MemoryReportTest, SkipThatOutlivesItsAddCountsTheOutput) {
  MemoryReport report = basicBlock();
  unsigned z = addTensor(report, "z", 10);
  ReportLayer &later = addLayer(report, 3, z, 110);
  later.alsoLive = {1};
  SmallVector<ResidualBlock> blocks = getResidualBlocks(report);
  ASSERT_EQ(blocks.size(), 1u);
  // conv2 keeps a live beside t and y.
  EXPECT_EQ(blocks[0].boundBytes, 280);
}

TEST(MemoryReportTest, SkipFromTheModelInputStartsAtTheFirstKernel) {
  MemoryReport report;
  unsigned x = addTensor(report, "x", 40), t = addTensor(report, "t", 60),
           y = addTensor(report, "y", 40);
  addLayer(report, x, t, 100);
  ReportLayer &add = addLayer(report, t, y, 100);
  add.alsoLive = {x};
  add.skips = {x};
  SmallVector<ResidualBlock> blocks = getResidualBlocks(report);
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].first, 0u);
  EXPECT_EQ(blocks[0].boundBytes, 100);
}

TEST(MemoryReportTest, NoSkipsNoBlocks) {
  MemoryReport report;
  unsigned x = addTensor(report, "x", 40), y = addTensor(report, "y", 40);
  addLayer(report, x, y, 80);
  EXPECT_TRUE(getResidualBlocks(report).empty());
}

} // namespace
