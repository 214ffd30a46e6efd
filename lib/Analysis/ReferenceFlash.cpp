//===- ReferenceFlash.cpp - the flash CMSIS-NN takes for a model ----------===//

#include "vmcu/Analysis/ReferenceFlash.h"

#include "llvm/ADT/SmallBitVector.h"

#include <iterator>

using namespace mlir::vmcu::analysis;

namespace {

/// Bytes of the CMSIS-NN objects each kernel family links, in
/// ReferenceKernel order (.text and .rodata in cmsis-anchor's linker maps;
/// -O3, Cortex-M4, arm-none-eabi-gcc 12.2). A family's wrapper links every
/// variant it may dispatch to. The vector-matrix products a convolution may
/// also call are counted with the fully connected family, which every
/// measured model has. Max pool, mul, concatenation and transpose, which no
/// corpus model cmsis-anchor runs links, are their objects' sizes in its
/// libcmsisnn.a.
constexpr int64_t kKernelCodeBytes[] = {
    // Conv: arm_convolve_{s8,1x1_s8,1x1_s8_fast,1_x_n_s8,wrapper_s8,
    // get_buffer_sizes_s8}, arm_nn_mat_mult_kernel_{s8_s16,
    // row_offset_s8_s16}, arm_nn_mat_mult_nt_t_s8,
    // arm_s8_to_s16_unordered_with_offset.
    7612,
    // Depthwise: arm_depthwise_conv_{s8,s8_opt,3x3_s8,wrapper_s8,
    // get_buffer_sizes_s8}, arm_q7_to_q15_with_offset.
    6980,
    // FullyConnected: arm_fully_connected_{s8,per_channel_s8,wrapper_s8,
    // get_buffer_sizes_s8}, arm_nn_vec_mat_mult_t_{s8,per_ch_s8}.
    8152,
    // AvgPool: arm_avgpool_s8, arm_avgpool_get_buffer_sizes_s8.
    640,
    // MaxPool: arm_max_pool_s8.
    948,
    // Add: arm_elementwise_add_s8.
    2168,
    // Mul: arm_elementwise_mul_s8.
    996,
    // Softmax: arm_softmax_s8, arm_nn_softmax_common_s8.
    3704,
    // Concat: arm_concatenation_s8_{x,y,z,w}.
    224,
    // Transpose: arm_transpose_s8.
    1072,
    // Other: TFLite Micro's reference kernel, no CMSIS-NN code.
    0,
};

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
static_assert(std::size(kKernelCodeBytes) == kKernelFamilies,
              "a code size per ReferenceKernel");

} // namespace

int64_t mlir::vmcu::analysis::referenceKernelCodeBytes(ReferenceKernel kernel) {
  return kKernelCodeBytes[static_cast<size_t>(kernel)];
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
