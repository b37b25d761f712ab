// Small rendering helpers shared by the decoder and sizer printers.
#ifndef PROTOBUF_C_ITER_PLUGIN_PRINT_COMMON_H_
#define PROTOBUF_C_ITER_PLUGIN_PRINT_COMMON_H_

#include <google/protobuf/io/printer.h>

#include <map>
#include <string>
#include <vector>

#include "model.h"

namespace protobuf_c_iter {

using Vars = std::map<std::string, std::string>;

// The variables every field template may use: $number$, $comment$,
// $member$, $has$, $count$, $elem$, $value$, $case_member$, $case_value$,
// $sub_struct$, $sub_decode$, $sub_message$, $sub_init$, $sub_prototype$,
// $packed_kind$, $array_elem$, $cap$, $required_set$, plus the message's
// $struct$ and $base$.
Vars FieldVars(const MessageModel& m, const FieldModel& f);

// The usual key's bytes as PbciFieldInfo::key and PbciNext::key hold
// them, first byte low: "0x0a", "0x01a2"; "PBCI_KEY_NONE" from field number
// 2048.
std::string UsualKey(const FieldModel& f);

// The runtime's name of a wire type: "PBCI_WT_VARINT", ...
std::string WireTypeMacro(WireType wt);

// Words of the "required seen" bit mask and the mask each must reach.
int RequiredWords(const MessageModel& m);
std::string RequiredMask(const MessageModel& m, int word);
// "required[0] |= UINT64_C(1) << 3;" for a field with a required bit.
std::string RequiredSet(const FieldModel& f);

// x__iter_required, the field number of each required bit, when the
// message has required fields.
void PrintRequiredTable(const MessageModel& m,
                        google::protobuf::io::Printer* p);
// The check after a message occurrence: a missing required field is
// reported through `ctx` (a PbciCtx * expression) at `end`.
void PrintRequiredCheck(const MessageModel& m, const std::string& ctx,
                        google::protobuf::io::Printer* p);

}  // namespace protobuf_c_iter

#endif  // PROTOBUF_C_ITER_PLUGIN_PRINT_COMMON_H_
