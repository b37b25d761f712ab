// The security model's invariants after a successful decode
// (docs/SECURITY.md), checked on a decoded message through its descriptors.
#ifndef PROTOBUF_C_ITER_TESTS_INVARIANTS_H_
#define PROTOBUF_C_ITER_TESTS_INVARIANTS_H_

#include <protobuf-c/protobuf-c.h>

#include <cstddef>
#include <string>

namespace pbci_test {

// "" when every invariant holds for message `m` decoded into the `used`
// bytes at `buf`; otherwise the first violation. With
// PROTOBUF_C_ITER_ALIAS_BYTES, pass the input as `alias`: bytes contents
// may then point into it.
std::string CheckInvariants(const ProtobufCMessage* m, const void* buf,
                            size_t used, const void* alias = nullptr,
                            size_t alias_len = 0);

}  // namespace pbci_test

#endif  // PROTOBUF_C_ITER_TESTS_INVARIANTS_H_
