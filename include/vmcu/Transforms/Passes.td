//===- Passes.td - vmcu transformation passes --------------*- tablegen -*-===//
//
// Passes that work on vmcu layer ops and tiled kernels.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_TRANSFORMS_PASSES_TD
#define VMCU_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def VMCUFuseBottleneckPass : Pass<"vmcu-fuse-bottleneck", "func::FuncOp"> {
  let summary = "Fuse pw-expand, dw RxR, pw-project [+ add] into vmcu.bottleneck";
  let description = [{
    Matches the inverted bottleneck of MobileNetV2-style networks (paper
    Section 5.2, Figure 6): a 1x1 `vmcu.conv2d`, a
    `vmcu.depthwise_conv2d`, a 1x1 `vmcu.conv2d` and optionally a
    `vmcu.add` of the projection and the block input. Each intermediate
    must have a single use. The chain moves into the body of one
    `vmcu.bottleneck`, whose kernel keeps only `R*R + 2` segments of
    workspace instead of the intermediate tensors.

    Before:

    ```mlir
    %b = vmcu.conv2d %a, %w1, %b1 {...}
    %c = vmcu.depthwise_conv2d %b, %w2, %b2 {...}
    %d = vmcu.conv2d %c, %w3, %b3 {...}
    %e = vmcu.add %d, %a {...}
    ```

    After:

    ```mlir
    %e = vmcu.bottleneck %a : tensor<...> -> tensor<...> {
    ^bb0(%in: tensor<...>):
      %b = vmcu.conv2d %in, %w1, %b1 {...}
      %c = vmcu.depthwise_conv2d %b, %w2, %b2 {...}
      %d = vmcu.conv2d %c, %w3, %b3 {...}
      %s = vmcu.add %d, %in {...}
      vmcu.yield %s : tensor<...>
    }
    ```
  }];
  let dependentDialects = ["::mlir::vmcu::VMCUDialect"];
  let options = [
    Option<"fuseResidual", "fuse-residual", "bool", "true",
           "Also fold the residual vmcu.add into the fused op">,
  ];
  let statistics = [
    Statistic<"numFused", "num-fused", "Number of bottlenecks fused">,
    Statistic<"numResidual", "num-residual",
              "Number of fused bottlenecks with a residual add">,
  ];
}

#endif // VMCU_TRANSFORMS_PASSES_TD
