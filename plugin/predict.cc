#include "predict.h"

#include <algorithm>

namespace protobuf_c_iter {
namespace {

// The wire type a field's values are usually written with.
int UsualWireType(const FieldModel& f) {
  if (f.packed) return 2;
  switch (f.read) {
    case ReadKind::kVarint:
    case ReadKind::kBool:
      return 0;
    case ReadKind::kFixed64:
      return 1;
    case ReadKind::kFixed32:
      return 5;
    default:
      return 2;
  }
}

// The bytes of the key field `f` is usually written with; empty when the
// key is longer than 2 bytes.
std::vector<uint8_t> UsualKey(const FieldModel& f) {
  const uint64_t tag = static_cast<uint64_t>(f.number) << 3 | UsualWireType(f);
  if (tag >= (1u << 14)) return {};
  if (tag < 0x80) return {static_cast<uint8_t>(tag)};
  return {static_cast<uint8_t>((tag & 0x7f) | 0x80),
          static_cast<uint8_t>(tag >> 7)};
}

// The prediction of field `f`'s usual key, labelling its case; false when
// the key is longer than 2 bytes.
bool PredictionOf(FieldModel* f, Prediction* out) {
  out->key = UsualKey(*f);
  if (out->key.empty()) return false;
  out->tag = static_cast<uint64_t>(f->number) << 3 | UsualWireType(*f);
  std::string& label = f->packed ? f->packed_label : f->label;
  label = (f->packed ? "packed_" : "field_") + std::to_string(f->number);
  out->label = label;
  out->sets_tag = f->read == ReadKind::kBool;
  out->value_size = 0;
  return true;
}

// The prediction of the next field `f` after another field: a singular
// fixed-width field is entered past its bounds check when the key and its
// value are all in the input (one check for both). (Not an element of a
// repeated field, whose case grows its array first.)
bool NextPredictionOf(FieldModel* f, Prediction* out) {
  if (!PredictionOf(f, out)) return false;
  if (!f->repeated && f->fixed_size != 0) {
    f->label.clear();  // this was the only jump to the case's top
    f->value_label = "value_" + std::to_string(f->number);
    out->label = f->value_label;
    out->value_size = f->fixed_size;
  }
  return true;
}

}  // namespace

void AddPredictions(MessageModel* m) {
  std::vector<FieldModel*> by_number;
  for (int i : m->by_number) by_number.push_back(&m->fields[i]);
  for (size_t i = 0; i < by_number.size(); i++) {
    FieldModel* f = by_number[i];
    Prediction p;
    f->usual_key = UsualKey(*f);
    if (f->repeated && !f->packed && PredictionOf(f, &p)) {
      f->next.push_back(p);
      // A bool's case takes three wire types, whose keys it would have to
      // tell apart; a message's elements take the low end too.
      if (f->read != ReadKind::kBool && f->read != ReadKind::kMessage) {
        f->more_label = "more_" + std::to_string(f->number);
      }
      // A message's first run is buffered instead, until it ends.
      if (f->read == ReadKind::kMessage) f->buffered_run = true;
    }
    // The next field only: also trying the one after it costs more code
    // than it saves (docs/design.md).
    if (i + 1 < by_number.size() && NextPredictionOf(by_number[i + 1], &p)) {
      f->next.push_back(p);
    }
  }
}

}  // namespace protobuf_c_iter
