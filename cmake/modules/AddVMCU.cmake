#===- AddVMCU.cmake - helpers for vmcu libraries and tests ------------------===#
#
# Libraries go into vmcu's own export set (VMCUTargets) instead of MLIR's, so
# `find_package(VMCU)` gives consumers importable targets.
#
#===--------------------------------------------------------------------------===#
include_guard()

set_property(GLOBAL PROPERTY VMCU_EXPORTS "")

function(_vmcu_export name)
  set_property(GLOBAL APPEND PROPERTY VMCU_EXPORTS ${name})
  install(TARGETS ${name} EXPORT VMCUTargets
    ARCHIVE DESTINATION lib
    LIBRARY DESTINATION lib
    RUNTIME DESTINATION bin)
endfunction()

# A plain library (analysis, transforms, pipelines).
function(add_vmcu_library name)
  add_mlir_library(${ARGV} DISABLE_INSTALL)
  _vmcu_export(${name})
endfunction()

function(add_vmcu_dialect_library name)
  add_mlir_dialect_library(${ARGV} DISABLE_INSTALL)
  _vmcu_export(${name})
endfunction()

function(add_vmcu_conversion_library name)
  add_mlir_conversion_library(${ARGV} DISABLE_INSTALL)
  _vmcu_export(${name})
endfunction()

# A GoogleTest executable run by the lit "Unit" suite.
function(add_vmcu_unittest name)
  add_executable(${name} ${ARGN})
  target_link_libraries(${name} PRIVATE GTest::gtest GTest::gtest_main)
  set_target_properties(${name} PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/unittests)
  set_property(GLOBAL APPEND PROPERTY VMCU_UNITTESTS ${name})
endfunction()
