#!/usr/bin/python3
"""Rewrites a .tflite file so that its (single) subgraph output is another tensor.

  tflite-set-output.py MODEL.tflite TENSOR_NAME OUT.tflite

Used by tests to run a reference (Arm NN) up to the same tensor as
`vmcu-run --tflite-output=TENSOR_NAME`, e.g. the logits before a SOFTMAX.
Only the output index is patched in place; the file is otherwise unchanged.
Field ids are those of tensorflow/lite/schema/schema.fbs.
"""
import struct
import sys

MODEL_SUBGRAPHS = 2
SUBGRAPH_TENSORS, SUBGRAPH_OUTPUTS = 0, 2
TENSOR_NAME = 3


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    data = bytearray(open(sys.argv[1], "rb").read())

    def u32(o):
        return struct.unpack_from("<I", data, o)[0]

    def field(table, index):
        vtable = table - struct.unpack_from("<i", data, table)[0]
        size = struct.unpack_from("<H", data, vtable)[0]
        if 4 + 2 * index >= size:
            return None
        offset = struct.unpack_from("<H", data, vtable + 4 + 2 * index)[0]
        return table + offset if offset else None

    def deref(o):
        return o + u32(o)

    def vector(o):
        v = deref(o)
        return v + 4, u32(v)

    root = deref(0)
    subgraphs, count = vector(field(root, MODEL_SUBGRAPHS))
    if count != 1:
        sys.exit("error: expected one subgraph")
    subgraph = deref(subgraphs)
    tensors, ntensors = vector(field(subgraph, SUBGRAPH_TENSORS))
    index = None
    for i in range(ntensors):
        name_at = field(deref(tensors + 4 * i), TENSOR_NAME)
        if name_at is None:
            continue
        start, length = vector(name_at)
        if data[start:start + length].decode() == sys.argv[2]:
            index = i
    if index is None:
        sys.exit("error: no tensor named '%s'" % sys.argv[2])
    outputs, noutputs = vector(field(subgraph, SUBGRAPH_OUTPUTS))
    if noutputs != 1:
        sys.exit("error: expected one output")
    struct.pack_into("<i", data, outputs, index)
    open(sys.argv[3], "wb").write(data)


if __name__ == "__main__":
    main()
