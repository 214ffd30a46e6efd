//===- FlatBufferTest.cpp - the bounds-checked FlatBuffers reader ---------===//
//
// Builds small FlatBuffers by hand (little-endian words, a vtable before
// each table) and checks the reader's values and that every malformed
// offset is reported as std::nullopt instead of being followed.
//
//===----------------------------------------------------------------------===//

#include "FlatBuffer.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <vector>

using namespace mlir::vmcu::flatbuffer;

namespace {

/// A byte buffer with little-endian writers.
struct Bytes {
  std::vector<uint8_t> data;

  size_t size() const { return data.size(); }
  void u8(uint8_t v) { data.push_back(v); }
  void u16(uint16_t v) {
    u8(v & 0xff);
    u8(v >> 8);
  }
  void u32(uint32_t v) {
    u16(v & 0xffff);
    u16(v >> 16);
  }
  void i32(int32_t v) { u32(static_cast<uint32_t>(v)); }
  void set32(size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i)
      data[at + i] = (v >> (8 * i)) & 0xff;
  }
  void set16(size_t at, uint16_t v) {
    data[at] = v & 0xff;
    data[at + 1] = v >> 8;
  }
};

/// Root offset at 0, then a table with fields:
///   0: int32 = 42, 1: absent, 2: vector<int32> = {7, -1, 5},
///   3: string "ab", 4: sub-table whose field 0 is int16 = -3,
///   5: vector of one table (the same sub-table).
/// Returns the offsets of the patchable parts through `layout`.
struct Layout {
  size_t rootTable, vtable, vectorField, vector, stringField, subField,
      tablesField;
};

Bytes buildSample(Layout &l) {
  Bytes b;
  b.u32(0); // root offset, patched below
  b.u32(0); // file identifier slot (unused here)
  // vtable of the root: 6 fields.
  l.vtable = b.size();
  b.u16(4 + 2 * 6); // vtable bytes
  b.u16(4 + 4 * 5); // table bytes: soffset + 5 words
  b.u16(4);         // field 0 at +4
  b.u16(0);         // field 1 absent
  b.u16(8);         // field 2 at +8
  b.u16(12);        // field 3 at +12
  b.u16(16);        // field 4 at +16
  b.u16(20);        // field 5 at +20
  l.rootTable = b.size();
  b.i32(static_cast<int32_t>(l.rootTable - l.vtable));
  b.i32(42);
  l.vectorField = b.size();
  b.u32(0);
  l.stringField = b.size();
  b.u32(0);
  l.subField = b.size();
  b.u32(0);
  l.tablesField = b.size();
  b.u32(0);
  // vector<int32>
  l.vector = b.size();
  b.u32(3);
  b.i32(7);
  b.i32(-1);
  b.i32(5);
  // string
  size_t str = b.size();
  b.u32(2);
  b.u8('a');
  b.u8('b');
  b.u8(0);
  b.u8(0);
  // vector of tables: one (forward) offset to `sub`, patched below
  size_t tables = b.size();
  b.u32(1);
  size_t entry = b.size();
  b.u32(0);
  // sub-table with its vtable
  size_t subVtable = b.size();
  b.u16(6);
  b.u16(8);
  b.u16(4);
  b.u16(0); // padding
  size_t sub = b.size();
  b.i32(static_cast<int32_t>(sub - subVtable));
  b.u16(static_cast<uint16_t>(-3));
  b.u16(0);
  b.set32(entry, static_cast<uint32_t>(sub - entry));

  b.set32(0, static_cast<uint32_t>(l.rootTable));
  b.set32(l.vectorField, static_cast<uint32_t>(l.vector - l.vectorField));
  b.set32(l.stringField, static_cast<uint32_t>(str - l.stringField));
  b.set32(l.subField, static_cast<uint32_t>(sub - l.subField));
  b.set32(l.tablesField, static_cast<uint32_t>(tables - l.tablesField));
  return b;
}

TEST(FlatBuffer, ReadsScalarsVectorsStringsAndTables) {
  Layout l;
  Bytes b = buildSample(l);
  Buffer buffer(b.data);
  std::optional<Table> root = Table::root(buffer);
  ASSERT_TRUE(root && root->isValid());
  EXPECT_EQ(root->scalar<int32_t>(0, 0), 42);
  EXPECT_FALSE(root->has(1));
  EXPECT_EQ(root->scalar<int32_t>(1, 9), 9);  // absent: the default
  EXPECT_EQ(root->scalar<int32_t>(40, 9), 9); // beyond the vtable: default

  std::optional<Vector> v = root->vector(2);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->size(), 3u);
  std::optional<llvm::SmallVector<int32_t>> values = v->scalars<int32_t>();
  ASSERT_TRUE(values);
  EXPECT_EQ(*values, (llvm::SmallVector<int32_t>{7, -1, 5}));
  EXPECT_FALSE(v->scalar<int32_t>(3)); // past the end

  EXPECT_EQ(root->string(3), llvm::StringRef("ab"));
  std::optional<Table> sub = root->table(4);
  ASSERT_TRUE(sub);
  EXPECT_EQ(sub->scalar<int16_t>(0, 0), -3);

  std::optional<Vector> tables = root->vector(5);
  ASSERT_TRUE(tables && tables->size() == 1);
  std::optional<Table> first = tables->table(0);
  ASSERT_TRUE(first);
  EXPECT_EQ(first->scalar<int16_t>(0, 0), -3);
  EXPECT_FALSE(tables->table(1));

  // An absent vector field reads as empty, with empty bytes.
  std::optional<Vector> none = root->vector(1);
  ASSERT_TRUE(none);
  EXPECT_EQ(none->size(), 0u);
  EXPECT_TRUE(none->bytes<int32_t>());
}

TEST(FlatBuffer, RejectsOutOfBoundsOffsets) {
  Layout l;
  Bytes good = buildSample(l);

  // Root offset past the end.
  Bytes b = good;
  b.set32(0, static_cast<uint32_t>(b.size() + 100));
  Buffer rootPastEnd(b.data);
  EXPECT_FALSE(Table::root(rootPastEnd));

  // A vtable offset pointing before the buffer.
  b = good;
  b.set32(l.rootTable, 0x7fffffff);
  Buffer badVtable(b.data);
  std::optional<Table> root = Table::root(badVtable);
  ASSERT_TRUE(root);
  EXPECT_FALSE(root->isValid());
  EXPECT_FALSE(root->scalar<int32_t>(0, 0));

  // A vector whose length runs past the end.
  b = good;
  b.set32(l.vector, 0x40000000);
  Buffer longVector(b.data);
  std::optional<Vector> v = Table::root(longVector)->vector(2);
  ASSERT_TRUE(v);
  EXPECT_FALSE(v->scalars<int32_t>());
  EXPECT_FALSE(v->bytes<int32_t>());
  EXPECT_FALSE(v->scalar<int32_t>(0x3fffffff));

  // A field offset that leaves the buffer.
  b = good;
  b.set32(l.subField, 0xfffffff0);
  Buffer badSub(b.data);
  EXPECT_FALSE(Table::root(badSub)->table(4));

  // A vtable that claims more bytes than the buffer holds.
  b = good;
  b.set16(l.vtable, 0xfff0);
  Buffer hugeVtable(b.data);
  EXPECT_FALSE(Table::root(hugeVtable)->isValid());
}

TEST(FlatBuffer, EveryTruncationIsSafe) {
  Layout l;
  Bytes good = buildSample(l);
  // Each prefix must read without leaving it: the values either match the
  // full buffer's or are reported missing.
  for (size_t n = 0; n <= good.size(); ++n) {
    std::vector<uint8_t> prefix(good.data.begin(), good.data.begin() + n);
    Buffer buffer(prefix);
    std::optional<Table> root = Table::root(buffer);
    if (!root || !root->isValid())
      continue;
    if (std::optional<int32_t> x = root->scalar<int32_t>(0, 0)) {
      EXPECT_EQ(*x, 42);
    }
    if (std::optional<Vector> v = root->vector(2)) {
      if (auto values = v->scalars<int32_t>()) {
        EXPECT_EQ(values->size(), 3u);
      }
    }
    if (std::optional<llvm::StringRef> s = root->string(3)) {
      EXPECT_TRUE(s->empty() || *s == "ab");
    }
    if (std::optional<Table> sub = root->table(4)) {
      if (auto y = sub->scalar<int16_t>(0, 0)) {
        EXPECT_EQ(*y, -3);
      }
    }
  }
}

} // namespace
