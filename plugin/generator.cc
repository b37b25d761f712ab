#include "generator.h"

#include <google/protobuf/io/printer.h>
#include <google/protobuf/io/zero_copy_stream.h>

#include <memory>

#include "model.h"
#include "options.h"
#include "printers.h"

namespace protobuf_c_iter {

bool IterGenerator::Generate(
    const google::protobuf::FileDescriptor* file, const std::string& parameter,
    google::protobuf::compiler::GeneratorContext* context,
    std::string* error) const {
  if (!parameter.empty()) {
    *error = "protoc-gen-iter takes no options (got '" + parameter + "')";
    return false;
  }
  // protoc-c writes nothing for such files, so there is nothing to decode.
  const Options options(file);
  if (options.file(file).no_generate) return true;

  FileModel model;
  if (!BuildFileModel(file, options, &model, error)) return false;

  {
    std::unique_ptr<google::protobuf::io::ZeroCopyOutputStream> out(
        context->Open(model.iter_header));
    google::protobuf::io::Printer printer(out.get(), '$');
    PrintHeader(model, &printer);
  }
  {
    std::unique_ptr<google::protobuf::io::ZeroCopyOutputStream> out(
        context->Open(model.iter_source));
    google::protobuf::io::Printer printer(out.get(), '$');
    PrintSource(model, &printer);
  }
  return true;
}

}  // namespace protobuf_c_iter
