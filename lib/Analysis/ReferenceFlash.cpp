//===- ReferenceFlash.cpp - the flash CMSIS-NN takes for a model ----------===//

#include "vmcu/Analysis/ReferenceFlash.h"

#include "llvm/ADT/SmallBitVector.h"

using namespace mlir::vmcu::analysis;

namespace {

// Bytes of the CMSIS-NN objects each kernel family links (.text and
// .rodata in cmsis-anchor's linker maps; -O3, Cortex-M4, arm-none-eabi-gcc
// 12.2). A family's wrapper links every variant it may dispatch to. The
// vector-matrix products a convolution may also call are counted with the
// fully connected family, which every measured model has.
/// arm_fully_connected_{s8,per_channel_s8,wrapper_s8,get_buffer_sizes_s8},
/// arm_nn_vec_mat_mult_t_s8 and arm_nn_vec_mat_mult_t_per_ch_s8.
constexpr int64_t kFullyConnectedCodeBytes = 8152;
/// arm_convolve_{s8,1x1_s8,1x1_s8_fast,1_x_n_s8,wrapper_s8,
/// get_buffer_sizes_s8}, arm_nn_mat_mult_kernel_{s8_s16,row_offset_s8_s16},
/// arm_nn_mat_mult_nt_t_s8 and arm_s8_to_s16_unordered_with_offset.
constexpr int64_t kConvCodeBytes = 7612;
/// arm_depthwise_conv_{s8,s8_opt,3x3_s8,wrapper_s8,get_buffer_sizes_s8}
/// and arm_q7_to_q15_with_offset.
constexpr int64_t kDepthwiseCodeBytes = 6980;
/// arm_avgpool_s8 and arm_avgpool_get_buffer_sizes_s8.
constexpr int64_t kAvgPoolCodeBytes = 640;
/// arm_elementwise_add_s8.
constexpr int64_t kAddCodeBytes = 2168;
/// arm_softmax_s8 and arm_nn_softmax_common_s8.
constexpr int64_t kSoftmaxCodeBytes = 3704;
// Not linked by any corpus model cmsis-anchor runs: the sizes of their
// objects in its libcmsisnn.a.
/// arm_max_pool_s8.
constexpr int64_t kMaxPoolCodeBytes = 948;
/// arm_elementwise_mul_s8.
constexpr int64_t kMulCodeBytes = 996;
/// arm_concatenation_s8_{x,y,z,w}.
constexpr int64_t kConcatCodeBytes = 224;
/// arm_transpose_s8.
constexpr int64_t kTransposeCodeBytes = 1072;

/// The call of one layer: its function and its parameter structs. The
/// measured models took 211-291 bytes per layer (cmsis-anchor's generated
/// model.c less its weights, biases and requantization words).
constexpr int64_t kBytesPerCall = 256;
constexpr int64_t kBiasBytes = 4;
/// A multiplier and a shift, both int32 (TFLite Micro's per-channel
/// arrays).
constexpr int64_t kRequantPairBytes = 8;

constexpr unsigned kKernelFamilies =
    static_cast<unsigned>(ReferenceKernel::Other) + 1;

} // namespace

int64_t mlir::vmcu::analysis::referenceKernelCodeBytes(ReferenceKernel kernel) {
  switch (kernel) {
  case ReferenceKernel::Conv:
    return kConvCodeBytes;
  case ReferenceKernel::Depthwise:
    return kDepthwiseCodeBytes;
  case ReferenceKernel::FullyConnected:
    return kFullyConnectedCodeBytes;
  case ReferenceKernel::AvgPool:
    return kAvgPoolCodeBytes;
  case ReferenceKernel::MaxPool:
    return kMaxPoolCodeBytes;
  case ReferenceKernel::Add:
    return kAddCodeBytes;
  case ReferenceKernel::Mul:
    return kMulCodeBytes;
  case ReferenceKernel::Softmax:
    return kSoftmaxCodeBytes;
  case ReferenceKernel::Concat:
    return kConcatCodeBytes;
  case ReferenceKernel::Transpose:
    return kTransposeCodeBytes;
  case ReferenceKernel::Other:
    return 0;
  }
  return 0;
}

int64_t mlir::vmcu::analysis::estimateReferenceFlashBytes(
    llvm::ArrayRef<ReferenceLayer> layers) {
  llvm::SmallBitVector linked(kKernelFamilies);
  int64_t bytes = 0;
  for (const ReferenceLayer &layer : layers) {
    bytes += layer.weightBytes + layer.biases * kBiasBytes +
             layer.requantPairs * kRequantPairBytes + kBytesPerCall;
    linked.set(static_cast<unsigned>(layer.kernel));
  }
  for (unsigned family : linked.set_bits())
    bytes += referenceKernelCodeBytes(static_cast<ReferenceKernel>(family));
  return bytes;
}
