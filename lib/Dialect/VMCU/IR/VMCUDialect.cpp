//===- VMCUDialect.cpp - vmcu dialect, types and attributes ---------------===//
//
// Registers the vmcu ops, the pool type and the requant attribute, and
// verifies the latter two.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Dialect/VMCU/IR/VMCUDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "vmcu/Dialect/VMCU/IR/ModelABI.h"
#include "vmcu/Dialect/VMCU/IR/VMCUOps.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::vmcu;

#include "vmcu/Dialect/VMCU/IR/VMCUOpsDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "vmcu/Dialect/VMCU/IR/VMCUOpsTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "vmcu/Dialect/VMCU/IR/VMCUAttributes.cpp.inc"

void VMCUDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "vmcu/Dialect/VMCU/IR/VMCUOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "vmcu/Dialect/VMCU/IR/VMCUOpsTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "vmcu/Dialect/VMCU/IR/VMCUAttributes.cpp.inc"
      >();
}

/// The op vmcu.round_half_away marks (by name: the dialect does not depend
/// on TOSA).
static constexpr llvm::StringLiteral kTosaAvgPoolName = "tosa.avg_pool2d";
/// The op vmcu.shared_kernels marks (by name: nor does the dialect depend
/// on the LLVM dialect).
static constexpr llvm::StringLiteral kLLVMFuncName = "llvm.func";

/// Fails with an error on `op` unless it is a module, which `attr` marks.
static LogicalResult verifyOnModule(Operation *op, NamedAttribute attr) {
  if (isa<ModuleOp>(op))
    return success();
  return op->emitOpError() << "'" << attr.getName().getValue()
                           << "' only applies to a module";
}

/// Fails with an error on `op` unless it is an `opName` op, which `attr`
/// marks (by name: ops of dialects vmcu does not depend on).
static LogicalResult verifyOnOpNamed(Operation *op, NamedAttribute attr,
                                     StringRef opName) {
  if (op->getName().getStringRef() == opName)
    return success();
  return op->emitOpError() << "'" << attr.getName().getValue()
                           << "' only applies to " << opName;
}

/// Fails with an error on `op` unless `attr` holds a non-empty array of
/// strings (vmcu.shared_kernels: function names) on an llvm.func.
static LogicalResult verifySharedKernels(Operation *op, NamedAttribute attr) {
  auto names = dyn_cast<ArrayAttr>(attr.getValue());
  if (!names || names.empty() ||
      !llvm::all_of(names, [](Attribute a) { return isa<StringAttr>(a); }))
    return op->emitOpError() << "'" << attr.getName().getValue()
                             << "' must be a non-empty array of strings";
  return verifyOnOpNamed(op, attr, kLLVMFuncName);
}

/// Fails with an error on `op` unless `attr` holds a non-negative i64.
static LogicalResult verifyNonNegativeI64(Operation *op, NamedAttribute attr) {
  auto value = dyn_cast<IntegerAttr>(attr.getValue());
  if (value && value.getType().isInteger(64) && value.getInt() >= 0)
    return success();
  return op->emitOpError() << "'" << attr.getName().getValue()
                           << "' must be a non-negative i64, got "
                           << attr.getValue();
}

LogicalResult VMCUDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  if (attr.getName() == getIoAttrHelper().getName()) {
    auto io = dyn_cast<StringAttr>(attr.getValue());
    if (!io || (io.getValue() != model_abi::kIOInput && io.getValue() != model_abi::kIOOutput))
      return op->emitOpError()
             << "'" << attr.getName().getValue() << "' must be \""
             << model_abi::kIOInput << "\" or \"" << model_abi::kIOOutput
             << "\", got " << attr.getValue();
    if (!isa<TensorBaseOp>(op))
      return op->emitOpError() << "'" << attr.getName().getValue()
                               << "' only marks a vmcu.tensor_base";
    return success();
  }
  if (attr.getName() == getIoIndexAttrHelper().getName()) {
    if (failed(verifyNonNegativeI64(op, attr)))
      return failure();
    if (!getIoAttrHelper().getAttr(op))
      return op->emitOpError() << "'" << attr.getName().getValue()
                               << "' needs '"
                               << getIoAttrHelper().getName().getValue()
                               << "'";
    return success();
  }
  if (attr.getName() == getRoundHalfAwayAttrHelper().getName()) {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitOpError() << "'" << attr.getName().getValue()
                               << "' must be a unit attribute";
    return verifyOnOpNamed(op, attr, kTosaAvgPoolName);
  }
  if (attr.getName() == getInputEdgeAttrHelper().getName() ||
      attr.getName() == getOutputEdgeAttrHelper().getName()) {
    if (!isa<EdgeAttr>(attr.getValue()))
      return op->emitOpError() << "'" << attr.getName().getValue()
                               << "' must be a #vmcu.edge";
    return verifyOnModule(op, attr);
  }
  if (attr.getName() == getReferenceFlashBytesAttrHelper().getName()) {
    if (failed(verifyNonNegativeI64(op, attr)))
      return failure();
    return verifyOnModule(op, attr);
  }
  if (attr.getName() == getSharedKernelsAttrHelper().getName())
    return verifySharedKernels(op, attr);
  return op->emitOpError() << "has an unknown vmcu attribute '"
                           << attr.getName().getValue() << "'";
}

void mlir::vmcu::registerVMCUDialect(DialectRegistry &registry) {
  registry.insert<VMCUDialect>();
}

//===----------------------------------------------------------------------===//
// PoolType
//===----------------------------------------------------------------------===//

LogicalResult PoolType::verify(function_ref<InFlightDiagnostic()> emitError,
                               int64_t segments, int64_t segmentBytes) {
  if (segments < 1)
    return emitError() << "pool must have at least one segment, got "
                       << segments;
  if (segmentBytes < 1)
    return emitError() << "segment_bytes must be positive, got "
                       << segmentBytes;
  return success();
}

//===----------------------------------------------------------------------===//
// RequantAttr
//===----------------------------------------------------------------------===//

static constexpr int kMinShift = kRequantMinShift;
static constexpr int kMaxShift = kRequantMaxShift;

LogicalResult EdgeAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               FloatAttr scale, int32_t zeroPoint,
                               bool isFloat) {
  double value = scale.getValueAsDouble();
  if (!scale.getType().isF32() || !(value > 0.0) || !std::isfinite(value))
    return emitError() << "edge scale must be a positive, finite f32, got "
                       << scale;
  if (zeroPoint < std::numeric_limits<int8_t>::min() ||
      zeroPoint > std::numeric_limits<int8_t>::max())
    return emitError() << "edge zero point must be in the int8 range, got "
                       << zeroPoint;
  return success();
}

LogicalResult RequantAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  int32_t inputZp, int32_t outputZp,
                                  ArrayRef<int32_t> multiplier,
                                  ArrayRef<int32_t> shift, bool doubleRound,
                                  int32_t min, int32_t max) {
  if (multiplier.empty())
    return emitError() << "requant needs at least one multiplier";
  if (multiplier.size() != shift.size())
    return emitError() << "requant has " << multiplier.size()
                       << " multipliers but " << shift.size() << " shifts";
  for (auto [m, s] : llvm::zip_equal(multiplier, shift)) {
    if (m < 0)
      return emitError() << "requant multiplier must be non-negative, got "
                         << m;
    if (s < kMinShift || s > kMaxShift)
      return emitError() << "requant shift must be in [" << kMinShift << ", "
                         << kMaxShift << "], got " << s;
  }
  if (min > max)
    return emitError() << "requant clamp min (" << min
                       << ") is greater than max (" << max << ")";
  return success();
}
