/* unpacked_size's general sizer: one for every message, driven by its
 * field table (PbciMessage), and the occurrence lists it uses to size
 * merged sub-messages. It runs where the fast path (measure_fast.c) gives
 * up, and reports faults as the decoder does. */
#include "measure_common.h"
#include "protobuf-c-iter/internal/decode.h"

/* A callback for each range of a list (list_each). */
typedef ptrdiff_t (*RangeFn)(void *ctx, const uint8_t *p, const uint8_t *end);

/* The number of elements the occurrence `f` of repeated field `fi` holds:
 * a packed run's when f is length-delimited and the field is a scalar, else
 * 1. Returns (size_t)-1 for a malformed packed run. */
PBCI_INLINE size_t count_elements(const PbciFieldInfo *fi, const PbciField *f) {
  if ((f->tag & 7) != PBCI_WT_LEN || fi->kind != PBCI_KIND_SCALAR) return 1;
  return count_packed(fi->op, f->value, f->end);
}

/* Records the occurrence `f` of group member `member`. Returns 1 when it
 * ends the previous run, which `closing` then receives and the caller must
 * close before the next call; 0 otherwise. */
static int run_add(PbciRun *run, uint32_t member, const PbciField *f,
                   PbciRun *closing) {
  int ended = 0;
  if (run->member != member) {
    if (run->count != 0) {
      *closing = *run;
      ended = 1;
      run->index++;
    }
    run->member = member;
    run->count = 0;
  }
  if (run->count++ == 0) {
    run->key = f->key;
    run->p = f->value;
    run->end = f->end;
  }
  return ended;
}

/* The list of a closed run's occurrences of a member of `type`'s `group`,
 * for measuring its instance. */
static PbciList run_list(const PbciRun *run, const PbciList *parent,
                         const PbciMessage *type, uint32_t group) {
  PbciList l;
  if (run->count == 1) return pbci_list_single(run->p, run->end);
  l.parent = parent;
  l.p = run->key;
  l.end = NULL;
  l.type = type;
  l.group = group;
  l.member = run->member;
  l.run = run->index;
  return l;
}

/* Iteration of a derived list: scan the ranges of the parent list for the
 * group's members, follow the runs, pass on the occurrences of our run.
 *
 * When the parent is a single range, the scan starts at the key of the run's
 * first occurrence and stops at the run's end, so sizing each run costs its
 * own length. Otherwise the parent list is iterated from its start, which
 * costs the parent's length per run: unpacked_size is linear in the input
 * except for inputs whose sub-messages merge inside other merged
 * sub-messages. */
typedef struct FilterCtx {
  const PbciList *list;
  RangeFn fn;
  void *ctx;
  PbciRun run;
} FilterCtx;

#define PBCI_STOP 1 /* internal: the run is complete, stop iterating */

static int is_member(const PbciList *l, uint64_t number) {
  const PbciFieldInfo *fi = pbci_find_field(l->type, number);
  return fi != NULL && (fi->flags & PBCI_FIELD_GROUP) && fi->slot == l->group;
}

/* Follows runs through [p, end) and passes on the occurrences of run
 * `target`; returns PBCI_STOP once past it. */
static ptrdiff_t filter_range_from(FilterCtx *fc, const uint8_t *p,
                                   const uint8_t *end, size_t target) {
  PbciRun closing;
  PbciField f;
  while (p < end) {
    /* The owning message validated this range before building the list. */
    p = pbci_next_field(p, end, &f);
    if (p == NULL) return PROTOBUF_C_ITER_ERR_MALFORMED;
    if (!is_member(fc->list, f.tag >> 3)) continue;
    run_add(&fc->run, (uint32_t)(f.tag >> 3), &f, &closing);
    if (fc->run.index > target) return PBCI_STOP;
    if (fc->run.index == target) {
      /* A nested list's PBCI_STOP ends our iteration too. */
      ptrdiff_t r = fc->fn(fc->ctx, f.value, f.end);
      if (r != 0) return r;
    }
  }
  return 0;
}

static ptrdiff_t filter_range(void *ctx, const uint8_t *p, const uint8_t *end) {
  FilterCtx *fc = (FilterCtx *)ctx;
  return filter_range_from(fc, p, end, fc->list->run);
}

/* Calls fn(ctx, p, end) for each range of the list, in input order; stops at
 * the first negative result and returns it, else returns 0. */
static ptrdiff_t list_each(const PbciList *list, RangeFn fn, void *ctx) {
  FilterCtx fc;
  ptrdiff_t r;
  if (list->parent == NULL) return fn(ctx, list->p, list->end);
  memset(&fc, 0, sizeof fc);
  fc.list = list;
  fc.fn = fn;
  fc.ctx = ctx;
  if (list->parent->parent == NULL) {
    /* Resume at the run's first key: it is run 0 from there. */
    r = filter_range_from(&fc, list->p, list->parent->end, 0);
  } else {
    r = list_each(list->parent, filter_range, &fc);
  }
  return r == PBCI_STOP ? 0 : r;
}

/* ---- shared by both sizers ---- */

static ptrdiff_t measure_occurrence(const PbciMessage *type, size_t *counts,
                                    const uint8_t *p, const uint8_t *end,
                                    PbciSize *size, uint32_t depth);

/* The scratch the runtime holds itself (measure_one, measure_list): the
 * generator gives larger messages a sizer of their own, x__iter_measure,
 * which provides theirs (see MessageModel::own_sizer). */
#define LOCAL_COUNTS 8    /* repeated fields */
#define LOCAL_GROUPS 4    /* groups of merging sub-message occurrences */
#define LOCAL_REQUIRED 64 /* required fields without a default */

/* pbci_measure for the occurrences in `list` into one new instance of
 * `type`, with scratch of this frame or, for larger messages, through the
 * type's generated sizer. */
static PBCI_NOINLINE ptrdiff_t measure_list(const PbciMessage *type,
                                            const PbciList *list,
                                            PbciSize *size, uint32_t depth) {
  size_t counts[2 * LOCAL_COUNTS];
  PbciRun runs[LOCAL_GROUPS];
  uint64_t required[LOCAL_REQUIRED / 64];
  if (type->measure != NULL) return type->measure(list, size, depth);
  /* A table from another generator version: refuse rather than overrun. */
  if (type->n_counts > LOCAL_COUNTS || type->n_groups > LOCAL_GROUPS ||
      type->n_required > LOCAL_REQUIRED) {
    return PROTOBUF_C_ITER_ERR_INVALID_ARGUMENT;
  }
  return pbci_measure(type, counts, runs, required, list, size, depth);
}

/* Sizes one occurrence [p, end) of a sub-message into a new instance:
 * directly when its scratch is small, else through measure_list. Not
 * inlined, so that only this frame holds the scratch. */
static PBCI_NOINLINE ptrdiff_t measure_one(const PbciMessage *type,
                                           const uint8_t *p, const uint8_t *end,
                                           PbciSize *size, uint32_t depth) {
  size_t counts[2 * LOCAL_COUNTS];
  PbciList one;
  if (type->n_counts <= LOCAL_COUNTS &&
      (type->n_groups | type->n_required) < 64) {
    return measure_occurrence(type, counts, p, end, size, depth);
  }
  one = pbci_list_single(p, end);
  return measure_list(type, &one, size, depth);
}

/* Sizes the instance a closed run of a group decodes into. */
static ptrdiff_t close_run(const PbciMessage *type, const PbciList *parent,
                           const PbciRun *run, PbciSize *size, uint32_t depth) {
  const PbciFieldInfo *fi = pbci_find_field(type, run->member);
  PbciList list;
  if (fi->sub == NULL) return 0; /* a oneof member that is not a message */
  list = run_list(run, parent, type, fi->slot);
  return measure_list(fi->sub, &list, size, depth + 1);
}

/* The occurrence `f` of repeated field `fi` (before `end`, its message's
 * end) appends to an array of *n elements and capacity *cap: adds what the
 * decoder allocates for it (see "arrays" in decode.h) and updates both. */
PBCI_INLINE ptrdiff_t size_elements(PbciSize *size, const PbciFieldInfo *fi,
                                    const PbciField *f, const uint8_t *end,
                                    size_t *n, size_t *cap) {
  size_t add, need;
  if ((f->tag & 7) == PBCI_WT_LEN && fi->kind == PBCI_KIND_SCALAR) {
    add = count_elements(fi, f); /* a packed run */
    if (add == (size_t)-1) return PROTOBUF_C_ITER_ERR_MALFORMED;
    need = *n + add;
  } else {
    add = 1;
    need = *n == *cap ? *n + pbci_count_run(f->key, f->raw, end) : *n + 1;
  }
  if (need > *cap) {
    ptrdiff_t r;
    *cap = pbci_next_capacity(*cap, need);
    r = pbci_size_new_array(size, *cap, fi->elem_size);
    if (r < 0) return r;
  }
  *n += add;
  return 0;
}

/* An unknown field `f`, stored as pbci_store_unknown stores it: a copy of
 * its bytes, unless aliased, and an entry in the unknown-field array, which
 * holds *n entries with capacity *cap; nothing when discarded. */
static ptrdiff_t size_unknown(PbciSize *size, const PbciField *f, size_t *n,
                              size_t *cap) {
  ptrdiff_t r;
  if (size->ctx.flags & PROTOBUF_C_ITER_DISCARD_UNKNOWN) return 0;
  r = pbci_size_binary(size, (size_t)(f->end - f->raw));
  if (r < 0) return r;
  if (*n == *cap) {
    *cap = pbci_next_capacity(*cap, *n + 1);
    r = pbci_size_new_array(size, *cap, sizeof(ProtobufCMessageUnknownField));
    if (r < 0) return r;
  }
  ++*n;
  return 0;
}

/* What a field `fi` of this message (at `depth`, ending at `end`) adds for
 * its occurrence `f`, apart from group runs and required bits: the depth
 * check of a sub-message, its array's growth (`n`, `cap`: the array's
 * length and capacity, for a repeated field), a string's or bytes' copy,
 * a repeated sub-message. */
static ptrdiff_t size_known(PbciSize *size, const PbciFieldInfo *fi,
                            const PbciField *f, const uint8_t *end,
                            uint32_t depth, size_t *n, size_t *cap) {
  ptrdiff_t r;
  if (fi->kind == PBCI_KIND_MESSAGE && depth >= size->ctx.max_depth) {
    return PROTOBUF_C_ITER_ERR_DEPTH;
  }
  if (fi->flags & PBCI_FIELD_REPEATED) {
    r = size_elements(size, fi, f, end, n, cap);
    if (r < 0) return r;
  }
  switch (fi->kind) {
    case PBCI_KIND_STRING:
      return pbci_size_string(size, f->value, f->end);
    case PBCI_KIND_BYTES:
      return pbci_size_binary(size, (size_t)(f->end - f->value));
    case PBCI_KIND_MESSAGE:
      return fi->flags & PBCI_FIELD_REPEATED
                 ? measure_one(fi->sub, f->value, f->end, size, depth + 1)
                 : 0;
    default:
      return 0;
  }
}

/* ---- one occurrence: groups and required fields in bit masks ---- */

/* Sizes the runs of `group` in one occurrence [p, end) of `type`: for a
 * group that appeared more than once (merged sub-messages, or oneof members
 * replacing each other). The occurrence was checked already. */
static ptrdiff_t size_group_runs(const PbciMessage *type, uint32_t group,
                                 const uint8_t *p, const uint8_t *end,
                                 PbciSize *size, uint32_t depth) {
  PbciList parent = pbci_list_single(p, end);
  PbciRun run, closing;
  ptrdiff_t r;
  memset(&run, 0, sizeof run);
  while (p < end) {
    PbciField f;
    const PbciFieldInfo *fi;
    p = pbci_next_field(p, end, &f);
    if (p == NULL) return PROTOBUF_C_ITER_ERR_MALFORMED; /* not reached */
    fi = pbci_find_field(type, f.tag >> 3);
    if (fi == NULL || !(fi->flags & PBCI_FIELD_GROUP) || fi->slot != group)
      continue;
    if (run_add(&run, fi->number, &f, &closing)) {
      r = close_run(type, &parent, &closing, size, depth);
      if (r < 0) return r;
    }
  }
  return run.count != 0 ? close_run(type, &parent, &run, size, depth) : 0;
}

/* The first occurrences of groups, measured when the occurrence ends (if
 * their group turns out to have only one). Messages rarely hold more. */
#define PENDING 4

/* Sizes one occurrence [start, end) into a new message of `type`, which
 * has fewer than 64 groups and required fields; `counts` is scratch for
 * 2 * type->n_counts values (each array's length and capacity). Starts at
 * p, where size_plain stopped (else start), with `expect` and `hi` (plain
 * strings' and bytes' copies so far) as it left them.
 *
 * Plain fields take size_plain; the other known fields with their usual key
 * and a value that frames at once go on with that key and value (and an
 * element of a repeated message that fits its array needs no more); any
 * other field, including every fault, takes the general path, which reads
 * it again from its key. */
static ptrdiff_t measure_range(const PbciMessage *type, size_t *counts,
                               const uint8_t *start, const uint8_t *p,
                               const uint8_t *end, const PbciFieldInfo *expect,
                               size_t hi, PbciSize *size, uint32_t depth) {
  const uint8_t *field = p; /* key of the field being sized */
  /* No scratch (NULL) without repeated fields: NULL + 0 is undefined. */
  size_t *const caps = type->n_counts != 0 ? counts + type->n_counts : NULL;
  uint64_t required = 0;  /* required fields seen, by bit */
  uint64_t seen = 0;      /* groups seen, */
  uint64_t again = 0;     /* seen more than once, */
  uint64_t unpending = 0; /* seen once but not in `pending` */
  struct {
    const PbciFieldInfo *fi;
    const uint8_t *p, *end;
  } pending[PENDING];
  size_t n_pending = 0, n_unknown = 0, cap_unknown = 0, i;
  const int plain = plain_sizing(type, size);
  ptrdiff_t r;
  for (i = 0; i < 2 * (size_t)type->n_counts; i++) counts[i] = 0;
  while (p < end) {
    PbciField f;
    const PbciFieldInfo *fi;
    const uint8_t *v, *value;
    uint32_t key;
    field = p;
    if (type->n_fields == 0) goto general; /* every field is unknown */
    key = key16(p, end, &v);
    fi = expect->key == key ? expect : find_key(type, key);
    if (fi == NULL) goto general;
    if (plain && fi->op >= PBCI_OP_VARINT && fi->op <= PBCI_OP_BYTES) {
      /* A plain field: it and those after it. */
      expect = fi;
      p = size_plain(type, &expect, p, end, &hi);
      if (p != field) continue;
    }
    p = pbci_frame_inline(v, end, key & 7, &value);
    if (p == NULL) goto general;
    if (fi->flags == PBCI_FIELD_REPEATED && fi->kind == PBCI_KIND_MESSAGE &&
        counts[fi->slot] != caps[fi->slot]) {
      /* An element of a repeated message that fits its array. */
      counts[fi->slot]++;
      expect = fi;
      r = depth < size->ctx.max_depth
              ? measure_one(fi->sub, value, p, size, depth + 1)
              : PROTOBUF_C_ITER_ERR_DEPTH;
      if (r < 0) goto fail;
      continue;
    }
    /* A known field with a value framed above: to the general sizing. */
    f.tag = key16_tag(key);
    f.key = field;
    f.raw = v;
    f.value = value;
    f.end = p;
    goto known;
  general:
    p = pbci_next_field(field, end, &f);
    if (p == NULL) goto malformed;
    fi = pbci_find_field(type, f.tag >> 3);
    if (fi == NULL) {
      r = size_unknown(size, &f, &n_unknown, &cap_unknown);
      if (r < 0) goto fail;
      continue;
    }
    if (!(fi->wire_types >> (f.tag & 7) & 1)) goto malformed;
  known:
    expect = expect_after(type, fi);
    r = fi->flags & PBCI_FIELD_REPEATED
            ? size_known(size, fi, &f, end, depth, &counts[fi->slot],
                         &caps[fi->slot])
            : size_known(size, fi, &f, end, depth, NULL, NULL);
    if (r < 0) goto fail;
    if (fi->flags & PBCI_FIELD_GROUP) {
      uint64_t bit = UINT64_C(1) << fi->slot;
      if (seen & bit) {
        again |= bit;
      } else if (n_pending < PENDING) {
        seen |= bit;
        pending[n_pending].fi = fi;
        pending[n_pending].p = f.value;
        pending[n_pending].end = f.end;
        n_pending++;
      } else {
        seen |= bit;
        unpending |= bit;
      }
    }
    if (fi->flags & PBCI_FIELD_REQUIRED)
      required |= UINT64_C(1) << fi->required_bit;
  }
  if (type->n_required != 0 &&
      required != (~UINT64_C(0) >> (64 - type->n_required))) {
    return pbci_fail_required(&size->ctx, end, &required, type->required,
                              type->n_required);
  }
  r = pbci_size_array(size, 1, type->size);
  if (r == 0) r = pbci_size_bytes(size, hi);
  if (r < 0) goto fail;
  /* Sub-messages of groups seen once decode from one occurrence. */
  for (i = 0; i < n_pending; i++) {
    const PbciFieldInfo *fi = pending[i].fi;
    if ((again >> fi->slot & 1) || fi->sub == NULL) continue;
    r = measure_one(fi->sub, pending[i].p, pending[i].end, size, depth + 1);
    if (r < 0) return r;
  }
  /* The rest follow their runs through the occurrence again. */
  again |= unpending;
  while (again != 0) {
    uint32_t group = (uint32_t)pbci_ctz64(again);
    again &= again - 1;
    r = size_group_runs(type, group, start, end, size, depth);
    if (r < 0) return r;
  }
  return 0;
malformed:
  r = PROTOBUF_C_ITER_ERR_MALFORMED;
fail:
  return pbci_fail(&size->ctx, r, field, end);
}

/* Sizes one occurrence [p, end) as measure_range does. An occurrence of
 * plain fields only, which most small messages are, takes size_plain
 * alone; the rest go on in measure_range from where it stopped. */
static ptrdiff_t measure_occurrence(const PbciMessage *type, size_t *counts,
                                    const uint8_t *p, const uint8_t *end,
                                    PbciSize *size, uint32_t depth) {
  const PbciFieldInfo *expect = type->fields;
  const uint8_t *q = p;
  size_t hi = 0;
  if (plain_sizing(type, size)) {
    q = size_plain(type, &expect, p, end, &hi);
    if (q == end && type->n_required == 0) {
      const size_t lo = size->lo;
      ptrdiff_t r = pbci_size_array(size, 1, type->size);
      if (r == 0) r = pbci_size_bytes(size, hi);
      if (r == 0) return 0;
      /* Over PTRDIFF_MAX: measure_range reports it as it always does. */
      size->lo = lo;
      q = p;
      expect = type->fields;
      hi = 0;
    }
  }
  return measure_range(type, counts, p, q, end, expect, hi, size, depth);
}

/* ---- merged occurrences, with scratch for everything ---- */

/* One message instance being measured over a list of occurrences: its
 * type, the list and what carries from one occurrence to the next. */
typedef struct Measure {
  const PbciMessage *type;
  PbciSize *size;
  const PbciList *list;
  uint32_t depth;
  size_t *counts;     /* per repeated field: elements so far */
  size_t *caps;       /* per repeated field: the array's capacity */
  PbciRun *runs;      /* per group: its current run */
  uint64_t *required; /* required fields seen in this occurrence */
  size_t n_unknown;   /* unknown fields so far, */
  size_t cap_unknown; /* and the capacity of their array */
} Measure;

/* What one field adds; `fi` takes its wire type. */
static ptrdiff_t size_field(Measure *m, const PbciFieldInfo *fi,
                            const PbciField *f, const uint8_t *end) {
  ptrdiff_t r = fi->flags & PBCI_FIELD_REPEATED
                    ? size_known(m->size, fi, f, end, m->depth,
                                 &m->counts[fi->slot], &m->caps[fi->slot])
                    : size_known(m->size, fi, f, end, m->depth, NULL, NULL);
  if (r < 0) return r;
  if (fi->flags & PBCI_FIELD_GROUP) {
    PbciRun closing;
    if (run_add(&m->runs[fi->slot], fi->number, f, &closing)) {
      r = close_run(m->type, m->list, &closing, m->size, m->depth);
      if (r < 0) return r;
    }
  }
  if (fi->flags & PBCI_FIELD_REQUIRED) {
    m->required[fi->required_bit / 64] |= UINT64_C(1)
                                          << (fi->required_bit % 64);
  }
  return 0;
}

/* Sizes one occurrence of the list, [p, end). */
static ptrdiff_t size_range(void *ctx, const uint8_t *p, const uint8_t *end) {
  Measure *m = (Measure *)ctx;
  const PbciMessage *type = m->type;
  const uint8_t *field = p; /* key of the field being sized */
  size_t i;
  ptrdiff_t r;
  /* Capacities carry over from the instance's earlier occurrences, as the
   * decoder finds them in its arrays' headers. */
  for (i = 0; i < (type->n_required + 63) / 64; i++) m->required[i] = 0;
  while (p < end) {
    PbciField f;
    const PbciFieldInfo *fi;
    field = p;
    p = pbci_next_field(p, end, &f);
    if (p == NULL) goto malformed;
    fi = pbci_find_field(type, f.tag >> 3);
    if (fi == NULL) {
      r = size_unknown(m->size, &f, &m->n_unknown, &m->cap_unknown);
      if (r < 0) goto fail;
      continue;
    }
    if (!(fi->wire_types >> (f.tag & 7) & 1)) goto malformed;
    /* Scalars outside arrays and oneofs allocate nothing. */
    if (fi->kind == PBCI_KIND_SCALAR && fi->flags == 0) continue;
    r = size_field(m, fi, &f, end);
    if (r < 0) goto fail;
  }
  for (i = 0; i < type->n_required; i++) {
    if (!(m->required[i / 64] >> (i % 64) & 1)) {
      return pbci_fail_required(&m->size->ctx, end, m->required, type->required,
                                type->n_required);
    }
  }
  return 0;
malformed:
  r = PROTOBUF_C_ITER_ERR_MALFORMED;
fail:
  return pbci_fail(&m->size->ctx, r, field, end);
}

ptrdiff_t pbci_measure(const PbciMessage *type, size_t *counts, PbciRun *runs,
                       uint64_t *required, const PbciList *list, PbciSize *size,
                       uint32_t depth) {
  Measure m;
  ptrdiff_t r;
  size_t i;
  /* One occurrence (no merge) is the common case. */
  if (list->parent == NULL && (type->n_groups | type->n_required) < 64) {
    return measure_occurrence(type, counts, list->p, list->end, size, depth);
  }
  m.type = type;
  m.size = size;
  m.list = list;
  m.depth = depth;
  m.counts = counts;
  m.caps = type->n_counts != 0 ? counts + type->n_counts : NULL;
  m.runs = runs;
  m.required = required;
  m.n_unknown = 0;
  m.cap_unknown = 0;
  for (i = 0; i < type->n_counts; i++) m.counts[i] = m.caps[i] = 0;
  if (type->n_groups != 0) memset(runs, 0, type->n_groups * sizeof *runs);
  r = pbci_size_array(size, 1, type->size);
  if (r < 0) return r;
  r = list->parent == NULL ? size_range(&m, list->p, list->end)
                           : list_each(list, size_range, &m);
  if (r < 0) return r;
  for (i = 0; i < type->n_groups; i++) {
    if (m.runs[i].count != 0) {
      r = close_run(type, list, &m.runs[i], size, depth);
      if (r < 0) return r;
    }
  }
  return 0;
}

ptrdiff_t pbci_measure_top(const PbciMessage *type, const uint8_t *p,
                           const uint8_t *end, PbciSize *size) {
  /* Most inputs take the fast path; it leaves `size` alone otherwise. */
  if (pbci_measure_fast(type, p, end, size) == 0) return 0;
  return measure_one(type, p, end, size, 0);
}
