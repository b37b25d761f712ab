/* unpacked_size's fast path: one loop over the whole input with an explicit
 * stack, for inputs where each message instance comes from one occurrence.
 *
 * The general sizer (measure.c) handles everything the decoder accepts,
 * including sub-messages that merge from several occurrences, which is why
 * it keeps lists of occurrences and measures each instance in a call of its
 * own. Nearly every real input has no merges and no faults; then an
 * instance is exactly its one occurrence and can be sized the moment its
 * key is read, as the decoder allocates it (and a sub-message of plain
 * fields, such as a map entry, without a frame of its own). This path does
 * that (unknown fields and every option included) and gives up on anything
 * else: a group (singular message, oneof) seen twice in one instance,
 * unless it merges into the instance sized last in the frame above (below),
 * a known field without its usual key (another wire type, a longer key),
 * malformed framing, missing required fields, nesting past the limit, a
 * stack or scratch too small, totals near PTRDIFF_MAX. The caller then
 * runs the general sizer from the start, which decides and reports exactly
 * as before: this path only ever returns sizes the general sizer returns.
 *
 * One kind of merge stays here: a sub-message whose later occurrences merge
 * into the instance that was the last one opened one level down (a
 * singular field sent again and again, each occurrence adding elements to
 * its arrays). That instance's frame and array counts are still as it left
 * them, just above the parent's: the later occurrence reopens them and
 * goes on appending, as the decoder does into its struct. An occurrence
 * that follows the closing one at once does not even close it: the frame
 * goes on, as the decoder goes on (PbciNext). */
#include "measure_common.h"
#include "protobuf-c-iter/internal/decode.h"

/* The stack is kept in segments of SEGMENT_FRAMES open instances and
 * SEGMENT_COUNTS array counts (two per repeated field), about 2.5 KiB on
 * 64-bit hosts: a sub-message that finds its segment full is sized in a
 * new one, one call deeper. So stack use follows the input's nesting, a
 * segment per 16 levels, and a shallow input needs one. */
#define SEGMENT_FRAMES 16
#define SEGMENT_COUNTS 128
/* Over this, give up rather than check each sum for wrapping: string and
 * bytes copies (`hi`) never exceed the input's length, so lo + hi cannot
 * wrap while lo stays below it. */
#define FAST_LIMIT ((size_t)PTRDIFF_MAX / 2)

/* One open message instance. */
typedef struct Frame {
  const PbciMessage *type;
  const PbciFieldInfo *expect; /* the field expected next, while a child is
                                  open, */
  const PbciFieldInfo *last;   /* and the type's last field */
  const uint8_t *end;          /* end of its occurrence */
  const PbciFieldInfo *merge;  /* the field whose instance the frame above
                                  holds (or held, as it closed), or NULL */
  Instance in;                 /* its arrays (in the pool) */
  uint64_t groups;             /* groups seen, by bit */
  uint64_t required;           /* required fields seen, by bit */
} Frame;

/* The field at `field` (before `end`) in frame `f`, whose key is no
 * field's usual key: an unknown field (size_unknown). Returns the byte
 * after it, or NULL to give up (malformed, or a known field with another
 * key). */
static PBCI_NOINLINE const uint8_t *try_take_unknown(Frame *f,
                                                     const uint8_t *field,
                                                     const uint8_t *end,
                                                     uint32_t flags,
                                                     size_t *lo, size_t *hi) {
  PbciField u;
  const uint8_t *next = pbci_next_field(field, end, &u);
  if (next == NULL || pbci_find_field(f->type, u.tag >> 3) != NULL ||
      size_unknown(&f->in, (size_t)(u.end - u.raw), flags, lo, hi, FAST_LIMIT)) {
    return NULL;
  }
  return next;
}

/* The table of a message without fields: no key is its entry's usual key,
 * so every field is unknown (and no arithmetic on a NULL table). */
static const PbciFieldInfo no_fields = {.key = PBCI_KEY_NONE};

/* The first and the last entry of `type`'s table. */
PBCI_INLINE const PbciFieldInfo *first_field(const PbciMessage *type) {
  return type->n_fields != 0 ? type->fields : &no_fields;
}
PBCI_INLINE const PbciFieldInfo *last_field(const PbciMessage *type) {
  return type->n_fields != 0 ? type->fields + type->n_fields - 1 : &no_fields;
}

/* fits_masks for types with a count at 64 or more: each count checked.
 * Out of line, to keep the usual test to one compare in the hot loop. */
static PBCI_NOINLINE int fits_masks_each(const PbciMessage *type) {
  return type->n_groups <= 64 && type->n_required <= 64;
}

/* Whether the bit masks of a frame hold `type`'s groups and required
 * fields (64 each). Counts under 64 OR to under 64: one test for the usual
 * type. */
PBCI_INLINE int fits_masks(const PbciMessage *type) {
  return (type->n_groups | type->n_required) < 64 || fits_masks_each(type);
}

/* Whether the array counts of `type` fit in the rest of a pool, [spare,
 * pool_end): its counts not yet taken. */
PBCI_INLINE int fits_pool(const PbciMessage *type, const size_t *spare,
                          const size_t *pool_end) {
  return 2 * (size_t)type->n_counts <= (size_t)(pool_end - spare);
}

/* Opens frame f for a new instance of `type` (which fits_masks, and
 * fits_pool at *spare) whose occurrence ends at `end`, adding the struct to
 * *lo. Returns 0, or PBCI_DECLINED. */
PBCI_INLINE int open_frame(Frame *f, const PbciMessage *type,
                           const uint8_t *end, size_t **spare, size_t *lo) {
  if (instance_open(&f->in, type, *spare, lo, FAST_LIMIT)) return PBCI_DECLINED;
  f->type = type;
  f->end = end;
  f->merge = NULL;
  f->groups = 0;
  f->required = 0;
  *spare += 2 * (size_t)type->n_counts;
  return 0;
}

/* The options, as the loop uses them. */
typedef struct Options {
  uint32_t flags;
  uint32_t max_depth;
} Options;

/* Sizes an instance of `type` at nesting `depth` whose occurrence ends at
 * `end`, from p on, expecting field `expect` there, in a segment of its
 * own; adds to *lo and *hi. Returns 0, or PBCI_DECLINED. */
static PBCI_NOINLINE int measure_segment(const PbciMessage *type,
                                         const uint8_t *p, const uint8_t *end,
                                         const PbciFieldInfo *expect,
                                         uint32_t depth, const Options *o,
                                         size_t *lo_io, size_t *hi_io) {
  /* stack[0] stands below the segment's instance, its `end` that
   * instance's: the close's test for the parent's next field then fails
   * at the bottom without a test of its own. */
  Frame stack[1 + SEGMENT_FRAMES];
  Frame *const base = stack + 1;
  size_t pool[SEGMENT_COUNTS];
  size_t *spare = pool;
  Frame *f = base;
  const uint32_t flags = o->flags;
  /* Whether size_plain may size plain fields (see plain_sizing). */
  const int plain =
      !(flags & (PROTOBUF_C_ITER_VALIDATE_UTF8 | PROTOBUF_C_ITER_ALIAS_BYTES));
  /* The frame at which a child needs a check: past the nesting limit, or
   * past this segment. */
  const Frame *const deepest =
      base + (o->max_depth - depth < SEGMENT_FRAMES - 1 ? o->max_depth - depth
                                                        : SEGMENT_FRAMES - 1);
  const PbciFieldInfo *fi = expect, *last = last_field(type);
  size_t lo = *lo_io, hi = *hi_io;
  stack[0].end = end;
  if (!fits_masks(type) || !fits_pool(type, spare, pool + SEGMENT_COUNTS) ||
      open_frame(f, type, end, &spare, &lo)) {
    return PBCI_DECLINED;
  }
  for (;;) {
    while (p < end) {
      const uint8_t *const field = p;
      const uint8_t *v, *vend;
      const uint32_t key = key16(p, end, &v);
      if (fi->key != key) {
        /* An absent optional field, mostly: found by number. */
        const PbciFieldInfo *found = find_key(type, fi, key);
        if (found == NULL) {
          p = try_take_unknown(f, field, end, flags, &lo, &hi);
          if (p == NULL) return PBCI_DECLINED;
          continue;
        }
        fi = found;
      }
      switch (fi->op) {
        case PBCI_OP_VARINT:
          p = pbci_skip_varint(v, end);
          if (p == NULL) return PBCI_DECLINED;
          break;
        case PBCI_OP_FIXED64:
          if ((size_t)(end - v) < 8) return PBCI_DECLINED;
          p = v + 8;
          break;
        case PBCI_OP_FIXED32:
          if ((size_t)(end - v) < 4) return PBCI_DECLINED;
          p = v + 4;
          break;
        case PBCI_OP_STRING:
        case PBCI_OP_BYTES:
          p = pbci_read_len(v, end, &vend);
          if (p == NULL || size_copy(fi->kind, p, (size_t)(vend - p), flags, &hi)) {
            return PBCI_DECLINED;
          }
          p = vend;
          break;
        case PBCI_OP_PACKED_VARINT:
        case PBCI_OP_PACKED_FIXED32:
        case PBCI_OP_PACKED_FIXED64:
          if ((key & 7) != PBCI_WT_LEN) {
            /* An element of a repeated scalar sent unpacked (its usual
             * key: declared [packed = false]), as size_value takes it.
             * The same field is expected next: the run's next element. */
            size_t *const a = instance_array(&f->in, fi);
            p = pbci_try_skip(v, end, key & 7);
            if (p == NULL) return PBCI_DECLINED;
            if (a[0] != a[1]) {
              a[0]++;
            } else if (size_append(&a[0], &a[1], 1,
                                   a[0] + pbci_count_run(field, v, end),
                                   fi->elem_size, &lo, FAST_LIMIT)) {
              return PBCI_DECLINED;
            }
            continue;
          }
          goto other; /* a packed run */
        default:      /* PBCI_OP_OTHER */
        other:
          if (fi->flags & PBCI_FIELD_GROUP) {
            const uint64_t bit = UINT64_C(1) << fi->slot;
            if (PBCI_RARELY(f->groups & bit)) {
              /* A second occurrence merges or replaces. Only a merge into
               * the frame above, as it closed (nothing opened there
               * since), stays here: its counts and its arrays' counts go
               * on. Not for a type with required fields, whose bits the
               * frame holds for the first occurrence (the decoder checks
               * each). A message field's usual key is a length's. */
              if (f->merge != fi || fi->sub->n_required != 0 ||
                  (p = pbci_read_len(v, end, &vend)) == NULL) {
                return PBCI_DECLINED;
              }
              f->expect = fi + (fi != last);
              f->last = last;
              f++;
              type = fi->sub;
              f->end = vend;
              spare = f->in.arrays + 2 * (size_t)type->n_counts;
              end = vend;
              fi = first_field(type);
              last = last_field(type);
              continue;
            }
            f->groups |= bit;
          }
          if (fi->flags & PBCI_FIELD_REQUIRED) {
            f->required |= UINT64_C(1) << fi->required_bit;
          }
          if ((key & 7) == PBCI_WT_LEN) {
            p = pbci_read_len(v, end, &vend);
          } else {
            p = v;
            vend = pbci_try_skip(v, end, key & 7);
          }
          if (p == NULL || vend == NULL ||
              size_value(&f->in, fi, field, v, key & 7, p, vend, end, flags, &lo, &hi,
                         FAST_LIMIT)) {
            return PBCI_DECLINED;
          }
          if (fi->kind == PBCI_KIND_MESSAGE) {
            /* A sub-message: its instance starts here. Then the next
             * field is expected, or for a repeated one the same again. */
            const PbciMessage *const sub = fi->sub;
            const PbciFieldInfo *const after =
                fi + (fi != last && !(fi->flags & PBCI_FIELD_REPEATED));
            const PbciFieldInfo *sub_expect = first_field(sub);
            if (plain && f != deepest && sub->n_fields != 0 &&
                (sub->n_counts | sub->n_required) == 0) {
              /* A type without arrays or required fields is mostly a leaf
               * of plain fields (a map entry, a field's descriptor):
               * size_plain sizes it, and each element of a run of them,
               * without a frame to open and close. Anything else goes on
               * from where it stops, in a frame. */
              for (;;) {
                const uint8_t *next;
                p = size_plain(sub, &sub_expect, p, vend, &hi);
                if (p != vend) break; /* this one in a frame, from p */
                if (size_add(pbci_struct_bytes(sub->size), &lo, FAST_LIMIT)) {
                  return PBCI_DECLINED;
                }
                /* The next element of a repeated field (a run of map
                 * entries, say) here too, without the general path. */
                next = p;
                if (!(fi->flags & PBCI_FIELD_REPEATED) || p >= end ||
                    key16(p, end, &v) != fi->key) {
                  fi = after;
                  goto next_field;
                }
                p = pbci_read_len(v, end, &vend);
                if (p == NULL || size_value(&f->in, fi, next, v, PBCI_WT_LEN, p, vend, end,
                                            flags, &lo, &hi, FAST_LIMIT)) {
                  return PBCI_DECLINED;
                }
                sub_expect = sub->fields; /* n_fields != 0 */
              }
            }
            if (!fits_masks(sub)) return PBCI_DECLINED;
            if (f == deepest || !fits_pool(sub, spare, pool + SEGMENT_COUNTS)) {
              /* Past the limit, or in a segment of its own. */
              const uint32_t at = depth + (uint32_t)(f - base);
              size_t child_lo = lo, child_hi = hi;
              if (at >= o->max_depth ||
                  measure_segment(sub, p, vend, sub_expect, at + 1, o,
                                  &child_lo, &child_hi)) {
                return PBCI_DECLINED;
              }
              lo = child_lo;
              hi = child_hi;
              p = vend;
              fi = after;
              continue;
            }
            f->expect = after;
            f->last = last;
            f->merge = fi;
            f++;
            type = sub;
            if (open_frame(f, type, vend, &spare, &lo)) return PBCI_DECLINED;
            end = vend;
            fi = sub_expect;
            last = last_field(type);
            continue;
          }
          p = vend;
          break;
      }
      fi += fi != last;
    next_field:;
    }
    /* The occurrence is complete. The parent's next field may be this
     * one's again: a singular sub-message sent again and again. That
     * occurrence merges into this instance (as the merge above would
     * reopen it), so for a type whose decoder goes on there too
     * (PBCI_FIELD_GOES_ON: no required fields to check first, some
     * fields), it goes on here, without closing and reopening. */
    if (PBCI_RARELY(end < f[-1].end && *end == (uint8_t)f[-1].merge->key &&
                    (f[-1].merge->flags & PBCI_FIELD_GOES_ON))) {
      const uint8_t *v = end + 1, *vend;
      if (f[-1].merge->key < 0x80 ||
          key16(end, f[-1].end, &v) == f[-1].merge->key) {
        p = pbci_read_len(v, f[-1].end, &vend);
        if (p == NULL) return PBCI_DECLINED;
        f->end = end = vend;
        fi = type->fields;
        continue;
      }
    }
    /* The instance is complete: its required fields, then its parent. */
    if (!required_complete(type, f->required)) return PBCI_DECLINED;
    if (f == base) break;
    spare = f->in.arrays;
    f--;
    type = f->type;
    end = f->end;
    fi = f->expect;
    last = f->last;
  }
  *lo_io = lo;
  *hi_io = hi;
  return 0;
}

ptrdiff_t pbci_measure_fast(const PbciMessage *type, const uint8_t *p,
                            const uint8_t *end, PbciSize *size) {
  /* A flat message (plain fields only, nothing required), as most small
   * ones are, needs no stack: size_plain alone. Others go on from where it
   * stopped. */
  const PbciFieldInfo *expect = first_field(type);
  const uint8_t *q = p;
  size_t hi = 0;
  if (plain_sizing(type, size) && type->n_required == 0) {
    size_t lo = 0;
    q = size_plain(type, &expect, p, end, &hi);
    if (q == end && size_add(pbci_struct_bytes(type->size), &lo, FAST_LIMIT) == 0) {
      size->lo = lo;
      size->hi = hi;
      return 0;
    }
  }
  {
    Options o;
    size_t lo = 0;
    o.flags = size->ctx.flags;
    o.max_depth = size->ctx.max_depth;
    if (measure_segment(type, q, end, expect, 0, &o, &lo, &hi) ||
        lo + hi > (size_t)PTRDIFF_MAX) {
      return PBCI_DECLINED;
    }
    size->lo = lo;
    size->hi = hi;
    return 0;
  }
}
