/*
 * Reading a stream of length-delimited messages: each message preceded by
 * its length as a varint, as libprotobuf's writeDelimitedTo() and
 * parseDelimitedFrom() (Java) or SerializeDelimitedToOstream() (C++) frame
 * them. The reader decodes every message into one reused buffer, growing it
 * with the given allocator only when a message needs more room: to at least
 * twice its size (twice the message's wire size plus 4 KiB at first), then
 * decoding again. It never runs a sizing pass, so each message costs time
 * linear in its length on every input, and the buffer stays under twice the
 * largest need (or that first size).
 *
 *   ProtobufCIterReader r;
 *   void *msg;
 *   int rc;
 *   protobuf_c_iter_reader_init_file(&r, stdin, NULL);
 *   while ((rc = protobuf_c_iter_reader_next(&r, &foo__iter_type, NULL,
 *                                            &msg, NULL)) == 1) {
 *     use((Foo *)msg);   // valid until the next call
 *   }
 *   protobuf_c_iter_reader_destroy(&r);
 *   if (rc < 0) ...      // a PROTOBUF_C_ITER_ERR_* code
 */
#ifndef PROTOBUF_C_ITER_STREAM_H
#define PROTOBUF_C_ITER_STREAM_H

#include <protobuf-c/protobuf-c.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "protobuf-c-iter/protobuf-c-iter.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The longest message a reader accepts unless told otherwise:
 * PROTOBUF_C_ITER_ERR_TOO_LARGE beyond it. */
#define PROTOBUF_C_ITER_READER_DEFAULT_MAX (64u << 20)

/* The largest decode buffer a reader grows to unless told otherwise. A
 * message whose decoding needs more (merged sub-messages can need much more
 * than their wire size) is refused with PROTOBUF_C_ITER_ERR_TOO_LARGE. */
#define PROTOBUF_C_ITER_READER_DEFAULT_MAX_BUFFER (256u << 20)

/* A reader. Its members are private except `max_message_size` and
 * `max_buffer_size`, which may be changed between calls; together they
 * bound what the reader allocates (its input buffer holds one message and
 * its prefix, for FILE * and fd readers). */
typedef struct ProtobufCIterReader {
  size_t max_message_size; /* PROTOBUF_C_ITER_READER_DEFAULT_MAX at init */
  size_t max_buffer_size;  /* PROTOBUF_C_ITER_READER_DEFAULT_MAX_BUFFER */

  /* private */
  int kind;                /* memory, FILE * or file descriptor */
  FILE *file;
  int fd;
  const uint8_t *mem;      /* memory: the whole stream */
  size_t mem_len;
  uint8_t *in;             /* FILE / fd: bytes read, [in_pos, in_len) unused */
  size_t in_cap, in_pos, in_len;
  void *buf;               /* the decode buffer, aligned within buf_block */
  size_t buf_cap;
  void *buf_block;         /* what the allocator returned for it */
  ProtobufCAllocator *allocator; /* NULL: malloc and free */
  uint64_t offset;         /* stream offset of the next message's prefix */
} ProtobufCIterReader;

/* A reader of the `len` bytes at `data`, which must stay valid and unchanged
 * while messages are in use; nothing is copied: messages are decoded from
 * `data` in place. `allocator` (NULL for malloc) provides the decode
 * buffer; its blocks need no particular alignment (the reader aligns the
 * buffer within them). `data` may be NULL only with `len` 0: otherwise
 * reader_next returns PROTOBUF_C_ITER_ERR_INVALID_ARGUMENT. */
void protobuf_c_iter_reader_init_memory(ProtobufCIterReader *r,
                                        const void *data, size_t len,
                                        ProtobufCAllocator *allocator);

/* A reader of `file` from its current position (it is not closed). Where
 * the file ends, reader_next says so (0, or MALFORMED inside a message);
 * called again, it reads on from there, so a file that grew since (or a
 * terminal after an end of file) gives its next bytes. */
void protobuf_c_iter_reader_init_file(ProtobufCIterReader *r, FILE *file,
                                      ProtobufCAllocator *allocator);

/* A reader of file descriptor `fd` (it is not closed); reads are retried
 * on EINTR, and after the end of the file, as for FILE * readers, on the
 * next call. It reads ahead, as much as its input buffer holds (64 KiB, more
 * once a longer message came; the buffer never grows past max_message_size
 * plus 10 bytes, as the limit is when it grows, and never shrinks):
 * after the last message you take, bytes beyond it may already be consumed
 * from `fd`. A FILE * reader reads exactly what each message needs. */
void protobuf_c_iter_reader_init_fd(ProtobufCIterReader *r, int fd,
                                    ProtobufCAllocator *allocator);

/*
 * Reads the next message and decodes it as `type` (e.g. &foo__iter_type)
 * with `opts` (NULL: defaults). Returns
 *   1  a message: *msg points to it (in the reader's buffer); it stays valid
 *      until the next call or destroy. With PROTOBUF_C_ITER_ALIAS_BYTES its
 *      bytes fields point into the stream's memory (memory readers) or the
 *      reader's input buffer (valid until the next call);
 *   0  the stream ended cleanly, between two messages;
 *   <0 PROTOBUF_C_ITER_ERR_MALFORMED (a length prefix of more than 10 bytes
 *      or 64 bits, a stream that ends inside a message, or a message that
 *      does not decode),
 *      PROTOBUF_C_ITER_ERR_TOO_LARGE (the message or its decode buffer is
 *      over the limit), PROTOBUF_C_ITER_ERR_IO (errno says why),
 *      PROTOBUF_C_ITER_ERR_NO_MEMORY (the allocator failed), or any error
 *      of the message's decoder.
 * `status` (may be NULL) is filled as by x__iter_unpack_ex, its offset
 * counted from the start of the stream (saturating at SIZE_MAX on hosts
 * with a 32-bit size_t): the fault's, for the decoder's errors inside a
 * message; the message's length prefix's, for the reader's own (the
 * prefix, the stream's end, the limits, the allocator, IO). After an error about the message itself
 * (MALFORMED, MISSING_REQUIRED, DEPTH or BAD_UTF8 inside it, or a decode
 * buffer over max_buffer_size) the reader is past that message, so a
 * caller may skip it and go on; after any other error (a bad prefix, the
 * stream's end inside a message, NO_MEMORY, IO, invalid arguments or
 * options) it does not move: calling again retries, reading on where the
 * stream had ended. So does TOO_LARGE for a message over max_message_size:
 * its bytes are never read, and a retry fails the same way unless the limit
 * is raised.
 */
int protobuf_c_iter_reader_next(ProtobufCIterReader *r,
                                const ProtobufCIterType *type,
                                const ProtobufCIterOptions *opts, void **msg,
                                ProtobufCIterStatus *status);

/* Frees the reader's buffers (not the stream). The reader is then unusable
 * until initialised again. */
void protobuf_c_iter_reader_destroy(ProtobufCIterReader *r);

#ifdef __cplusplus
}
#endif

#endif /* PROTOBUF_C_ITER_STREAM_H */
