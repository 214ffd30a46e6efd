//===- vmcu-translate.cpp - vmcu's translations ---------------------------===//
//
// mlir-translate with vmcu's importers: `--import-tflite` turns an int8
// .tflite model into the TOSA 1.0 that vmcu-opt and vmcuc take.
//
//===----------------------------------------------------------------------===//

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "vmcu/Target/TFLite/TFLiteImporter.h"

int main(int argc, char **argv) {
  mlir::vmcu::registerTFLiteImportTranslation();
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "vmcu translation tool"));
}
