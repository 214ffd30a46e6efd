#!/usr/bin/python3
"""check-make-tflite.py - check make-tflite.py's models against Arm NN and the numpy reference.

  check-make-tflite.py [--seeds N] [--kinds K,...] [--tflite-ref PATH] [--keep DIR]

For every kind and seeds 0..N-1 it runs `make-tflite.py --kind K --seed S -o
M.tflite --input-bin IN.bin`, utils/tflite_numpy_ref.py on M.tflite, and the
Arm NN oracle (`tflite_ref.py M.tflite --info`, then `tflite_ref.py M.tflite
IN.bin OUT.bin`, CpuRef backend). Each operator is compared on its own:
the model is cut after each operator and run in Arm NN, and the numpy kernel
of that operator is applied to the inputs Arm NN computed, so earlier
off-by-ones do not accumulate. It prints per kind the largest |Arm NN -
numpy| per operator and on the model output, how many operator output
elements differ, and how much of the model output sits on the int8 rails.
It fails if an operator differs by more than 1, a shape is off, or
make-tflite.py is not deterministic. The model output is not held to 1: a
layer can amplify an earlier off-by-one of Arm NN's float arithmetic
(mini-mcunet's classifier turns one code of the global average into up to
about 5 output codes).

Arm NN 20.08 fills an int8 PAD with 0, not with the zero point as TFLite
does, except when its optimizer folds the PAD into the CONV_2D that reads it
(the convolution's own padding uses the zero point). Where a PAD feeds a
DEPTHWISE_CONV_2D and equals that depthwise's SAME padding (depthwise-s2,
the bottleneck of mini-mcunet), Arm NN therefore runs a twin of the model
with the PAD folded into a SAME depthwise: the same computation, weights
and input. The "as written" column is Arm NN on the model itself, which is
off there by Arm NN's fill.
"""
import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile
from collections import Counter

import numpy as np

import tflite_numpy_ref as ref
import tflite_schema as S

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON = "/usr/bin/python3"
TOLERANCE = 1


def _load_make_tflite():
    spec = importlib.util.spec_from_file_location("make_tflite",
                                                  os.path.join(HERE, "make-tflite.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MK = _load_make_tflite()


def read(path):
    with open(path, "rb") as f:
        return bytearray(f.read())


def check_info(tflite_ref, model):
    """tflite_ref.py --info must report the model's input and output shapes."""
    tensors, _, inputs, outputs = ref.read_model(read(model))
    info = subprocess.run([PYTHON, tflite_ref, model, "--info"], check=True, text=True,
                          capture_output=True).stdout.strip().splitlines()[-1]
    want = f"input {tensors[inputs[0]].shape} 8 output {tensors[outputs[0]].shape} 8"
    if info != want:  # 8 is armnn.DataType_QAsymmS8
        raise AssertionError(f"{model}: tflite_ref.py --info says {info!r}, expected {want!r}")


def armnn(tflite_ref, model, in_bin, work):
    out_bin = os.path.join(work, "armnn.out.bin")
    subprocess.run([PYTHON, tflite_ref, model, in_bin, out_bin], check=True, capture_output=True)
    return np.fromfile(out_bin, dtype=np.int8).astype(np.int64)


def numpy_ref(model, x):
    return ref.run(read(model), x).ravel().astype(np.int64)


def write(graph, path):
    with open(path, "wb") as f:
        f.write(graph.serialize())
    return path


def _same_before(size, k, stride, out):
    """TFLite's leading SAME pad, or None if SAME would not give `out`."""
    if -(-size // stride) != out:
        return None
    return max((out - 1) * stride + k - size, 0) // 2


def fold_pads_into_depthwise(graph):
    """Rewrites PAD -> VALID DEPTHWISE_CONV_2D into a SAME depthwise where that
    is the same computation; returns how many it folded. The PAD's tensors
    stay in the graph, unused."""
    code = {id(op): graph.opcodes[op.opcode_index] for op in graph.operators}
    producer = {op.outputs[0]: op for op in graph.operators}
    readers = Counter(i for op in graph.operators for i in op.inputs) + Counter(graph.outputs)
    folded = 0
    for op in list(graph.operators):
        pad = producer.get(op.inputs[0])
        if (code[id(op)] != S.OP_DEPTHWISE_CONV_2D or pad is None
                or code[id(pad)] != S.OP_PAD or readers[pad.outputs[0]] != 1):
            continue
        options = {fid: value for fid, _, value in op.options}
        paddings = np.frombuffer(graph.buffers[graph.tensors[pad.inputs[1]].buffer],
                                 dtype="<i4").reshape(4, 2)
        x = graph.tensors[pad.inputs[0]].shape
        k = graph.tensors[op.inputs[1]].shape
        y = graph.tensors[op.outputs[0]].shape
        strides = (options[S.DW_STRIDE_H], options[S.DW_STRIDE_W])
        if (options[S.DW_PADDING] != S.PADDING_VALID or paddings[0].any() or paddings[3].any()
                or any(_same_before(x[d], k[d], strides[d - 1], y[d]) != paddings[d][0]
                       for d in (1, 2))):
            continue
        op.inputs[0] = pad.inputs[0]
        op.options = [(fid, kind, S.PADDING_SAME if fid == S.DW_PADDING else value)
                      for fid, kind, value in op.options]
        graph.operators.remove(pad)
        folded += 1
    return folded


def check_kind(kind, seeds, tflite_ref, work):
    """Checks each operator on its own and reports the model output too."""
    worst_op = worst_out = worst_as_written = differing = total = low = high = 0
    folded = False
    for seed in seeds:
        model = os.path.join(work, f"{kind}-{seed}.tflite")
        in_bin = os.path.join(work, f"{kind}-{seed}.in.bin")
        subprocess.run([PYTHON, os.path.join(HERE, "make-tflite.py"), "--kind", kind, "--seed",
                        str(seed), "-o", model, "--input-bin", in_bin], check=True)
        graph, x = MK.build_graph(kind, seed)
        if graph.serialize() != read(model) or x.tobytes() != read(in_bin):
            raise AssertionError(f"{kind} seed {seed}: make-tflite.py is not deterministic")
        check_info(tflite_ref, model)
        tensors, ops, inputs, outputs = ref.read_model(read(model))
        expected = numpy_ref(model, x)
        low, high = low + int((expected == -128).sum()), high + int((expected == 127).sum())
        worst_as_written = max(worst_as_written,
                               int(np.abs(armnn(tflite_ref, model, in_bin, work) - expected).max()))

        twin, _ = MK.build_graph(kind, seed)
        folded = fold_pads_into_depthwise(twin) > 0
        values = {inputs[0]: x.reshape(tensors[inputs[0]].shape)}
        for op in twin.operators:
            if twin.opcodes[op.opcode_index] != S.OP_PAD:  # Arm NN's PAD output is 0-filled
                twin.outputs = op.outputs
                got = armnn(tflite_ref, write(twin, os.path.join(work, "cut.tflite")), in_bin, work)
                # int8, as the numpy kernels take their inputs (CONCATENATION insists)
                values[op.outputs[0]] = got.reshape(tensors[op.outputs[0]].shape).astype(np.int8)
        worst_out = max(worst_out, int(np.abs(values[outputs[0]].ravel() - expected).max()))
        for op in ops:
            out = ref.KERNELS[op.code](op, tensors, values)
            if op.code == S.OP_PAD:
                values[op.outputs[0]] = out
                continue
            d = np.abs(out.astype(np.int64) - values[op.outputs[0]])
            worst_op = max(worst_op, int(d.max()))
            differing, total = differing + int((d > 0).sum()), total + d.size
    ops_checked = sum(op.code != S.OP_PAD for op in ops)
    outputs_total = len(seeds) * expected.size
    written = str(worst_as_written) if folded else "-"
    print(f"{kind:13} {ops_checked:3} {worst_op:6} {differing:5}/{total:<6} {worst_out:6}"
          f" {written:>10} {100 * low / outputs_total:7.1f}% {100 * high / outputs_total:6.1f}%")
    return worst_op <= TOLERANCE


# Kinds not compared: Arm NN 20.08 cannot run them (its TfLiteParser
# crashes) or computes them wrongly, or this checker's int8 inputs do not fit.
NOT_IN_ARMNN = {
    "leaky-relu": "Arm NN 20.08's TfLiteParser has no LEAKY_RELU",
    "grouped": "Arm NN 20.08 computes a grouped CONV_2D wrongly (off by up to 138)",
    "float-edges": "float32 input and output (float-edges.test checks it)",
    "squeeze": "Arm NN 20.08 writes no output for its rank-1 SQUEEZE / EXPAND_DIMS",
    "resize": "Arm NN 20.08 ignores RESIZE_NEAREST_NEIGHBOR's half_pixel_centers "
              "(plain and align_corners resizes agree with numpy)",
}


def main():
    parser = argparse.ArgumentParser(
        description="Check every make-tflite.py kind against Arm NN and tflite_numpy_ref.py.")
    parser.add_argument("--seeds", type=int, default=8, help="seeds 0..N-1 (default 8)")
    parser.add_argument("--tflite-ref", default="/work/shared/tools/tflite_ref.py",
                        help="the Arm NN oracle (default %(default)s)")
    parser.add_argument("--keep", metavar="DIR", help="leave the models and inputs here")
    parser.add_argument("--kinds", metavar="K,...",
                        help="only these kinds (`corpus`: the corpus-* families, which are "
                             "not checked by default: their networks take long in Arm NN)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = args.keep or tmp
        os.makedirs(work, exist_ok=True)
        print(f"max|Arm NN - numpy| over {args.seeds} seeds: per operator (on Arm NN's own "
              f"inputs, PAD checked through its reader) and on the model output")
        print(f"{'kind':13} {'ops':>3} {'per-op':>6} {'differing':>12} {'output':>6}"
              f" {'as written':>10} {'at -128':>8} {'at 127':>7}")
        kinds = [k for k in MK.KINDS if k not in MK.CORPUS_FAMILIES]
        if args.kinds:
            kinds = [k for part in args.kinds.split(",")
                     for k in (MK.CORPUS_FAMILIES if part == "corpus" else [part])]
        ok = all([check_kind(kind, range(args.seeds), args.tflite_ref, work)
                  for kind in kinds if kind not in NOT_IN_ARMNN])
        for kind, why in NOT_IN_ARMNN.items():
            if kind in kinds:
                print(f"{kind:13} not checked: {why}")
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
