#include "names.h"

#include <cctype>
#include <cstdio>
#include <set>
#include <vector>

#include "options.h"

namespace protobuf_c_iter {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::EnumDescriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::FileDescriptor;
using google::protobuf::OneofDescriptor;

bool IsUpper(char c) { return std::isupper(static_cast<unsigned char>(c)); }
char Upper(char c) {
  return static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
}
char Lower(char c) {
  return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

std::vector<std::string> SplitDots(const std::string& full_name) {
  std::vector<std::string> pieces;
  std::string piece;
  for (char c : full_name) {
    if (c == '.') {
      if (!piece.empty()) pieces.push_back(piece);
      piece.clear();
    } else {
      piece += c;
    }
  }
  if (!piece.empty()) pieces.push_back(piece);
  return pieces;
}

// Converts each dot-separated piece with `convert` and joins them with "__".
std::string ConvertPieces(const std::string& full_name,
                          std::string (*convert)(const std::string&)) {
  std::string result;
  for (const std::string& piece : SplitDots(full_name)) {
    if (!result.empty()) result += "__";
    result += convert(piece);
  }
  return result;
}

// protoc-c's kKeywordList (c_helpers.cc): C++ keywords, escaped with "_".
const std::set<std::string>& ProtocCKeywords() {
  static const std::set<std::string> kKeywords = {"and",
                                                  "and_eq",
                                                  "asm",
                                                  "auto",
                                                  "bitand",
                                                  "bitor",
                                                  "bool",
                                                  "break",
                                                  "case",
                                                  "catch",
                                                  "char",
                                                  "class",
                                                  "compl",
                                                  "const",
                                                  "const_cast",
                                                  "continue",
                                                  "default",
                                                  "delete",
                                                  "do",
                                                  "double",
                                                  "dynamic_cast",
                                                  "else",
                                                  "enum",
                                                  "explicit",
                                                  "extern",
                                                  "false",
                                                  "float",
                                                  "for",
                                                  "friend",
                                                  "goto",
                                                  "if",
                                                  "inline",
                                                  "int",
                                                  "long",
                                                  "mutable",
                                                  "namespace",
                                                  "new",
                                                  "not",
                                                  "not_eq",
                                                  "operator",
                                                  "or",
                                                  "or_eq",
                                                  "private",
                                                  "protected",
                                                  "public",
                                                  "register",
                                                  "reinterpret_cast",
                                                  "return",
                                                  "short",
                                                  "signed",
                                                  "sizeof",
                                                  "static",
                                                  "static_cast",
                                                  "struct",
                                                  "switch",
                                                  "template",
                                                  "this",
                                                  "throw",
                                                  "true",
                                                  "try",
                                                  "typedef",
                                                  "typeid",
                                                  "typename",
                                                  "union",
                                                  "unsigned",
                                                  "using",
                                                  "virtual",
                                                  "void",
                                                  "volatile",
                                                  "wchar_t",
                                                  "while",
                                                  "xor",
                                                  "xor_eq"};
  return kKeywords;
}

}  // namespace

std::string ToCamel(const std::string& name) {
  std::string result;
  bool next_is_upper = true;
  for (char c : name) {
    if (c == '_') {
      next_is_upper = true;
    } else if (next_is_upper) {
      result += Upper(c);
      next_is_upper = false;
    } else {
      result += c;
    }
  }
  return result;
}

std::string CamelToLower(const std::string& name) {
  std::string result;
  bool was_upper = true;  // no leading "_"
  for (char c : name) {
    bool is_upper = IsUpper(c);
    if (is_upper && !was_upper) result += '_';
    result += is_upper ? Lower(c) : c;
    was_upper = is_upper;
  }
  return result;
}

std::string CamelToUpper(const std::string& name) {
  std::string result;
  bool was_upper = true;  // no leading "_"
  for (char c : name) {
    bool is_upper = IsUpper(c);
    if (is_upper && !was_upper) result += '_';
    result += is_upper ? c : Upper(c);
    was_upper = is_upper;
  }
  return result;
}

std::string FullNameToC(const std::string& full_name) {
  return ConvertPieces(full_name, ToCamel);
}

std::string FullNameToLower(const std::string& full_name) {
  return ConvertPieces(full_name, CamelToLower);
}

std::string FullNameToUpper(const std::string& full_name) {
  return ConvertPieces(full_name, CamelToUpper);
}

std::string CFullName(const std::string& full_name, const FileDescriptor* file,
                      const Options& all) {
  const FileOptionsView& options = all.file(file);
  if (!options.has_c_package) return full_name;
  std::string relative = full_name;
  const std::string package = std::string(file->package());
  if (!package.empty()) relative = full_name.substr(package.size() + 1);
  if (options.c_package.empty()) return relative;
  return options.c_package + "." + relative;
}

std::string MessageStructName(const Descriptor* message,
                              const Options& options) {
  return FullNameToC(
      CFullName(std::string(message->full_name()), message->file(), options));
}

std::string MessageLowerName(const Descriptor* message,
                             const Options& options) {
  return FullNameToLower(
      CFullName(std::string(message->full_name()), message->file(), options));
}

std::string MessageInitMacro(const Descriptor* message,
                             const Options& options) {
  return FullNameToUpper(CFullName(std::string(message->full_name()),
                                   message->file(), options)) +
         "__INIT";
}

std::string MessageDescriptorName(const Descriptor* message,
                                  const Options& options) {
  return MessageLowerName(message, options) + "__descriptor";
}

IterSymbols MessageIterSymbols(const Descriptor* message,
                               const Options& options) {
  const std::string prefix = MessageLowerName(message, options) + "__iter_";
  IterSymbols s;
  s.type = prefix + "type";
  s.unpack = prefix + "unpack";
  s.unpack_merge = prefix + "unpack_merge";
  s.unpacked_size = prefix + "unpacked_size";
  s.unpacked_size_bound = prefix + "unpacked_size_bound";
  s.decode = prefix + "decode";
  s.message = prefix + "message";
  s.fields = prefix + "fields";
  s.required = prefix + "required";
  s.measure = prefix + "measure";
  s.init = prefix + "init";
  s.prototype = prefix + "prototype";
  return s;
}

std::string EnumTypeName(const EnumDescriptor* e, const Options& options) {
  return FullNameToC(
      CFullName(std::string(e->full_name()), e->file(), options));
}

bool IsProtocCKeyword(const std::string& lower_name) {
  return ProtocCKeywords().count(lower_name) > 0;
}

const char* UnescapedCKeyword(const std::string& lower_name) {
  if (lower_name == "restrict") return "a C99 keyword";
  if (lower_name == "static_assert") {
    return "a macro of C11's <assert.h>, which protobuf-c.h includes";
  }
  if (lower_name == "typeof") return "a GNU C keyword (gcc's default mode)";
  return nullptr;
}

std::string FieldMemberName(const FieldDescriptor* field) {
  std::string result;
  for (char c : field->name()) result += Lower(c);
  if (IsProtocCKeyword(result)) result += '_';
  return result;
}

std::string HasMemberName(const FieldDescriptor* field,
                          const Options& options) {
  // protoc-c gives has_ to proto2's optional scalars and bytes: the fields
  // with presence that are not oneof members, messages or strings (proto3
  // `optional` is refused by ValidateField).
  if (!field->has_presence() || field->is_repeated() || field->is_required() ||
      field->containing_oneof() != nullptr ||
      field->type() == FieldDescriptor::TYPE_MESSAGE ||
      (field->type() == FieldDescriptor::TYPE_STRING &&
       !options.string_as_bytes(field))) {
    return "";
  }
  return "has_" + FieldMemberName(field);
}

std::string CountMemberName(const FieldDescriptor* field) {
  return field->is_repeated() ? "n_" + FieldMemberName(field) : "";
}

std::string CapacityLocalName(const FieldDescriptor* field) {
  return field->is_repeated() ? "cap_" + FieldMemberName(field) : "";
}

std::string OneofCaseMember(const OneofDescriptor* oneof) {
  return CamelToLower(std::string(oneof->name())) + "_case";
}

std::string OneofCaseValue(const FieldDescriptor* field,
                           const Options& options) {
  const Descriptor* message = field->containing_type();
  return FullNameToUpper(CFullName(std::string(message->full_name()),
                                   message->file(), options)) +
         "__" + CamelToUpper(std::string(field->containing_oneof()->name())) +
         "_" + CamelToUpper(std::string(field->name()));
}

std::string StripProto(const std::string& filename) {
  for (const char* suffix : {".protodevel", ".proto"}) {
    const std::string s(suffix);
    if (filename.size() >= s.size() &&
        filename.compare(filename.size() - s.size(), s.size(), s) == 0) {
      return filename.substr(0, filename.size() - s.size());
    }
  }
  return filename;
}

std::string IterHeaderName(const std::string& filename) {
  return StripProto(filename) + ".pb-iter.h";
}

std::string IterSourceName(const std::string& filename) {
  return StripProto(filename) + ".pb-iter.c";
}

std::string PbcHeaderName(const std::string& filename) {
  return StripProto(filename) + ".pb-c.h";
}

std::string HeaderGuard(const std::string& filename) {
  std::string result = "PROTOBUF_C_ITER_";
  for (char c : filename) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      result += c;
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "_%x", static_cast<unsigned char>(c));
      result += hex;
    }
  }
  return result + "__INCLUDED";
}

}  // namespace protobuf_c_iter
