/* PROTOBUF_C_ITER_BUF_ALIGN and the alignment of a PROTOBUF_C_ITER_BUFFER,
 * as C built to the standard PBCI_TEST_C_STD (c99 or c11) sees them:
 * runtime_test checks that they agree with C++ (a runtime built as one
 * and a caller built as another must ask the same of a buffer). */
#include <protobuf-c-iter/protobuf-c-iter.h>

#define PBCI_TEST_JOIN_(a, b) a##b
#define PBCI_TEST_JOIN(a, b) PBCI_TEST_JOIN_(a, b)
#define PBCI_TEST_BUF_ALIGN \
  PBCI_TEST_JOIN(pbci_test_buf_align_, PBCI_TEST_C_STD)
#define PBCI_TEST_BUFFER_ALIGN \
  PBCI_TEST_JOIN(pbci_test_buffer_align_, PBCI_TEST_C_STD)

size_t PBCI_TEST_BUF_ALIGN(void);
size_t PBCI_TEST_BUFFER_ALIGN(void);

/* After a char, a member sits at its own alignment. */
struct PbciTestBufferAfterChar {
  char c;
  PROTOBUF_C_ITER_BUFFER(buf, 1);
};

size_t PBCI_TEST_BUF_ALIGN(void) { return PROTOBUF_C_ITER_BUF_ALIGN; }

size_t PBCI_TEST_BUFFER_ALIGN(void) {
  return offsetof(struct PbciTestBufferAfterChar, buf);
}
