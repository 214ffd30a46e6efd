//===- ReferenceFlashTest.cpp - CMSIS-NN's flash for a model --------------===//

#include "vmcu/Analysis/ReferenceFlash.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <vector>

using namespace mlir::vmcu::analysis;

namespace {

TEST(ReferenceFlash, AFamilysCodeIsCountedOnce) {
  ReferenceLayer conv{ReferenceKernel::Conv, /*weightBytes=*/0,
                      /*biases=*/0, /*requantPairs=*/0};
  int64_t one = estimateReferenceFlashBytes({conv});
  int64_t two = estimateReferenceFlashBytes({conv, conv});
  EXPECT_GT(referenceKernelCodeBytes(ReferenceKernel::Conv), 0);
  // The second layer adds its call only.
  EXPECT_EQ(two - one, one - referenceKernelCodeBytes(ReferenceKernel::Conv));
}

TEST(ReferenceFlash, ALayerAddsWeightsBiasesAndRequantWords) {
  ReferenceLayer bare{ReferenceKernel::Conv, 0, 0, 0};
  ReferenceLayer full{ReferenceKernel::Conv, /*weightBytes=*/1000,
                      /*biases=*/10, /*requantPairs=*/10};
  // int8 weights, int32 biases, an int32 multiplier and shift per pair.
  EXPECT_EQ(estimateReferenceFlashBytes({full}) -
                estimateReferenceFlashBytes({bare}),
            1000 + 10 * 4 + 10 * 8);
}

TEST(ReferenceFlash, AReferenceKernelLinksNoCode) {
  EXPECT_EQ(referenceKernelCodeBytes(ReferenceKernel::Other), 0);
  ReferenceLayer other{ReferenceKernel::Other, 0, 0, 0};
  ReferenceLayer conv{ReferenceKernel::Conv, 0, 0, 0};
  EXPECT_EQ(estimateReferenceFlashBytes({other, conv}) -
                estimateReferenceFlashBytes({conv}),
            estimateReferenceFlashBytes({other}));
}

// Corpus FC autoencoder seed 2 as cmsis-anchor links it: eight per-tensor
// fully connected layers with 143,745 bytes of weights and biases; its
// model code, weights and CMSIS-NN functions took 153,677 bytes.
TEST(ReferenceFlash, MatchesAMeasuredFullyConnectedModel) {
  constexpr int64_t kLayers = 8, kWeightAndBiasBytes = 143745,
                    kMeasuredBytes = 153677;
  std::vector<ReferenceLayer> layers(
      kLayers, ReferenceLayer{ReferenceKernel::FullyConnected, 0, 0, 1});
  layers.front().weightBytes = kWeightAndBiasBytes;
  int64_t estimate = estimateReferenceFlashBytes(layers);
  EXPECT_LT(std::abs(estimate - kMeasuredBytes), kMeasuredBytes / 100);
}

} // namespace
