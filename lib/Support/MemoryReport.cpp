//===- MemoryReport.cpp - the arena placement as JSON and SVG -------------===//
//
// Renders the placement of vmcu-solve-offsets: the JSON memory report and an
// SVG picture of the ring, one column per layer.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Support/MemoryReport.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <iterator>

using namespace mlir;
using namespace mlir::vmcu;

int64_t MemoryReport::getPeakLayer() const {
  auto peak =
      llvm::max_element(layers, [](const ReportLayer &a, const ReportLayer &b) {
        return a.footprintBytes < b.footprintBytes;
      });
  return peak == layers.end() ? -1 : std::distance(layers.begin(), peak);
}

SmallVector<ArenaRange, 2>
mlir::vmcu::getArenaRanges(const ReportTensor &tensor, int64_t arenaBytes) {
  if (tensor.bytes <= 0 || arenaBytes <= 0)
    return {};
  int64_t begin = ((tensor.baseBytes % arenaBytes) + arenaBytes) % arenaBytes;
  int64_t end = begin + std::min(tensor.bytes, arenaBytes);
  if (end <= arenaBytes)
    return {{begin, end}};
  return {{begin, arenaBytes}, {0, end - arenaBytes}};
}

//===----------------------------------------------------------------------===//
// Residual blocks
//===----------------------------------------------------------------------===//

namespace {

/// Whether a kernel after `last` reads `tensor`.
bool readAfter(const MemoryReport &report, unsigned last, unsigned tensor) {
  for (const ReportLayer &layer :
       ArrayRef<ReportLayer>(report.layers).drop_front(last + 1))
    if (layer.input == tensor || llvm::is_contained(layer.alsoLive, tensor))
      return true;
  return false;
}

/// What kernel `j` of a block with skip `skip` ending at `last` needs: the
/// skip and every other tensor it reads or keeps live, and its output
/// unless that is the last kernel's, stored over the dead skip.
int64_t kernelBound(const MemoryReport &report, unsigned j, unsigned last,
                    unsigned skip, bool skipOutlives) {
  const ReportLayer &layer = report.layers[j];
  llvm::SmallDenseSet<unsigned, 4> tensors = {skip, layer.input};
  tensors.insert(layer.alsoLive.begin(), layer.alsoLive.end());
  if (j != last || skipOutlives)
    tensors.insert(layer.output);
  int64_t bytes = 0;
  for (unsigned t : tensors)
    bytes += report.tensors[t].bytes;
  return bytes;
}

} // namespace

SmallVector<ResidualBlock>
mlir::vmcu::getResidualBlocks(const MemoryReport &report) {
  SmallVector<ResidualBlock> blocks;
  for (auto [last, layer] : llvm::enumerate(report.layers)) {
    for (unsigned skip : layer.skips) {
      // The block starts after the skip's producer (at 0 for an input).
      unsigned first = 0;
      for (unsigned j = 0; j < last; ++j)
        if (report.layers[j].output == skip)
          first = j + 1;
      bool skipOutlives = readAfter(report, last, skip);
      ResidualBlock block{first, static_cast<unsigned>(last), skip};
      for (unsigned j = first; j <= last; ++j) {
        block.boundBytes = std::max(
            block.boundBytes, kernelBound(report, j, last, skip, skipOutlives));
        block.footprintBytes =
            std::max(block.footprintBytes, report.layers[j].footprintBytes);
        block.tensorLevelBytes =
            std::max(block.tensorLevelBytes, report.layers[j].tensorLevelBytes);
      }
      blocks.push_back(block);
    }
  }
  return blocks;
}

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

llvm::json::Value mlir::vmcu::toJSON(const MemoryReport &report) {
  llvm::json::Array layers;
  for (const ReportLayer &layer : report.layers) {
    llvm::json::Array alsoLive;
    for (unsigned t : layer.alsoLive)
      alsoLive.push_back(report.tensors[t].name);
    layers.push_back(llvm::json::Object{
        {"name", layer.name},
        {"op", layer.op},
        {"segment_bytes", layer.segmentBytes},
        {"in_bytes", report.tensors[layer.input].bytes},
        {"out_bytes", report.tensors[layer.output].bytes},
        {"workspace_bytes", layer.workspaceBytes},
        {"distance_segments", layer.distanceSegments},
        {"footprint_bytes", layer.footprintBytes},
        {"tensor_level_bytes", layer.tensorLevelBytes},
        {"schedule", layer.schedule},
        {"macs", layer.macs},
        {"executed_macs", layer.executedMacs},
        {"ring_accesses", layer.ringAccesses},
        {"estimated_cycles", layer.estimatedCycles},
        {"int8_weight_cycles", layer.int8WeightCycles},
        {"int8_weights", layer.int8Weights},
        {"compact", layer.compact},
        {"compact_cycles", layer.compactCycles},
        {"stack_bytes", layer.stackBytes},
        {"also_live", std::move(alsoLive)},
    });
  }
  llvm::json::Array residualBlocks;
  for (const ResidualBlock &block : getResidualBlocks(report))
    residualBlocks.push_back(llvm::json::Object{
        {"first", report.layers[block.first].name},
        {"last", report.layers[block.last].name},
        {"skip", report.tensors[block.skip].name},
        {"skip_bytes", report.tensors[block.skip].bytes},
        {"bound_bytes", block.boundBytes},
        {"footprint_bytes", block.footprintBytes},
        {"tensor_level_bytes", block.tensorLevelBytes},
    });
  llvm::json::Array tensors;
  for (const ReportTensor &tensor : report.tensors)
    tensors.push_back(llvm::json::Object{{"name", tensor.name},
                                         {"base_bytes", tensor.baseBytes},
                                         {"bytes", tensor.bytes}});
  return llvm::json::Object{
      {"peak_ram_bytes", report.peakRamBytes},
      {"pool_unit_bytes", report.poolUnitBytes},
      {"pool_segments", report.poolSegments},
      {"tensor_level_bytes", report.tensorLevelBytes},
      {"lower_bound_bytes", report.lowerBoundBytes},
      {"layers", std::move(layers)},
      {"residual_blocks", std::move(residualBlocks)},
      {"tensors", std::move(tensors)},
  };
}

//===----------------------------------------------------------------------===//
// SVG
//===----------------------------------------------------------------------===//

namespace {

// Layout in SVG user units (px).
constexpr int kMarginLeft = 120;   // address labels
constexpr int kMarginTop = 64;     // title and peak label
constexpr int kMarginBottom = 220; // rotated layer labels
constexpr int kColumnWidth = 48;
constexpr int kBarWidth = 36; // input half, then output half
constexpr int kPlotHeight = 480;
constexpr int kLegendGap = 32;
constexpr int kLegendWidth = 280;
constexpr int kLegendRow = 18;
constexpr int kSwatch = 12;
constexpr int kFontSize = 12;

// Hues one golden angle apart stay distinct for any number of tensors.
constexpr double kGoldenAngleDeg = 137.50776;
constexpr double kSaturation = 0.6;
// Neighbours in hue also differ in lightness.
constexpr double kLightness[] = {0.55, 0.40, 0.70};

/// `#rrggbb` of HSL (h in degrees, s and l in [0, 1]); CSS Color 3, 4.2.4.
std::string hslToHex(double h, double s, double l) {
  double c = (1 - std::fabs(2 * l - 1)) * s;
  double hp = std::fmod(h, 360.0) / 60.0;
  double x = c * (1 - std::fabs(std::fmod(hp, 2.0) - 1));
  double r = 0, g = 0, b = 0;
  if (hp < 1)
    r = c, g = x;
  else if (hp < 2)
    r = x, g = c;
  else if (hp < 3)
    g = c, b = x;
  else if (hp < 4)
    g = x, b = c;
  else if (hp < 5)
    r = x, b = c;
  else
    r = c, b = x;
  double m = l - c / 2;
  auto byte = [&](double v) {
    return static_cast<unsigned>(std::lround((v + m) * 255));
  };
  return llvm::formatv("#{0:x-2}{1:x-2}{2:x-2}", byte(r), byte(g), byte(b))
      .str();
}

std::string tensorColor(unsigned index) {
  return hslToHex(index * kGoldenAngleDeg, kSaturation,
                  kLightness[index % std::size(kLightness)]);
}

/// Escapes the XML special characters of `text`.
std::string escapeXML(StringRef text) {
  std::string out;
  for (char c : text) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

/// The picture's geometry: the arena scaled to the plot's height, one
/// column per layer, the legend to the right.
struct SvgLayout {
  explicit SvgLayout(const MemoryReport &report)
      : arena(std::max<int64_t>(report.peakRamBytes, 1)) {
    int numLayers = report.layers.size();
    plotWidth = std::max(numLayers, 1) * kColumnWidth;
    legendX = kMarginLeft + plotWidth + kLegendGap;
    int legendHeight = (report.tensors.size() + 1) * kLegendRow;
    width = legendX + kLegendWidth;
    height = kMarginTop +
             std::max(kPlotHeight + kMarginBottom, legendHeight + kLegendRow);
  }
  double yOf(int64_t bytes) const {
    return kMarginTop + static_cast<double>(bytes) * kPlotHeight / arena;
  }
  int columnX(int layer) const { return kMarginLeft + layer * kColumnWidth; }

  int64_t arena;
  int plotWidth, legendX, width, height;
};

std::string fmt(double v) { return llvm::formatv("{0:f1}", v).str(); }

/// The title (the arena against a tensor-level planner) and the arena.
void printTitleAndArena(llvm::raw_ostream &os, const MemoryReport &report,
                        const SvgLayout &layout) {
  int plotWidth = layout.plotWidth;
  std::string ratio =
      report.tensorLevelBytes > 0
          ? llvm::formatv(" ({0:f1}%)",
                          100.0 * report.peakRamBytes / report.tensorLevelBytes)
                .str()
          : std::string();
  os << "<text class=\"title\" x=\"" << kMarginLeft << "\" y=\""
     << kMarginTop / 3 << "\" font-size=\"" << kFontSize + 4
     << "\">peak_ram_bytes = " << report.peakRamBytes
     << " vs tensor_level_bytes = " << report.tensorLevelBytes << ratio
     << "</text>\n";

  // The arena: address 0 at the top, the pool size at the bottom.
  os << "<rect class=\"arena\" x=\"" << kMarginLeft << "\" y=\"" << kMarginTop
     << "\" width=\"" << plotWidth << "\" height=\"" << kPlotHeight
     << "\" fill=\"#f4f4f4\" stroke=\"#888888\"/>\n";
  os << "<text class=\"address\" x=\"" << kMarginLeft - 6 << "\" y=\""
     << kMarginTop + kFontSize / 3 << "\" text-anchor=\"end\">0</text>\n";
  os << "<text class=\"address\" x=\"" << kMarginLeft - 6 << "\" y=\""
     << kMarginTop + kPlotHeight + kFontSize / 3
     << "\" text-anchor=\"end\">pool " << report.peakRamBytes << " B</text>\n";
  os << "<text class=\"axis\" x=\"" << kMarginLeft - 6 << "\" y=\""
     << kMarginTop + kPlotHeight / 2
     << "\" text-anchor=\"end\">address</text>\n";
}

/// The peak layer, outlined behind its bars.
void printPeak(llvm::raw_ostream &os, const MemoryReport &report,
               const SvgLayout &layout) {
  int64_t peak = report.getPeakLayer();
  auto columnX = [&](int layer) { return layout.columnX(layer); };
  if (peak >= 0) {
    const ReportLayer &layer = report.layers[peak];
    os << "<rect class=\"peak\" x=\"" << columnX(peak) + 1 << "\" y=\""
       << kMarginTop - kFontSize - 4 << "\" width=\"" << kColumnWidth - 2
       << "\" height=\"" << kPlotHeight + kFontSize + 8
       << "\" fill=\"#fff0f0\" stroke=\"#d62728\" "
          "stroke-width=\"2\"><title>peak: "
       << escapeXML(layer.name) << ", " << layer.footprintBytes
       << " B</title></rect>\n";
    os << "<text class=\"peak-label\" x=\"" << columnX(peak) + kColumnWidth / 2
       << "\" y=\"" << kMarginTop - kFontSize - 8
       << "\" text-anchor=\"middle\" fill=\"#d62728\">peak "
       << layer.footprintBytes << " B</text>\n";
  }
}

/// Layer k's column: one rectangle per contiguous range of each live
/// tensor (the input in the left half, the output in the right half, the
/// earlier tensors live across it over the whole width) and its label.
void printLayerColumn(llvm::raw_ostream &os, const MemoryReport &report,
                      const SvgLayout &layout, int k,
                      const ReportLayer &layer) {
  int64_t arena = layout.arena;
  auto yOf = [&](int64_t bytes) { return layout.yOf(bytes); };
  auto columnX = [&](int l) { return layout.columnX(l); };
  double half = kBarWidth / 2.0;
  double left = columnX(k) + (kColumnWidth - kBarWidth) / 2.0;
  // One rectangle per contiguous range of tensor `index`, `width` wide.
  auto printRanges = [&](unsigned index, StringRef cssClass, StringRef role,
                         double x, double width) {
    const ReportTensor &tensor = report.tensors[index];
    for (ArenaRange range : getArenaRanges(tensor, arena))
      os << "<rect class=\"" << cssClass << "\" x=\"" << fmt(x) << "\" y=\""
         << fmt(yOf(range.begin)) << "\" width=\"" << fmt(width)
         << "\" height=\"" << fmt(yOf(range.end) - yOf(range.begin))
         << "\" fill=\"" << tensorColor(index)
         << "\" stroke=\"#333333\" stroke-width=\"0.5\"><title>"
         << escapeXML(layer.name) << " " << role << ": "
         << escapeXML(tensor.name) << " [" << range.begin << ", " << range.end
         << ")</title></rect>\n";
  };
  printRanges(layer.input, "tensor", "in", left, half);
  printRanges(layer.output, "tensor", "out", left + half, half);
  // Earlier tensors live across the layer, over the whole bar width.
  for (unsigned index : layer.alsoLive)
    printRanges(index, "tensor live", "live", left, kBarWidth);
  // Layer label, rotated under the column: the footprint in the arena
  // and the stack buffers beside it.
  double labelX = columnX(k) + kColumnWidth / 2.0 + kFontSize / 3.0;
  int labelY = kMarginTop + kPlotHeight + 8;
  os << "<text class=\"layer\" x=\"" << fmt(labelX) << "\" y=\"" << labelY
     << "\" transform=\"rotate(-60 " << fmt(labelX) << " " << labelY
     << ")\" text-anchor=\"end\">" << escapeXML(layer.name) << " ("
     << layer.footprintBytes << " B";
  // Its stack buffers, outside the arena (a stem's line buffer).
  if (layer.stackBytes > 0)
    os << " + " << layer.stackBytes << " B stack";
  os << ")</text>\n";
}

/// Legend: one colour per tensor.
void printLegend(llvm::raw_ostream &os, const MemoryReport &report,
                 const SvgLayout &layout) {
  int legendX = layout.legendX;
  os << "<text class=\"legend-title\" x=\"" << legendX << "\" y=\""
     << kMarginTop + kSwatch << "\">tensors (left: in, right: out)</text>\n";
  for (auto [t, tensor] : llvm::enumerate(report.tensors)) {
    int y = kMarginTop + (t + 1) * kLegendRow;
    os << "<rect class=\"swatch\" x=\"" << legendX << "\" y=\"" << y
       << "\" width=\"" << kSwatch << "\" height=\"" << kSwatch << "\" fill=\""
       << tensorColor(t) << "\"/>\n";
    os << "<text class=\"legend\" x=\"" << legendX + kSwatch + 6 << "\" y=\""
       << y + kSwatch - 2 << "\">" << escapeXML(tensor.name) << " ("
       << tensor.bytes << " B)</text>\n";
  }
}

} // namespace

void mlir::vmcu::printMemorySVG(llvm::raw_ostream &os,
                                const MemoryReport &report) {
  SvgLayout layout(report);
  os << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
     << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << layout.width
     << "\" height=\"" << layout.height << "\" viewBox=\"0 0 " << layout.width
     << " " << layout.height << "\" font-family=\"sans-serif\" font-size=\""
     << kFontSize << "\">\n";
  printTitleAndArena(os, report, layout);
  printPeak(os, report, layout);
  for (auto [k, layer] : llvm::enumerate(report.layers))
    printLayerColumn(os, report, layout, k, layer);
  printLegend(os, report, layout);
  os << "</svg>\n";
}
