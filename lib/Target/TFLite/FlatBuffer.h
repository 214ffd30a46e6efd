//===- FlatBuffer.h - Bounds-checked FlatBuffers reader ---------*- C++ -*-===//
//
// Just enough of the FlatBuffers binary format to read a .tflite file
// without generated code: tables with vtables, scalars, strings, vectors of
// scalars and of tables. Every read is checked against the buffer; a bad
// offset makes the accessor return std::nullopt, never read out of bounds.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_LIB_TARGET_TFLITE_FLATBUFFER_H
#define VMCU_LIB_TARGET_TFLITE_FLATBUFFER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <cstring>
#include <optional>
#include <type_traits>

namespace mlir::vmcu::flatbuffer {

/// A little-endian buffer with checked reads.
class Buffer {
public:
  explicit Buffer(llvm::ArrayRef<uint8_t> bytes) : bytes(bytes) {}

  template <typename T> std::optional<T> read(uint64_t offset) const {
    static_assert(std::is_trivially_copyable_v<T>);
    if (offset > bytes.size() || bytes.size() - offset < sizeof(T))
      return std::nullopt;
    T value;
    std::memcpy(&value, bytes.data() + offset, sizeof(T));
    return value;
  }

  /// The target of the 32-bit unsigned offset stored at `offset`.
  std::optional<uint64_t> follow(uint64_t offset) const {
    std::optional<uint32_t> rel = read<uint32_t>(offset);
    if (!rel || *rel == 0 || offset + *rel >= bytes.size())
      return std::nullopt;
    return offset + *rel;
  }

  /// `length` bytes at `offset`, if they are all inside the buffer.
  std::optional<llvm::ArrayRef<uint8_t>> slice(uint64_t offset,
                                               uint64_t length) const {
    if (offset > bytes.size() || bytes.size() - offset < length)
      return std::nullopt;
    return bytes.slice(offset, length);
  }

  size_t size() const { return bytes.size(); }

private:
  llvm::ArrayRef<uint8_t> bytes;
};

class Table;

/// A vector: a 32-bit length followed by its elements.
class Vector {
public:
  Vector() = default;
  Vector(const Buffer *buffer, uint64_t start, uint32_t length)
      : buffer(buffer), start(start), length(length) {}

  uint32_t size() const { return length; }
  /// Element `i` of a vector of scalars of type T.
  template <typename T> std::optional<T> scalar(uint32_t i) const {
    if (i >= length)
      return std::nullopt;
    return buffer->read<T>(start + uint64_t(i) * sizeof(T));
  }
  /// Element `i` of a vector of tables.
  std::optional<Table> table(uint32_t i) const;
  /// The raw bytes of a vector of T.
  template <typename T> std::optional<llvm::ArrayRef<uint8_t>> bytes() const {
    if (length == 0)
      return llvm::ArrayRef<uint8_t>();
    return buffer->slice(start, uint64_t(length) * sizeof(T));
  }
  /// All elements of a vector of scalars, or std::nullopt if truncated.
  template <typename T> std::optional<llvm::SmallVector<T>> scalars() const {
    if (!bytes<T>())
      return std::nullopt;
    llvm::SmallVector<T> values;
    values.reserve(length);
    for (uint32_t i = 0; i < length; ++i)
      values.push_back(*scalar<T>(i));
    return values;
  }

private:
  const Buffer *buffer = nullptr;
  uint64_t start = 0;
  uint32_t length = 0;
};

/// A table: a signed offset to its vtable, then its fields.
class Table {
public:
  Table(const Buffer *buffer, uint64_t position)
      : buffer(buffer), position(position) {}

  /// The root table of a buffer.
  static std::optional<Table> root(const Buffer &buffer) {
    std::optional<uint64_t> position = buffer.follow(0);
    if (!position)
      return std::nullopt;
    return Table(&buffer, *position);
  }

  /// Whether the table's vtable is inside the buffer and well formed.
  bool isValid() const { return vtableSize().has_value(); }

  /// Scalar field `id`, or `fallback` when absent. std::nullopt if the
  /// table is malformed.
  template <typename T> std::optional<T> scalar(unsigned id, T fallback) const {
    std::optional<uint64_t> at = fieldOffset(id);
    if (!at)
      return std::nullopt;
    if (*at == 0)
      return fallback;
    return buffer->read<T>(*at);
  }
  /// Whether field `id` is present.
  bool has(unsigned id) const {
    std::optional<uint64_t> at = fieldOffset(id);
    return at && *at != 0;
  }
  /// Sub-table field `id`.
  std::optional<Table> table(unsigned id) const {
    return at(buffer, follow(id));
  }

  /// The well-formed table at `position`, if any.
  static std::optional<Table> at(const Buffer *buffer,
                                 std::optional<uint64_t> position) {
    if (!position)
      return std::nullopt;
    Table t(buffer, *position);
    if (!t.isValid())
      return std::nullopt;
    return t;
  }
  /// Vector field `id`; an absent field is an empty vector.
  std::optional<Vector> vector(unsigned id) const {
    std::optional<uint64_t> at = fieldOffset(id);
    if (!at)
      return std::nullopt;
    if (*at == 0)
      return Vector();
    std::optional<uint64_t> start = buffer->follow(*at);
    if (!start)
      return std::nullopt;
    std::optional<uint32_t> length = buffer->read<uint32_t>(*start);
    if (!length)
      return std::nullopt;
    return Vector(buffer, *start + sizeof(uint32_t), *length);
  }
  /// String field `id`; absent is the empty string.
  std::optional<llvm::StringRef> string(unsigned id) const {
    std::optional<Vector> chars = vector(id);
    if (!chars)
      return std::nullopt;
    if (chars->size() == 0)
      return llvm::StringRef();
    std::optional<llvm::ArrayRef<uint8_t>> data = chars->bytes<char>();
    if (!data)
      return std::nullopt;
    return llvm::StringRef(reinterpret_cast<const char *>(data->data()),
                           data->size());
  }

private:
  std::optional<uint16_t> vtableSize() const {
    std::optional<int32_t> rel = buffer->read<int32_t>(position);
    if (!rel)
      return std::nullopt;
    int64_t vtable = static_cast<int64_t>(position) - *rel;
    if (vtable < 0)
      return std::nullopt;
    std::optional<uint16_t> size = buffer->read<uint16_t>(vtable);
    if (!size || *size < 4 || !buffer->slice(vtable, *size))
      return std::nullopt;
    return size;
  }
  /// The absolute offset of field `id`, 0 when absent, std::nullopt when
  /// the table is malformed.
  std::optional<uint64_t> fieldOffset(unsigned id) const {
    std::optional<uint16_t> size = vtableSize();
    if (!size)
      return std::nullopt;
    int64_t vtable =
        static_cast<int64_t>(position) - *buffer->read<int32_t>(position);
    uint64_t entry = 4 + 2 * uint64_t(id);
    if (entry + 2 > *size)
      return 0;
    uint16_t rel = *buffer->read<uint16_t>(vtable + entry);
    if (rel == 0)
      return 0;
    return position + rel;
  }
  std::optional<uint64_t> follow(unsigned id) const {
    std::optional<uint64_t> at = fieldOffset(id);
    if (!at || *at == 0)
      return std::nullopt;
    return buffer->follow(*at);
  }

  const Buffer *buffer;
  uint64_t position;
};

inline std::optional<Table> Vector::table(uint32_t i) const {
  if (i >= length)
    return std::nullopt;
  return Table::at(buffer,
                   buffer->follow(start + uint64_t(i) * sizeof(uint32_t)));
}

} // namespace mlir::vmcu::flatbuffer

#endif // VMCU_LIB_TARGET_TFLITE_FLATBUFFER_H
