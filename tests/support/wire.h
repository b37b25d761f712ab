// Building wire bytes by hand, for tests that need exact layouts.
#ifndef PROTOBUF_C_ITER_TESTS_WIRE_H_
#define PROTOBUF_C_ITER_TESTS_WIRE_H_

#include <cstdint>
#include <string>

namespace pbci_test {

inline std::string Varint(uint64_t v) {
  std::string s;
  do {
    s += static_cast<char>((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
    v >>= 7;
  } while (v != 0);
  return s;
}

inline std::string Key(uint32_t number, uint32_t wire_type) {
  return Varint(uint64_t{number} << 3 | wire_type);
}

inline std::string VarintField(uint32_t number, uint64_t v) {
  return Key(number, 0) + Varint(v);
}

inline std::string LenField(uint32_t number, const std::string& payload) {
  return Key(number, 2) + Varint(payload.size()) + payload;
}

// A length-delimited stream element: the length as a varint, then `m`.
inline std::string Delimited(const std::string& m) { return Varint(m.size()) + m; }

}  // namespace pbci_test

#endif  // PROTOBUF_C_ITER_TESTS_WIRE_H_
