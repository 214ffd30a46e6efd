"""In-place edits of a .tflite FlatBuffer, for tests.

Patches values where they are stored (an index, a float), so that the file
keeps its size and layout. Field ids are tflite_schema.py's.
"""
import struct
import sys

import tflite_schema as S


class TFLiteFile:
    """A .tflite's bytes with the FlatBuffer navigation the patches need."""

    def __init__(self, path):
        self.data = bytearray(open(path, "rb").read())
        root = self._deref(0)
        subgraphs, count = self.vector(self.field(root, S.MODEL_SUBGRAPHS))
        if count != 1:
            sys.exit("error: expected one subgraph")
        self.subgraph = self._deref(subgraphs)

    def _u32(self, at):
        return struct.unpack_from("<I", self.data, at)[0]

    def _deref(self, at):
        return at + self._u32(at)

    def field(self, table, index):
        """The address of a table's field, or None where it is absent."""
        vtable = table - struct.unpack_from("<i", self.data, table)[0]
        size = struct.unpack_from("<H", self.data, vtable)[0]
        if 4 + 2 * index >= size:
            return None
        offset = struct.unpack_from("<H", self.data, vtable + 4 + 2 * index)[0]
        return table + offset if offset else None

    def vector(self, at):
        """(address of the first element, length) of the vector at `at`."""
        v = self._deref(at)
        return v + 4, self._u32(v)

    def tensor(self, index):
        tensors, count = self.vector(self.field(self.subgraph, S.SUBGRAPH_TENSORS))
        if not 0 <= index < count:
            sys.exit("error: no tensor %d" % index)
        return self._deref(tensors + 4 * index)

    def tensor_index(self, name):
        _, count = self.vector(self.field(self.subgraph, S.SUBGRAPH_TENSORS))
        for i in range(count):
            name_at = self.field(self.tensor(i), S.TENSOR_NAME)
            if name_at is None:
                continue
            start, length = self.vector(name_at)
            if self.data[start:start + length].decode() == name:
                return i
        sys.exit("error: no tensor named '%s'" % name)

    def edge(self, which):
        """(address of the entry, tensor index) of the single input or output."""
        field = S.SUBGRAPH_INPUTS if which == "input" else S.SUBGRAPH_OUTPUTS
        at, count = self.vector(self.field(self.subgraph, field))
        if count != 1:
            sys.exit("error: expected one %s" % which)
        return at, struct.unpack_from("<i", self.data, at)[0]

    def set_edge(self, which, index):
        at, _ = self.edge(which)
        struct.pack_into("<i", self.data, at, index)

    def scale_at(self, index):
        """The address of tensor `index`'s one float32 scale."""
        quant = self.field(self.tensor(index), S.TENSOR_QUANTIZATION)
        scales = self.field(self._deref(quant), S.QUANT_SCALE) if quant else None
        if scales is None:
            sys.exit("error: tensor %d has no scale" % index)
        at, count = self.vector(scales)
        if count != 1:
            sys.exit("error: tensor %d has %d scales, expected one" % (index, count))
        return at

    def scale(self, index):
        return struct.unpack_from("<f", self.data, self.scale_at(index))[0]

    def set_scale(self, index, value):
        struct.pack_into("<f", self.data, self.scale_at(index), value)

    def write(self, path):
        open(path, "wb").write(self.data)
