//===- LayerWork.h - the work of a vmcu layer's kernel ----------*- C++ -*-===//
//
// MACs and outputs of the kernel vmcu-tile emits for a layer, in the cost
// model's terms (vmcu/Analysis/CostModel.h).
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_TRANSFORMS_LAYERWORK_H
#define VMCU_TRANSFORMS_LAYERWORK_H

#include "vmcu/Analysis/CostModel.h"
#include "vmcu/Dialect/VMCU/IR/VMCUOps.h"

namespace mlir::vmcu {

/// The work of `layer`'s kernel with segments of `segmentBytes` (a
/// bottleneck counts the expansion it recomputes per tap).
analysis::KernelWork layerWork(LayerOpInterface layer, int64_t segmentBytes);

/// The work of fused bottleneck `op`'s kernel with or without a line
/// buffer (whatever `op` has set), as layerWork.
analysis::KernelWork bottleneckWork(BottleneckOp op, int64_t segmentBytes,
                                    bool lineBuffer);

/// Ring segments the kernel of `layer` loads and stores with segments of
/// `segmentBytes`: each window's input pixels per output pixel, a tensor's
/// pixels once each elsewhere, a line buffer's writes and reads, and the
/// output. Counts steps of the kernel's segment loops: narrow segments
/// mean many of them for the same MACs.
int64_t ringAccesses(LayerOpInterface layer, int64_t segmentBytes);

/// The MACs of `layer` computed once each (no recomputation).
int64_t layerMacs(LayerOpInterface layer);

/// The work of `layer` whose speed widened weights buy; a bottleneck's is
/// its layers'.
analysis::WidenedWeightWork widenedWeightWork(LayerOpInterface layer);

/// The flash bytes widened weights add to `layer` (estimated from its
/// tables, not its code): a GEMM's or conv's int16 pairs take one more byte
/// per weight, a depthwise layer's 4-lane records (vmcu.depthwise_block)
/// more than its int8 weights, biases and requantization words. None for a
/// conv whose long GEMM rows stay int8 whatever widen-weights says
/// (widensLongRows).
int64_t widenedWeightExtraBytes(LayerOpInterface layer);

/// The register tiles of a GEMM over `rows` rows of `inC` int8 inputs and
/// `outC` outputs in segments of `segmentBytes` (TileGemm.cpp): `pixels`
/// rows (2 if the caller has 2 and a row fits kMaxPairRowBytes, or
/// kMaxWidenedPairRowBytes with LongRowTiling::pairVeryLong; else 1) x
/// `channels` output channels (4 beside one row, 2 beside two or 4 over
/// `pairedWeights` (vmcu.dot_block's paired_weights), when whole
/// groups of them and of segments tile Cout; else, in a segment wider than
/// the tile, tiles of that many and one of the rest; else groups of one
/// tile, the last one short); rows are `rowStride` bytes apart (Cin rounded
/// up to the 4 SIMD lanes). Outputs are computed and stored `groupBytes` at
/// a time (whole segments; Cout's last group takes the channels the others
/// leave, and a group's last tile the channels its tiles leave). Two-row
/// tiles keep the rows `widened` to int16 pairs (vmcu.widen_pairs): the
/// tile then unpacks only weights; such tiles also take `widenedWeights`
/// (int16 pairs packed offline, twice the flash) and unpack nothing: 2 x 3
/// tiles, whose groups are the whole segments with the fewest cycles over
/// Cout (at most 48 bytes unless a segment is larger). A single row
/// (`rows` == 1, or rows too long to pair) into at least
/// kMinRowWideWeightChannels outputs takes widened weights over the raw
/// row: 1 x 5 tiles, grouped the same way. Its stack buffers are `pixels`
/// rows (twice over when widened) and `pixels` groups.
struct GemmTileShape {
  int64_t pixels;
  int64_t channels;
  int64_t rowStride;
  int64_t groupBytes;
  bool widened;
  bool widenedWeights = false;

  int64_t scratchBytes() const {
    int64_t rows = widened ? 3 * rowStride : rowStride;
    return pixels * (rows + groupBytes);
  }
};
/// How a layer's long GEMM rows are tiled (gemmTileShape).
struct LongRowTiling {
  /// Rows of over kMaxShortRowBytes (129 to 256 bytes, widened in pairs;
  /// or rows too long to pair, under 1 x 5 tiles) take widened weights;
  /// else they stay raw, in int8 tiles (widensLongRows).
  bool widenWeights = true;
  /// Rows past kMaxPairRowBytes pair too, widened to int16 (2 x 2 tiles
  /// over int8 weights, or 2 x 3 over widened ones) at 6 bytes of stack
  /// per row byte; else they run one raw row at a time (a conv2d's
  /// `paired_rows`, set by vmcu-pair-long-rows).
  bool pairVeryLong = false;
};

/// int8 values whose sum stays within int16 (256 * -128 = -32768): an
/// average pool's int16 pair sums widen to int32 at least this often.
inline constexpr int64_t kInt16SumTerms = 256;

/// Output channels of one int8 register tile over a single row (a fully
/// connected layer on one vector): 1 x 4 (gemmTileShape), or 1 x 6 over
/// paired weights (kOneRowPairedTileChannels).
inline constexpr int64_t kOneRowInt8TileChannels = 4;

/// Output channels of a single row's tile over paired int8 weights, where
/// a group is one tile: 1 x 6, whose sums, row halves, three weight words
/// and pointers fill 13 registers (pairedRowWeightWords; four words and 14
/// registers measured faster but with a larger frame, docs/kernels.md).
inline constexpr int64_t kOneRowPairedTileChannels = 6;

/// Stack bytes of an average pool's sums over a segment of `lanes`
/// channels: two words of int16 pairs per whole word of 4 lanes (and an
/// int32 sum per lane of those words where the window has more than
/// kInt16SumTerms taps), an int32 sum per remaining lane.
int64_t avgPoolSumBytes(int64_t lanes, int64_t windowTaps);

/// `allowSixWide`: a single row over paired weights may take 1 x 6 tiles
/// (kOneRowPairedTileChannels); false keeps 1 x 4 (their code is smaller:
/// GemmTiles::chooseShape prices the difference).
GemmTileShape gemmTileShape(int64_t rows, int64_t inC, int64_t outC,
                            int64_t segmentBytes, bool widenWeights = true,
                            LongRowTiling longRows = {},
                            bool pairedWeights = false,
                            bool allowSixWide = true);

/// Whether `layer`'s long GEMM rows (see gemmTileShape) take widened
/// weights: where each weight serves at least kMinLongRowWeightReuse
/// output pixels (the layer's MACs per weight), so that each flash byte
/// the widening adds saves enough cycles.
bool widensLongRows(LayerOpInterface layer);

/// `layer`'s long-row tiling: widensLongRows, and a conv2d's
/// `paired_rows`.
LongRowTiling longRowTiling(LayerOpInterface layer);

/// Whether `layer` is a conv2d whose GEMM rows pair only with `paired_rows`
/// (im2col windows or pointwise inputs of kMaxPairRowBytes to
/// kMaxWidenedPairRowBytes bytes, over outputs more than a pixel wide).
bool hasPairableLongRows(LayerOpInterface layer);

/// Estimated cycles `paired_rows` saves `layer` (hasPairableLongRows).
int64_t pairedRowsSavedCycles(LayerOpInterface layer);

/// True if `layer` is a conv2d or fully_connected that vmcu-tile emits as
/// a GEMM: a fully connected layer, or a 1x1 stride-1 unpadded conv.
bool isGemmLayer(LayerOpInterface layer);

/// Whether the kernel of a vmcu.add or vmcu.mul stages `operand` on the
/// stack before its loops: a ring operand (not a constant) of another
/// shape than the output `out` whose every dimension but the innermost is
/// 1 (a per-channel gate, or one element).
bool isStagedBinaryOperand(Value operand, Type out);

/// The taps of a conv's window its im2col rows gather: every rowStep-th
/// window row and colStep-th column from the first, `rows` x `cols` of
/// them. The weights of the taps between are all 0, so they add nothing to
/// any sum: a dilated conv's, which convert-tosa-to-vmcu densifies with
/// zero taps ((k - 1) * d + 1 per dimension).
struct GatheredTaps {
  int64_t rowStep = 1, colStep = 1;
  int64_t rows = 1, cols = 1;

  /// Whether taps are skipped along either axis.
  bool stepped() const { return rowStep > 1 || colStep > 1; }
};

/// The taps of a conv's constant weights [Cout][kr][kc][Cin] its im2col
/// rows gather: the largest steps (dividing kr - 1 and kc - 1) off which
/// no tap has a nonzero weight (every tap if the weights are not a
/// constant, or the conv is a fused bottleneck's: those run every tap).
GatheredTaps gatheredTaps(Conv2DOp conv);

/// gatheredTaps of a depthwise layer's constant weights [R][S][C*M][1]:
/// the taps its window buffer holds (every tap in a fused bottleneck).
GatheredTaps gatheredTaps(DepthwiseConv2DOp depthwise);

/// Output pixels of a row an im2col conv (WindowGemm: usesIm2col convs and
/// stem bottlenecks' expansions) gathers at once: its GEMM tiles' register
/// blocks reuse each weight word across them.
constexpr int64_t kIm2colBlockPixels = 2;

/// Whether `layer` is a windowed conv2d that vmcu-tile emits as GEMM tiles
/// over an im2col column of its windows (WindowGemm): always where its
/// segments are narrower than the 4 SIMD lanes (stem convs), else where a
/// window fits kMaxIm2colWindowBytes (LayerWork.cpp) of stack. Larger
/// windows take 4-lane dot rows per segment.
bool usesIm2col(LayerOpInterface layer, int64_t segmentBytes);

/// The channel group a stem bottleneck's depthwise part works in, whatever
/// the ring's segment: the largest of 16, 8, 4, 2 and 1 dividing `cmid`
/// (whole blocks of vmcu.depthwise_block's 4 lanes where it can, its
/// window as small as an ordinary depthwise layer's).
int64_t stemChannelGroup(int64_t cmid);

/// The channel group a line-buffer bottleneck's depthwise part gathers its
/// window of `taps` in: a stem's (stemChannelGroup); else the ring's
/// segment where it holds whole 4-lane blocks, otherwise the widest
/// multiple of it dividing `cmid` whose window fits kMaxLineBufferWindowBytes
/// (LayerWork.cpp), one of whole blocks if any: each group pays a padding
/// test and a ring wrap per tap, and lanes that are no block's run in
/// scalar code.
int64_t lineBufferChannelGroup(int64_t cmid, int64_t segmentBytes, int64_t taps,
                               bool stem);

/// The stack bytes of the buffers `layer`'s kernel allocates with
/// segments of `segmentBytes` (accumulators, staging segments, the
/// depthwise window, a stem's line buffer), as TileKernels.cpp emits them
/// for `cores` cores (on two, with twoCoreRemainderScratchBytes; a stem's
/// line buffer is then a global, still counted here: kernelStackBytes).
int64_t kernelScratchBytes(LayerOpInterface layer, int64_t segmentBytes,
                           int64_t cores);

/// The part of kernelScratchBytes on the kernel's own stack: on two cores
/// a stem's line buffer is a global both cores see (.bss) instead.
int64_t kernelStackBytes(LayerOpInterface layer, int64_t segmentBytes,
                         int64_t cores);

/// Whether a line-buffer kernel on two cores computes the last block of
/// `pixels` of each row of `extent` pixels pixel by pixel, in a phase of
/// its own: the row is an odd number of whole blocks, which the cores
/// would otherwise share out one block apart.
bool splitsLastBlock(int64_t extent, int64_t pixels);

/// The stack bytes a line-buffer bottleneck's kernel adds on two cores:
/// where its expansion's or its projection's pixel blocks leave a last
/// pixel (a stem's expansion: a shorter block of im2col rows) in each row,
/// that pixel gets buffers of its own (the expansion's
/// rows; the window, the projection's rows, the output and residual
/// segments), so that the loop over the
/// blocks hands it nothing through the stack and vmcu-distribute-kernels
/// can share the blocks out. 0 for other layers.
struct TwoCoreRemainderBytes {
  int64_t expand = 0, project = 0;
  int64_t total() const { return expand + project; }
};
TwoCoreRemainderBytes twoCoreRemainderScratchBytes(LayerOpInterface layer,
                                                   int64_t segmentBytes);

/// The expansion's buffers for the pixels of its last block expanded
/// pixel by pixel on two cores (splitsLastBlock; not a stem's): 0 where its
/// rows are no odd number of whole blocks. Not in kernelScratchBytes:
/// vmcu-tile spends them only within the stack the plan's largest kernel
/// takes anyway.
int64_t twoCoreLastBlockScratchBytes(LayerOpInterface layer,
                                     int64_t segmentBytes);

} // namespace mlir::vmcu

#endif // VMCU_TRANSFORMS_LAYERWORK_H
