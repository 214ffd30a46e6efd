//===- RingSimulatorTest.cpp - Tests for the brute-force ring simulator ---===//
//
// The simulator is the oracle of the solver tests, so its own verdicts are
// checked here on hand-built patterns with known outcomes.
//
//===----------------------------------------------------------------------===//

#include "TestAnalysis/RingSimulator.h"
#include "TestAnalysis/KernelPatterns.h"
#include "vmcu/Analysis/OffsetSolver.h"

#include "gtest/gtest.h"

using namespace mlir::vmcu::analysis;

namespace {

Node access(AccessKind kind, TensorRole role, int64_t address) {
  return Access{kind, role, {affineConstant(address)}, {1}};
}

/// In = 2 segments, Out = 2: load In[0]; store Out[0]; free In[0];
/// load In[1]; free In[1]; store Out[1].
KernelPattern smallPattern() {
  KernelPattern pattern{"small", 2, 2, 0, {}};
  pattern.body = {access(AccessKind::Load, TensorRole::Input, 0),
                  access(AccessKind::Store, TensorRole::Output, 0),
                  access(AccessKind::Free, TensorRole::Input, 0),
                  access(AccessKind::Load, TensorRole::Input, 1),
                  access(AccessKind::Free, TensorRole::Input, 1),
                  access(AccessKind::Store, TensorRole::Output, 1)};
  return pattern;
}

TEST(RingSimulatorTest, DefaultPoolIsTheFootprint) {
  KernelPattern pattern = smallPattern();
  // d = 0: Out[0] lands on live In[0].
  SimulationResult inPlace = simulateRing(pattern, 0);
  EXPECT_FALSE(inPlace.ok);
  EXPECT_EQ(inPlace.message.rfind("event #1 Store Output[0]", 0), 0u)
      << inPlace.message;
  EXPECT_NE(inPlace.message.find("live Input[0]"), std::string::npos);
  // d = 1: Out[0] takes a fresh slot, Out[1] the dead In[0].
  SimulationResult shifted = simulateRing(pattern, 1);
  EXPECT_TRUE(shifted.ok) << shifted.message;
  EXPECT_EQ(shifted.unfreedInputs, 0);
  EXPECT_EQ(solveOffsets(pattern).distance, 1);
}

TEST(RingSimulatorTest, NegativeDistancePlacesOutputAhead) {
  KernelPattern pattern = smallPattern();
  // d = -2: the output lies entirely before the input.
  SimulationResult result = simulateRing(pattern, -2);
  EXPECT_TRUE(result.ok) << result.message;
  // d = -1: Out[0] lands on the live In[1].
  EXPECT_FALSE(simulateRing(pattern, -1).ok);
}

TEST(RingSimulatorTest, SmallPoolWrapsAround) {
  KernelPattern pattern = smallPattern();
  // Footprint for d = 1 is 3; two slots wrap Out[0] onto In[1].
  SimulationResult wrapped = simulateRing(pattern, 1, 2);
  EXPECT_FALSE(wrapped.ok);
  EXPECT_NE(wrapped.message.find("live Input[1]"), std::string::npos)
      << wrapped.message;
  SimulationResult tooSmall = simulateRing(pattern, 1, 1);
  EXPECT_FALSE(tooSmall.ok);
  EXPECT_NE(tooSmall.message.find("pool smaller than the input"),
            std::string::npos);
}

TEST(RingSimulatorTest, ReportsMissingAndClobberedOutputs) {
  KernelPattern missing{"missing", 1, 2, 0, {}};
  missing.body = {access(AccessKind::Free, TensorRole::Input, 0),
                  access(AccessKind::Store, TensorRole::Output, 0)};
  SimulationResult result = simulateRing(missing, 0);
  EXPECT_FALSE(result.ok);
  EXPECT_NE(result.message.find("Output[1] is missing"), std::string::npos)
      << result.message;

  // A workspace placed in a too-small pool overwrites a stored output.
  KernelPattern workspace{"workspace", 1, 1, 1, {}};
  workspace.body = {access(AccessKind::Free, TensorRole::Input, 0),
                    access(AccessKind::Store, TensorRole::Output, 0),
                    access(AccessKind::Store, TensorRole::Workspace, 0)};
  EXPECT_TRUE(simulateRing(workspace, 0).ok);
  SimulationResult clobbered = simulateRing(workspace, 0, 1);
  EXPECT_FALSE(clobbered.ok);
  EXPECT_NE(clobbered.message.find("event #2 Store Workspace[0]"),
            std::string::npos)
      << clobbered.message;
}

TEST(RingSimulatorTest, ReportsInvalidEvents) {
  KernelPattern reload{"reload", 1, 1, 0, {}};
  reload.body = {access(AccessKind::Free, TensorRole::Input, 0),
                 access(AccessKind::Store, TensorRole::Output, 0),
                 access(AccessKind::Load, TensorRole::Input, 0)};
  SimulationResult result = simulateRing(reload, 0);
  EXPECT_FALSE(result.ok);
  EXPECT_NE(result.message.find("event #2 Load Input[0]"), std::string::npos)
      << result.message;
  EXPECT_TRUE(validate(reload).has_value());

  KernelPattern outOfRange{"range", 1, 1, 0, {}};
  outOfRange.body = {access(AccessKind::Store, TensorRole::Output, 1)};
  EXPECT_FALSE(simulateRing(outOfRange, 1).ok);
  EXPECT_TRUE(validate(outOfRange).has_value());
}

TEST(RingSimulatorTest, CountsUnfreedInputs) {
  KernelPattern pattern{"unfreed", 3, 1, 0, {}};
  pattern.body = {access(AccessKind::Free, TensorRole::Input, 1),
                  access(AccessKind::Store, TensorRole::Output, 0)};
  SimulationResult result = simulateRing(pattern, 0);
  EXPECT_FALSE(result.ok); // Out[0] hits the live In[0]
  result = simulateRing(pattern, -1);
  EXPECT_TRUE(result.ok) << result.message; // into the freed In[1]
  EXPECT_EQ(result.unfreedInputs, 2);
  EXPECT_EQ(solveOffsets(pattern).distance, -1);
}

TEST(RingSimulatorTest, SolverDistanceFailsWithOneSlotLess) {
  PatternResult conv = conv2d(6, 6, 2, 3, 3, 1, 1, 1, 1, 1, 1, 2);
  ASSERT_TRUE(conv.ok()) << conv.error;
  OffsetSolution solution = solveOffsets(*conv);
  RingSimulator simulator(*conv);
  EXPECT_TRUE(simulator.run(solution.distance).ok);
  EXPECT_TRUE(
      simulator.run(solution.distance, solution.footprintSegments + 1).ok);
  EXPECT_FALSE(
      simulator.run(solution.distance, solution.footprintSegments - 1).ok);
}

} // namespace
