#include "validate.h"

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>

#include "model.h"
#include "names.h"
#include "options.h"

namespace protobuf_c_iter {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;

// protoc puts the file's name before a plugin's error.
std::string FieldError(const std::string& full_name, const std::string& what) {
  return "field " + full_name + ": " + what;
}

bool IsCIdentifier(const std::string& s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
  for (char c : s) {
    if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
          (c >= '0' && c <= '9'))) {
      return false;
    }
  }
  return true;
}

// What protoc-c writes for a default that no C compiler takes as it is (it
// writes defaults into the .pb-c.c's X__INIT and default constants, which
// our .pb-iter.c expands too), or "" when it compiles.
std::string UncompilableDefault(const FieldDescriptor* field) {
  switch (field->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT64:
      // "-9223372036854775808ll": C reads the constant before the minus, and
      // 9223372036854775808 fits no signed type (gcc, clang: "so large that
      // it is unsigned").
      if (field->default_value_int64() == INT64_MIN) {
        return "default -9223372036854775808: protoc-c writes it as "
               "-9223372036854775808ll, whose constant fits no signed C type";
      }
      return "";
    case FieldDescriptor::CPPTYPE_DOUBLE:
    case FieldDescriptor::CPPTYPE_FLOAT: {
      const double value = field->cpp_type() == FieldDescriptor::CPPTYPE_DOUBLE
                               ? field->default_value_double()
                               : field->default_value_float();
      if (std::isinf(value) || std::isnan(value)) {
        return "default inf/nan: protoc-c 1.4.1 emits C that does not compile "
               "for it";
      }
      // protoc-c prints a double with DBL_DIG (15) significant digits, which
      // rounds the largest ones past DBL_MAX: "floating constant exceeds
      // range" (a float's 6 digits never round past FLT_MAX).
      char printed[64];
      std::snprintf(printed, sizeof printed, "%.*g", DBL_DIG, value);
      if (std::isinf(std::strtod(printed, nullptr))) {
        return std::string("default ") + printed +
               ": protoc-c prints it with 15 digits, past the largest double";
      }
      return "";
    }
    case FieldDescriptor::CPPTYPE_STRING: {
      // protoc-c escapes neither '?' nor trigraphs, which C99 and C11
      // translate inside string literals ("??/" is a backslash).
      const std::string value(field->default_value_string());
      for (size_t i = 0; i + 2 < value.size(); i++) {
        if (value[i] == '?' && value[i + 1] == '?' &&
            std::string("=/'()!<>-").find(value[i + 2]) != std::string::npos) {
          return "default holds the trigraph '" + value.substr(i, 3) +
                 "', which protoc-c writes unescaped into a C string";
        }
      }
      return "";
    }
    default:
      return "";
  }
}

bool ValidateField(const FieldDescriptor* field, const Options& options,
                   std::string* error) {
  const std::string name(field->full_name());
  if (field->type() == FieldDescriptor::TYPE_GROUP) {
    *error = FieldError(name, "groups are not supported by protoc-c 1.4.1");
    return false;
  }
  if (field->containing_oneof() != nullptr &&
      field->real_containing_oneof() == nullptr) {
    *error = FieldError(name,
                        "proto3 'optional' is not supported by protoc-c 1.4.1");
    return false;
  }
  if (field->has_default_value()) {
    const std::string what = UncompilableDefault(field);
    if (!what.empty()) {
      *error = FieldError(name, what);
      return false;
    }
  }
  // protoc-c neither generates such a type nor includes its header.
  const google::protobuf::FileDescriptor* type_file =
      field->message_type() != nullptr ? field->message_type()->file()
      : field->enum_type() != nullptr  ? field->enum_type()->file()
                                       : nullptr;
  if (type_file != nullptr && options.file(type_file).no_generate) {
    *error =
        FieldError(name, "its type is in " + std::string(type_file->name()) +
                             ", which sets (pb_c_file).no_generate: "
                             "protoc-c generates no C for it");
    return false;
  }
  return true;
}

bool ValidateMessageFeatures(const Descriptor* message, const Options& options,
                             std::string* error) {
  for (int i = 0; i < message->field_count(); i++) {
    if (!ValidateField(message->field(i), options, error)) return false;
  }
  for (int i = 0; i < message->nested_type_count(); i++) {
    if (!ValidateMessageFeatures(message->nested_type(i), options, error)) {
      return false;
    }
  }
  return true;
}

// The runtime's headers, which every generated header includes, declare C
// types named Pbci* and ProtobufCIter*, none with "__". protoc-c's type of
// such a name would not compile beside them; only a type outside any
// package (or with an empty (pb_c_file).c_package) and outside any message
// gets one, as those put "__" into C type names.
bool ValidateTypeName(const std::string& what, const std::string& full_name,
                      const std::string& c_name, std::string* error) {
  if (c_name.find("__") != std::string::npos) return true;
  for (const std::string prefix : {"Pbci", "ProtobufCIter"}) {
    if (c_name.compare(0, prefix.size(), prefix) == 0) {
      *error =
          what + " " + full_name + ": protoc-c's C type '" + c_name +
          "' could collide with protobuf-c-iter's types (names " +
          "starting with Pbci or ProtobufCIter are reserved outside " +
          "packages); rename it, or give it a package (and no empty c_package)";
      return false;
    }
  }
  return true;
}

// protoc-c puts every field's members, and oneof members inside an anonymous
// union, in one struct: their names must all differ.
bool ValidateMembers(const MessageModel& m, std::string* error) {
  std::map<std::string, std::string> owner;  // member -> what declared it
  auto claim = [&](const std::string& member, const std::string& by) {
    auto inserted = owner.emplace(member, by);
    if (inserted.second) return true;
    *error = "message " + m.full_name + ": C member '" + member + "' of " + by +
             " collides with " + inserted.first->second +
             " in protoc-c's struct";
    return false;
  };
  if (!IsCIdentifier(m.base_member) || IsProtocCKeyword(m.base_member) ||
      UnescapedCKeyword(m.base_member) != nullptr) {
    *error = "message " + m.full_name + ": (pb_c_msg).base_field_name '" +
             m.base_member + "' is not a C identifier protoc-c can use";
    return false;
  }
  if (!claim(m.base_member,
             "the ProtobufCMessage base (see (pb_c_msg).base_field_name)")) {
    return false;
  }
  for (const OneofModel& o : m.oneofs) {
    if (!claim(o.case_member, "oneof " + o.name)) return false;
  }
  for (const FieldModel& f : m.fields) {
    if (const char* what = UnescapedCKeyword(f.member)) {
      *error = FieldError(m.full_name + "." + f.name,
                          "'" + f.member + "' is " + what +
                              "; protoc-c does not escape it: rename the "
                              "field");
      return false;
    }
    for (const std::string* member :
         {&f.member, &f.has_member, &f.count_member}) {
      if (!member->empty() && !claim(*member, "field " + f.name)) return false;
    }
  }
  return true;
}

}  // namespace

bool ValidateFeatures(const google::protobuf::FileDescriptor* file,
                      const Options& options, std::string* error) {
  // protoc-c turns each '.' into "__" and keeps the rest.
  const FileOptionsView& file_options = options.file(file);
  if (file_options.has_c_package && !file_options.c_package.empty()) {
    const std::string& c_package = file_options.c_package;
    size_t start = 0;
    for (;;) {
      const size_t dot = c_package.find('.', start);
      if (!IsCIdentifier(c_package.substr(start, dot - start))) {
        *error = "(pb_c_file).c_package '" + c_package +
                 "' is not dot-separated C identifiers";
        return false;
      }
      if (dot == std::string::npos) break;
      start = dot + 1;
    }
  }
  for (int i = 0; i < file->message_type_count(); i++) {
    if (!ValidateMessageFeatures(file->message_type(i), options, error)) {
      return false;
    }
  }
  return true;
}

bool ValidateNames(const FileModel& model, std::string* error) {
  // protoc-c's file-scope C names: the typedefs of messages and enums, and
  // the enumerators of oneof cases (the others derive from the typedefs'
  // names). Names that differ only in '_' or case can meet here
  // ("Foo_bar" and "FooBar" are both "FooBar"; oneof a's field b_c and oneof
  // a_b's field c both "..._A_B_C").
  std::map<std::string, std::string> owner;  // C name -> what declared it
  auto claim = [&](const std::string& c_name, const std::string& by) {
    auto inserted = owner.emplace(c_name, by);
    if (inserted.second) return true;
    *error = by + ": protoc-c's C name '" + c_name + "' is also that of " +
             inserted.first->second + "; rename one";
    return false;
  };
  for (const MessageModel& m : model.messages) {
    if (!ValidateTypeName("message", m.full_name, m.struct_name, error))
      return false;
    if (!ValidateMembers(m, error)) return false;
    if (!claim(m.struct_name, "message " + m.full_name)) return false;
    for (const FieldModel& f : m.fields) {
      if (!f.case_value.empty() &&
          !claim(f.case_value, "oneof member " + m.full_name + "." + f.name)) {
        return false;
      }
    }
  }
  for (const EnumModel& e : model.enums) {
    if (!ValidateTypeName("enum", e.full_name, e.c_type, error)) return false;
    if (!claim(e.c_type, "enum " + e.full_name)) return false;
  }
  return true;
}

}  // namespace protobuf_c_iter
