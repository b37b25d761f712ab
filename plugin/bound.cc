#include "bound.h"

#include <algorithm>
#include <map>
#include <utility>

#include "model.h"

namespace protobuf_c_iter {
namespace {

// The bytes of the shortest key of field `number`: a varint of number << 3.
int KeyLength(int number) {
  uint64_t tag = static_cast<uint64_t>(number) << 3;
  int n = 1;
  while (tag >= 0x80) {
    tag >>= 7;
    n++;
  }
  return n;
}

std::string ArrayCost(const std::string& elem) {
  return "PROTOBUF_C_ITER_ARRAY_COST(sizeof(" + elem + "))";
}

}  // namespace

void AddFieldBoundTerms(const FieldModel& f, const std::string& owner,
                        std::vector<BoundTerm>* terms) {
  // A value needs its key and at least one byte (a varint, a length).
  const int smallest = KeyLength(f.number) + 1;
  const std::string where = f.comment + " (" + owner + ")";
  if (f.read == ReadKind::kMessage) {
    const std::string instance =
        "PROTOBUF_C_ITER_STRUCT_COST(sizeof(" + f.sub_struct + "))";
    if (f.repeated) {
      terms->push_back({instance + " + " + ArrayCost(f.array_elem), smallest,
                        where + ": an empty element"});
    } else {
      terms->push_back({instance, smallest, where + ": an empty occurrence"});
    }
    return;
  }
  if (!f.repeated) return;
  switch (f.read) {
    case ReadKind::kString:
      terms->push_back({ArrayCost(f.array_elem) + " + 1", smallest,
                        where + ": an empty element, its NUL"});
      return;
    case ReadKind::kBytes:
      terms->push_back(
          {ArrayCost(f.array_elem), smallest, where + ": an empty element"});
      return;
    default:
      // Packed runs are accepted for every repeated scalar: a varint
      // element takes a byte, a fixed one its width.
      terms->push_back({ArrayCost(f.array_elem),
                        f.fixed_size != 0 ? f.fixed_size : 1,
                        where + ": a packed element"});
      return;
  }
}

std::vector<BoundTerm> FinishBoundTerms(std::vector<BoundTerm> terms) {
  std::vector<BoundTerm> out = {
      {"1", 1, "string and bytes copies (a NUL for a length byte)"},
      // An unknown field's entry and its copied value (its shortest: a
      // one-byte key and a one-byte varint).
      {ArrayCost("ProtobufCMessageUnknownField") + " + 1", 2,
       "an unknown field"}};
  std::map<std::string, size_t> seen;  // cost -> index in out
  for (size_t i = 0; i < out.size(); i++) seen[out[i].cost] = i;
  std::stable_sort(terms.begin(), terms.end(),
                   [](const BoundTerm& a, const BoundTerm& b) {
                     return a.cost != b.cost ? a.cost < b.cost
                                             : a.bytes < b.bytes;
                   });
  for (BoundTerm& t : terms) {
    if (seen.count(t.cost) != 0) continue;  // the same cost, more bytes
    seen[t.cost] = out.size();
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace protobuf_c_iter
