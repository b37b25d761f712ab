// Renderers of the generated files. They walk a FileModel and print; every
// decision about names, types and semantics was made when the model was
// built.
#ifndef PROTOBUF_C_ITER_PLUGIN_PRINTERS_H_
#define PROTOBUF_C_ITER_PLUGIN_PRINTERS_H_

#include <google/protobuf/io/printer.h>

#include "model.h"

namespace protobuf_c_iter {

// x.pb-iter.h: the public functions of every message, then the internal
// entry points other generated files call.
void PrintHeader(const FileModel& file, google::protobuf::io::Printer* p);

// x.pb-iter.c: includes, then each message's decoder, sizer and public API.
void PrintSource(const FileModel& file, google::protobuf::io::Printer* p);

// Pieces of PrintSource, one concern each.
void PrintDecoder(const MessageModel& m, google::protobuf::io::Printer* p);
void PrintTable(const MessageModel& m, google::protobuf::io::Printer* p);
void PrintSizer(const MessageModel& m, google::protobuf::io::Printer* p);

}  // namespace protobuf_c_iter

#endif  // PROTOBUF_C_ITER_PLUGIN_PRINTERS_H_
