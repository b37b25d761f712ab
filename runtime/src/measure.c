/* unpacked_size's general sizer: one for every message, driven by its
 * field table (PbciMessage), and the occurrence lists it uses to size
 * merged sub-messages. It runs where the fast path (measure_fast.c) gives
 * up, and reports faults as the decoder does. */
#include "measure_common.h"
#include "protobuf-c-iter/internal/decode.h"

struct PbciLevel;

/* A callback for each range of a list (list_each): `from` is the level of
 * the iteration that found it, waiting while the callback runs (NULL for a
 * single range). */
typedef ptrdiff_t (*RangeFn)(void *ctx, const uint8_t *p, const uint8_t *end,
                             const struct PbciLevel *from);

/* ---- iterating a list ----
 *
 * A run's occurrences are fields of the parent's occurrences, which may be
 * a run themselves: one level per list, each scanning the ranges the level
 * above gives it for its group's members. A level keeps where it is, so
 * that a run found in one of its ranges can resume the whole chain from
 * there (level_resume) instead of reading the parent's occurrences from
 * their start: sizing a run reads its own span, and all the runs of one
 * group read the parent's occurrences once. */
typedef struct PbciLevel {
  const PbciMessage *type; /* the parent's type, */
  uint32_t group;          /* the group */
  uint32_t member;         /* and the member whose occurrences pass */
  RangeFn fn;              /* where they go */
  void *ctx;
  const uint8_t *next;     /* after the occurrence being passed on */
  const uint8_t *end;      /* the end of the range holding it */
  const uint8_t *last;     /* the end of the list's last occurrence, once
                              known: nothing after it is read */
  const struct PbciLevel *outer; /* the level that gave that range, waiting;
                                    NULL: a single range */
  PbciSize *size;                /* whose work limit the scan counts down */
} Level;

/* The field of `type` numbered by `tag` when it is a member of `group`,
 * else NULL. */
PBCI_INLINE const PbciFieldInfo *group_member(const PbciMessage *type,
                                              uint32_t group, uint64_t tag) {
  const PbciFieldInfo *fi = pbci_find_field(type, tag >> 3);
  return fi != NULL && (fi->flags & PBCI_FIELD_GROUP) && fi->slot == group
             ? fi
             : NULL;
}

/* A level over the ranges `list` (a run) finds, passing its occurrences to
 * fn(ctx, ...), up to the one ending at `last` when that is known; its
 * reads count against size->work. */
static Level list_level(const PbciList *list, const uint8_t *last, RangeFn fn,
                        void *ctx, PbciSize *size) {
  Level lv;
  lv.type = list->type;
  lv.group = list->group;
  lv.member = list->member;
  lv.fn = fn;
  lv.ctx = ctx;
  lv.next = list->p;
  lv.end = list->end;
  lv.last = last;
  lv.outer = list->outer;
  lv.size = size;
  return lv;
}

/* Scans [p, end), a range of the level above: passes on each occurrence of
 * the level's member; returns PBCI_DECLINED at another member of its group.
 *
 * A list's first range is read once per run of a group (each run's scan
 * stops where the next run starts): linear in the input. The scans of a
 * resumed list are not: a merged instance's list resumes its parents'
 * lists over everything between their occurrences, once per merged
 * instance. So the `counted` scans (level_resume's, and the ranges it
 * hands down) count each field read against the work limit. */
PBCI_INLINE ptrdiff_t level_scan(Level *lv, const uint8_t *p,
                                 const uint8_t *end, int counted) {
  size_t *const work = &lv->size->work;
  lv->end = end;
  while (p < end) {
    PbciField f;
    const PbciFieldInfo *fi;
    ptrdiff_t r;
    if (counted) {
      if (*work == 0) {
        return pbci_fail(&lv->size->ctx, PROTOBUF_C_ITER_ERR_WORK_LIMIT, p,
                         end);
      }
      *work -= 1;
    }
    /* The owning message validated this range before its runs are sized. */
    p = pbci_next_field(p, end, &f);
    if (p == NULL) return PROTOBUF_C_ITER_ERR_MALFORMED;
    fi = group_member(lv->type, lv->group, f.tag);
    if (fi == NULL) continue;
    if (fi->number != lv->member) return PBCI_DECLINED;
    lv->next = p;
    r = lv->fn(lv->ctx, f.value, f.end, lv);
    if (r != 0) return r;
    if (f.end == lv->last) return PBCI_DECLINED;
  }
  return 0;
}

/* A RangeFn giving the ranges of one level to the level below (ctx). */
static ptrdiff_t level_range(void *ctx, const uint8_t *p, const uint8_t *end,
                             const Level *from) {
  Level *below = (Level *)ctx;
  below->outer = from;
  return level_scan(below, p, end, 1);
}

/* Goes on with the waiting level `from` after its current occurrence (a
 * copy: `from` stays as it is, for other runs), giving each further range
 * to `below`. */
static ptrdiff_t level_resume(const Level *from, Level *below) {
  Level lv = *from;
  ptrdiff_t r;
  lv.fn = level_range;
  lv.ctx = below;
  r = level_scan(&lv, from->next, from->end, 1);
  if (r != 0 || from->outer == NULL) return r;
  return level_resume(from->outer, &lv);
}

/* Calls fn(ctx, p, end, from) for each range of the list, in input order,
 * up to the one ending at `last` when that is known (not NULL); stops at
 * the first negative result and returns it, else returns 0. */
static ptrdiff_t list_each(const PbciList *list, const uint8_t *last,
                           RangeFn fn, void *ctx, PbciSize *size) {
  Level lv;
  ptrdiff_t r;
  if (list->type == NULL) return fn(ctx, list->p, list->end, NULL);
  lv = list_level(list, last, fn, ctx, size);
  r = level_scan(&lv, list->p, list->end, 0);
  if (r == 0 && list->outer != NULL) r = level_resume(list->outer, &lv);
  return r == PBCI_DECLINED ? 0 : r;
}

/* ---- shared by both sizers ---- */

static ptrdiff_t measure_occurrence(const PbciMessage *type, size_t *counts,
                                    const uint8_t *p, const uint8_t *end,
                                    PbciSize *size, uint32_t depth);

/* measure_one and measure_list hold the scratch of messages within
 * PBCI_LOCAL_COUNTS, PBCI_LOCAL_GROUPS and PBCI_LOCAL_REQUIRED
 * (internal/limits.h); the generator gives larger ones a sizer of their own,
 * x__iter_measure, which provides theirs (see MessageModel::own_sizer). */

/* pbci_measure for the occurrences in `list` into one new instance of
 * `type`, with scratch of this frame or, for larger messages, through the
 * type's generated sizer. */
static PBCI_NOINLINE ptrdiff_t measure_list(const PbciMessage *type,
                                            const PbciList *list,
                                            PbciSize *size, uint32_t depth) {
  size_t counts[2 * PBCI_LOCAL_COUNTS];
  PbciRun runs[PBCI_LOCAL_GROUPS];
  uint64_t required[PBCI_LOCAL_REQUIRED / 64];
  if (type->measure != NULL) return type->measure(list, size, depth);
  /* A table from another generator version: refuse rather than overrun. */
  if (type->n_counts > PBCI_LOCAL_COUNTS || type->n_groups > PBCI_LOCAL_GROUPS ||
      type->n_required > PBCI_LOCAL_REQUIRED) {
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
  size_t counts[2 * PBCI_LOCAL_COUNTS];
  PbciList one;
  if (type->n_counts <= PBCI_LOCAL_COUNTS &&
      (type->n_groups | type->n_required) < 64) {
    return measure_occurrence(type, counts, p, end, size, depth);
  }
  one = pbci_list_single(p, end);
  return measure_list(type, &one, size, depth);
}

/* The list of the run of member `fi` (of a message of `type`) whose first
 * occurrence's key is `key`, in a range ending at `end` that the waiting
 * level `outer` gave (NULL: a single range). */
static PbciList run_list(const PbciMessage *type, const PbciFieldInfo *fi,
                         const uint8_t *key, const uint8_t *end,
                         const Level *outer) {
  PbciList run;
  run.p = key;
  run.end = end;
  run.type = type;
  run.group = fi->slot;
  run.member = fi->number;
  run.outer = outer;
  return run;
}

/* Measuring the runs of one group (a singular message, or a oneof holding
 * one) of a message's occurrences, after those: each run decodes into an
 * instance of its own, sized where it starts, from its list. A group whose
 * occurrences are all of one member, the first in the first range, is one
 * run known without this pass (measure_range, pbci_measure). */
typedef struct GroupPass {
  const PbciMessage *type;
  uint32_t group;
  uint32_t member; /* the current run's field, 0 before the first */
  PbciSize *size;
  uint32_t depth;  /* of the message */
} GroupPass;

/* A RangeFn: the group's runs starting in one occurrence [p, end). */
static ptrdiff_t group_range(void *ctx, const uint8_t *p, const uint8_t *end,
                             const Level *from) {
  GroupPass *g = (GroupPass *)ctx;
  while (p < end) {
    PbciField f;
    const PbciFieldInfo *fi;
    const uint8_t *key = p;
    p = pbci_next_field(p, end, &f);
    if (p == NULL) return PROTOBUF_C_ITER_ERR_MALFORMED; /* validated */
    fi = group_member(g->type, g->group, f.tag);
    if (fi == NULL || fi->number == g->member) continue;
    g->member = fi->number; /* a run starts */
    if (fi->sub != NULL) {  /* not a oneof's scalar */
      const PbciList run = run_list(g->type, fi, key, end, from);
      ptrdiff_t r = measure_list(fi->sub, &run, g->size, g->depth + 1);
      if (r < 0) return r;
    }
  }
  return 0;
}

/* Sizes the runs of `group` in the occurrences of `list` (the last ending
 * at `last`), a message of `type` at `depth` whose occurrences were checked
 * already. */
static ptrdiff_t size_group(const PbciMessage *type, uint32_t group,
                            const PbciList *list, const uint8_t *last,
                            PbciSize *size, uint32_t depth) {
  GroupPass g;
  g.type = type;
  g.group = group;
  g.member = 0;
  g.size = size;
  g.depth = depth;
  return list_each(list, last, group_range, &g, size);
}

/* Whether the sizes so far stay within PTRDIFF_MAX, as every allocation
 * the decoder makes must: PROTOBUF_C_ITER_ERR_NO_MEMORY when they do not. */
PBCI_INLINE ptrdiff_t within_limit(const PbciSize *size) {
  return size->hi > PTRDIFF_MAX - size->lo ? PROTOBUF_C_ITER_ERR_NO_MEMORY : 0;
}

/* The lo end's limit while the sizes stay within PTRDIFF_MAX. */
PBCI_INLINE size_t lo_limit(const PbciSize *size) {
  return PTRDIFF_MAX - size->hi;
}

/* An unknown field `f` of instance `in` (size_unknown). */
static ptrdiff_t size_unknown_field(PbciSize *size, Instance *in,
                                    const PbciField *f) {
  ptrdiff_t r = size_unknown(in, (size_t)(f->end - f->raw), size->ctx.flags,
                             &size->lo, &size->hi, lo_limit(size));
  return r != 0 ? r : within_limit(size);
}

/* What a field `fi` of instance `in` (a message at `depth`, ending at
 * `end`) adds for its occurrence `f`, apart from group runs and required
 * bits: the depth check of a sub-message, the per-field step (size_value),
 * a repeated sub-message's instance. */
static ptrdiff_t size_known(PbciSize *size, Instance *in,
                            const PbciFieldInfo *fi, const PbciField *f,
                            const uint8_t *end, uint32_t depth) {
  ptrdiff_t r;
  if (fi->kind == PBCI_KIND_MESSAGE && depth >= size->ctx.max_depth) {
    return PROTOBUF_C_ITER_ERR_DEPTH;
  }
  r = size_value(in, fi, f->key, f->raw, (uint32_t)(f->tag & 7), f->value,
                 f->end, end, size->ctx.flags, &size->lo, &size->hi,
                 lo_limit(size));
  if (r == 0) r = within_limit(size);
  if (r == 0 && fi->kind == PBCI_KIND_MESSAGE &&
      (fi->flags & PBCI_FIELD_REPEATED)) {
    r = measure_one(fi->sub, f->value, f->end, size, depth + 1);
  }
  return r;
}

/* ---- one occurrence: groups and required fields in bit masks ---- */

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
  Instance in;
  uint64_t required = 0;  /* required fields seen, by bit */
  uint64_t seen = 0;      /* groups seen, */
  uint64_t again = 0;     /* seen more than once, */
  uint64_t switched = 0;  /* with another member than the first, */
  uint64_t unpending = 0; /* seen once but not in `pending` */
  struct {
    const PbciFieldInfo *fi;
    const uint8_t *key, *p, *end;
  } pending[PENDING];
  size_t n_pending = 0, i;
  const int plain = plain_sizing(type, size);
  ptrdiff_t r;
  if (instance_open(&in, type, counts, &size->lo, lo_limit(size))) {
    return pbci_fail(&size->ctx, PROTOBUF_C_ITER_ERR_NO_MEMORY, start, end);
  }
  while (p < end) {
    PbciField f;
    const PbciFieldInfo *fi;
    const uint8_t *v, *value;
    uint32_t key;
    field = p;
    if (type->n_fields == 0) goto general; /* every field is unknown */
    key = key16(p, end, &v);
    fi = expect->key == key ? expect : find_key(type, expect, key);
    if (fi == NULL) goto general;
    if (plain && fi->op >= PBCI_OP_VARINT && fi->op <= PBCI_OP_BYTES) {
      /* A plain field: it and those after it. */
      expect = fi;
      p = size_plain(type, &expect, p, end, &hi);
      if (p != field) continue;
    }
    p = pbci_try_frame(v, end, key & 7, &value);
    if (p == NULL) goto general;
    if (fi->flags == PBCI_FIELD_REPEATED && fi->kind == PBCI_KIND_MESSAGE &&
        instance_array(&in, fi)[0] != instance_array(&in, fi)[1]) {
      /* An element of a repeated message that fits its array. */
      instance_array(&in, fi)[0]++;
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
      r = size_unknown_field(size, &in, &f);
      if (r < 0) goto fail;
      continue;
    }
    if (!(fi->wire_types >> (f.tag & 7) & 1)) goto malformed;
  known:
    expect = expect_after(type, fi);
    r = size_known(size, &in, fi, &f, end, depth);
    if (r < 0) goto fail;
    if (fi->flags & PBCI_FIELD_GROUP) {
      uint64_t bit = UINT64_C(1) << fi->slot;
      if (seen & bit) {
        again |= bit;
        for (i = 0; i < n_pending; i++) {
          if (pending[i].fi->slot == fi->slot && pending[i].fi != fi) {
            switched |= bit;
          }
        }
      } else if (n_pending < PENDING) {
        seen |= bit;
        pending[n_pending].fi = fi;
        pending[n_pending].key = f.key;
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
  if (!required_complete(type, required)) {
    return pbci_fail_required(&size->ctx, end, &required, type->required,
                              type->n_required);
  }
  r = pbci_size_bytes(size, hi);
  if (r < 0) goto fail;
  /* Sub-messages of groups seen once decode from one occurrence; those of
   * groups seen again with one member, from one run starting at the
   * first. */
  for (i = 0; i < n_pending; i++) {
    const PbciFieldInfo *fi = pending[i].fi;
    const uint64_t bit = UINT64_C(1) << fi->slot;
    if (fi->sub == NULL) { /* a oneof's scalar: no instance */
      if (!(switched & bit)) again &= ~bit;
      continue;
    }
    if (!(again & bit)) {
      r = measure_one(fi->sub, pending[i].p, pending[i].end, size, depth + 1);
    } else if (!(switched & bit)) {
      const PbciList run = run_list(type, fi, pending[i].key, end, NULL);
      again &= ~bit;
      r = measure_list(fi->sub, &run, size, depth + 1);
    } else {
      continue;
    }
    if (r < 0) return r;
  }
  /* The rest follow their runs through the occurrence again. */
  again |= unpending;
  if (again != 0) {
    const PbciList whole = pbci_list_single(start, end);
    while (again != 0) {
      uint32_t group = (uint32_t)pbci_ctz64(again);
      again &= again - 1;
      r = size_group(type, group, &whole, end, size, depth);
      if (r < 0) return r;
    }
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
      ptrdiff_t r = pbci_size_struct(size, type->size);
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
 * type and what carries from one occurrence to the next. */
typedef struct Measure {
  const PbciMessage *type;
  PbciSize *size;
  uint32_t depth;
  Instance in;        /* its arrays so far */
  PbciRun *runs;      /* per group: whether it occurred */
  uint64_t *required; /* required fields seen in this occurrence */
  const uint8_t *last; /* the end of the latest occurrence */
  int in_first;        /* whether that is the first */
} Measure;

/* What one field adds, apart from the runs of its group (measured after
 * the occurrences); `fi` takes its wire type. */
static ptrdiff_t size_field(Measure *m, const PbciFieldInfo *fi,
                            const PbciField *f, const uint8_t *end) {
  ptrdiff_t r = size_known(m->size, &m->in, fi, f, end, m->depth);
  if (r < 0) return r;
  if (fi->flags & PBCI_FIELD_GROUP) {
    PbciRun *g = &m->runs[fi->slot];
    if (!g->seen) {
      g->seen = 1;
      g->in_first = m->in_first;
      g->member = fi->number;
      g->key = f->key;
      g->end = end;
    } else if (g->member != fi->number) {
      g->switched = 1;
    }
  }
  if (fi->flags & PBCI_FIELD_REQUIRED) {
    m->required[fi->required_bit / 64] |= UINT64_C(1)
                                          << (fi->required_bit % 64);
  }
  return 0;
}

/* A RangeFn: sizes one occurrence of the list, [p, end). */
static ptrdiff_t size_range(void *ctx, const uint8_t *p, const uint8_t *end,
                            const Level *from) {
  Measure *m = (Measure *)ctx;
  const PbciMessage *type = m->type;
  const uint8_t *field = p; /* key of the field being sized */
  size_t i;
  ptrdiff_t r;
  (void)from;
  m->in_first = m->last == NULL;
  m->last = end;
  /* Capacities carry over from the instance's earlier occurrences, as the
   * decoder finds them in its arrays' headers; required fields do not. */
  for (i = 0; i < (type->n_required + 63) / 64; i++) m->required[i] = 0;
  while (p < end) {
    PbciField f;
    const PbciFieldInfo *fi;
    field = p;
    p = pbci_next_field(p, end, &f);
    if (p == NULL) goto malformed;
    fi = pbci_find_field(type, f.tag >> 3);
    if (fi == NULL) {
      r = size_unknown_field(m->size, &m->in, &f);
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

/* Sizes the one run of a group of `list`'s message (of `type`, at `depth`)
 * whose members are all `run->member`, the first of them in the list's
 * first range; `last` ends the list's last occurrence. The run's list
 * resumes, after that range, a level as the list's own iteration left it
 * there: what a pass over the groups would wait in. */
static ptrdiff_t size_first_run(const PbciMessage *type, const PbciRun *run,
                                const PbciList *list, const uint8_t *last,
                                PbciSize *size, uint32_t depth) {
  const PbciFieldInfo *fi = pbci_find_field(type, run->member);
  PbciList child;
  Level after_first;
  if (fi->sub == NULL) return 0; /* a oneof's scalar: no instance */
  if (list->type == NULL) {
    child = run_list(type, fi, run->key, run->end, NULL);
  } else {
    PbciField f;
    /* level_resume sets fn */
    after_first = list_level(list, last, NULL, NULL, size);
    after_first.next = pbci_next_field(list->p, list->end, &f);
    if (after_first.next == NULL) return PROTOBUF_C_ITER_ERR_MALFORMED;
    child = run_list(type, fi, run->key, run->end, &after_first);
  }
  return measure_list(fi->sub, &child, size, depth + 1);
}

ptrdiff_t pbci_measure(const PbciMessage *type, size_t *counts, PbciRun *runs,
                       uint64_t *required, const PbciList *list, PbciSize *size,
                       uint32_t depth) {
  Measure m;
  ptrdiff_t r;
  uint32_t g;
  /* One occurrence (no merge) is the common case. */
  if (list->type == NULL && (type->n_groups | type->n_required) < 64) {
    return measure_occurrence(type, counts, list->p, list->end, size, depth);
  }
  m.type = type;
  m.size = size;
  m.depth = depth;
  m.runs = runs;
  m.required = required;
  for (g = 0; g < type->n_groups; g++) runs[g].seen = runs[g].switched = 0;
  if (instance_open(&m.in, type, counts, &size->lo, lo_limit(size))) {
    return PROTOBUF_C_ITER_ERR_NO_MEMORY;
  }
  /* Its own fields first, which checks every occurrence; then each group's
   * runs, whose lists read the occurrences again. */
  m.last = NULL;
  r = list_each(list, NULL, size_range, &m, size);
  if (r < 0) return r;
  for (g = 0; g < type->n_groups; g++) {
    const PbciRun *run = &runs[g];
    if (!run->seen) continue;
    if (!run->switched && run->in_first) {
      /* One run, from the first occurrence on: its list resumes this
       * list's iteration as it was after its first range. */
      r = size_first_run(type, run, list, m.last, size, depth);
    } else {
      r = size_group(type, g, list, m.last, size, depth);
    }
    if (r < 0) return r;
  }
  return 0;
}

ptrdiff_t pbci_measure_top(const PbciMessage *type, const uint8_t *p,
                           const uint8_t *end, PbciSize *size) {
  size->lo = 0;
  size->hi = 0;
  return measure_one(type, p, end, size, 0);
}
