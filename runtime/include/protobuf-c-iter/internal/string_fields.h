/*
 * Internal, a part of protobuf-c-iter/internal/decode.h, which includes it
 * (and only it may, after its own declarations): strings and bytes: UTF-8 validation and copies into the arena. decode.h's
 * conventions apply.
 */
#ifndef PROTOBUF_C_ITER_INTERNAL_DECODE_H
#error "include protobuf-c-iter/internal/decode.h instead"
#endif
#ifndef PROTOBUF_C_ITER_INTERNAL_STRING_FIELDS_H
#define PROTOBUF_C_ITER_INTERNAL_STRING_FIELDS_H

/* ---- strings and bytes ---- */

/* Whether [p, p + n) is well-formed UTF-8 (RFC 3629). */
int pbci_utf8_valid(const uint8_t *p, size_t n);

/* A string value, length prefix first, at p: `s` is its NUL-terminated
 * copy (validated when the options ask) and `next` the byte after it. */
typedef struct PbciString {
  const uint8_t *next; /* NULL on failure */
  char *s;
} PbciString;

/* pbci_take_string for every value its inline path leaves: out of line,
 * shared by every string field, since copying any length takes hundreds of
 * bytes of code. */
PbciString pbci_take_other_string(PbciArena *a, const uint8_t *p,
                                  const uint8_t *end, ptrdiff_t *err);

/* The short string paths' copy of a value of n bytes ending at value_end:
 * the value and its NUL take the top n + 1 bytes of the free space, and the
 * value comes as one move of `block` bytes (at least n), the input's bytes
 * ending where it ends to those ending below the NUL, the same for every
 * length (no branch on it). The caller has checked that the input holds
 * `block` bytes before value_end and the free space more than `block`. The
 * bytes before the value are the input's (its key and length, earlier
 * fields), and those written below the string free space, whose contents
 * are unspecified. (`block`, a multiple of 16, is one memcpy where gcc
 * makes it 16-byte moves; on i386 its 16-byte pieces go through
 * pbci_move16, since a loop of them elsewhere can become one memcpy again,
 * and gcc's x86-64 expansion of an inline 64-byte one was `rep movsq`.) */
PBCI_INLINE PbciString pbci_put_string_block(PbciArena *a,
                                             const uint8_t *value_end, size_t n,
                                             size_t block) {
  PbciString r;
  unsigned char *const top = a->hi;
#if PBCI_I386_GCC
  size_t i;
  for (i = 0; i < block; i += 16) {
    pbci_move16(top - 1 - block + i, value_end - block + i);
  }
#else
  memcpy(top - 1 - block, value_end - block, block);
#endif
  top[-1] = '\0';
  a->hi = top - (n + 1);
  r.s = (char *)a->hi;
  r.next = value_end;
  return r;
}

/* Reads a string field's value at p (after its key) and copies it: on
 * failure `next` is NULL and *err PROTOBUF_C_ITER_ERR_MALFORMED (bad length
 * prefix), PROTOBUF_C_ITER_ERR_BAD_UTF8 or PROTOBUF_C_ITER_ERR_NO_MEMORY.
 * (Returned rather than stored: members are `char *` or, with
 * const_strings, `const char *`.)
 *
 * Inline for most strings: values of up to 16 bytes, without validation,
 * with 16 bytes of input before the value's end and 17 bytes of room, as
 * one 16-byte move (pbci_put_string_block). Inline, the call and its
 * register moves go too: rtb_bid_request decodes 8% faster, its code grows
 * 14% (docs/design.md). */
PBCI_INLINE PbciString pbci_take_string(PbciArena *a, const uint8_t *p,
                                        const uint8_t *end, ptrdiff_t *err) {
  if (p < end && p[0] <= 16) {
    const size_t n = p[0];
    unsigned char *const top = a->hi;
    if ((size_t)(end - p) > n && (size_t)(top - a->lo) > 16 &&
        (uintptr_t)(p + 1 + n) >= a->block_floor) {
      return pbci_put_string_block(a, p + 1 + n, n, 16);
    }
  }
  return pbci_take_other_string(a, p, end, err);
}

/* Reads a bytes field's value at p (after its key) into *bd: a copy, or
 * with PROTOBUF_C_ITER_ALIAS_BYTES the input itself; {0, NULL} when empty.
 * Returns the byte after it, or NULL with *err PROTOBUF_C_ITER_ERR_MALFORMED
 * or PROTOBUF_C_ITER_ERR_NO_MEMORY. */
const uint8_t *pbci_take_bytes(PbciArena *a, ProtobufCBinaryData *bd,
                               const uint8_t *p, const uint8_t *end,
                               ptrdiff_t *err);

#endif /* PROTOBUF_C_ITER_INTERNAL_STRING_FIELDS_H */
