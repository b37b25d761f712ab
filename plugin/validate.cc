#include "validate.h"

#include <cmath>
#include <map>

#include "names.h"
#include "options.h"

namespace protobuf_c_iter {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::FileDescriptor;

// protoc puts the file's name before a plugin's error.
std::string FieldError(const FieldDescriptor* field, const std::string& what) {
  return "field " + std::string(field->full_name()) + ": " + what;
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

bool ValidateEnum(const google::protobuf::EnumDescriptor* e,
                  std::string* error) {
  return ValidateTypeName("enum", std::string(e->full_name()), EnumTypeName(e),
                          error);
}

bool ValidateField(const FieldDescriptor* field, std::string* error) {
  if (field->type() == FieldDescriptor::TYPE_GROUP) {
    *error = FieldError(field, "groups are not supported by protoc-c 1.4.1");
    return false;
  }
  if (field->containing_oneof() != nullptr &&
      field->real_containing_oneof() == nullptr) {
    *error = FieldError(field,
                        "proto3 'optional' is not supported by protoc-c 1.4.1");
    return false;
  }
  const std::string member = FieldMemberName(field);
  if (IsUnescapedCKeyword(member)) {
    *error = FieldError(field, "'" + member +
                                   "' is a C keyword that protoc-c 1.4.1 "
                                   "does not escape; rename the field");
    return false;
  }
  if (field->has_default_value()) {
    double value = 0;
    if (field->cpp_type() == FieldDescriptor::CPPTYPE_DOUBLE) {
      value = field->default_value_double();
    } else if (field->cpp_type() == FieldDescriptor::CPPTYPE_FLOAT) {
      value = field->default_value_float();
    }
    if (std::isinf(value) || std::isnan(value)) {
      *error = FieldError(field,
                          "default inf/nan: protoc-c 1.4.1 emits C that does "
                          "not compile for it");
      return false;
    }
  }
  return true;
}

// protoc-c puts every field's members, and oneof members inside an anonymous
// union, in one struct: their names must all differ.
bool ValidateMembers(const Descriptor* message, std::string* error) {
  std::map<std::string, std::string> owner;  // member -> what declared it
  auto claim = [&](const std::string& member, const std::string& by) {
    auto inserted = owner.emplace(member, by);
    if (inserted.second) return true;
    *error = "message " + std::string(message->full_name()) + ": C member '" +
             member + "' of " + by + " collides with " +
             inserted.first->second + " in protoc-c's struct";
    return false;
  };
  if (!claim(ReadMessageOptions(message).base_field_name,
             "the ProtobufCMessage base (see (pb_c_msg).base_field_name)")) {
    return false;
  }
  for (int i = 0; i < message->oneof_decl_count(); i++) {
    const auto* oneof = message->oneof_decl(i);
    if (!claim(OneofCaseMember(oneof), "oneof " + std::string(oneof->name())))
      return false;
  }
  for (int i = 0; i < message->field_count(); i++) {
    const FieldDescriptor* field = message->field(i);
    const std::string by = "field " + std::string(field->name());
    for (const std::string& member :
         {FieldMemberName(field), HasMemberName(field),
          CountMemberName(field)}) {
      if (!member.empty() && !claim(member, by)) return false;
    }
  }
  return true;
}

bool ValidateMessage(const Descriptor* message, std::string* error) {
  if (!ValidateTypeName("message", std::string(message->full_name()),
                        MessageStructName(message), error)) {
    return false;
  }
  for (int i = 0; i < message->field_count(); i++) {
    if (!ValidateField(message->field(i), error)) return false;
  }
  if (!ValidateMembers(message, error)) return false;
  for (int i = 0; i < message->enum_type_count(); i++) {
    if (!ValidateEnum(message->enum_type(i), error)) return false;
  }
  for (int i = 0; i < message->nested_type_count(); i++) {
    if (!ValidateMessage(message->nested_type(i), error)) return false;
  }
  return true;
}

}  // namespace

bool ValidateFile(const FileDescriptor* file, std::string* error) {
  for (int i = 0; i < file->message_type_count(); i++) {
    if (!ValidateMessage(file->message_type(i), error)) return false;
  }
  for (int i = 0; i < file->enum_type_count(); i++) {
    if (!ValidateEnum(file->enum_type(i), error)) return false;
  }
  return true;
}

}  // namespace protobuf_c_iter
