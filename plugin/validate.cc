#include "validate.h"

#include <cmath>
#include <map>

#include "model.h"
#include "names.h"

namespace protobuf_c_iter {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;

// protoc puts the file's name before a plugin's error.
std::string FieldError(const std::string& full_name, const std::string& what) {
  return "field " + full_name + ": " + what;
}

bool ValidateField(const FieldDescriptor* field, std::string* error) {
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
    double value = 0;
    if (field->cpp_type() == FieldDescriptor::CPPTYPE_DOUBLE) {
      value = field->default_value_double();
    } else if (field->cpp_type() == FieldDescriptor::CPPTYPE_FLOAT) {
      value = field->default_value_float();
    }
    if (std::isinf(value) || std::isnan(value)) {
      *error = FieldError(name,
                          "default inf/nan: protoc-c 1.4.1 emits C that does "
                          "not compile for it");
      return false;
    }
  }
  return true;
}

bool ValidateMessageFeatures(const Descriptor* message, std::string* error) {
  for (int i = 0; i < message->field_count(); i++) {
    if (!ValidateField(message->field(i), error)) return false;
  }
  for (int i = 0; i < message->nested_type_count(); i++) {
    if (!ValidateMessageFeatures(message->nested_type(i), error)) return false;
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
  if (!claim(m.base_member,
             "the ProtobufCMessage base (see (pb_c_msg).base_field_name)")) {
    return false;
  }
  for (const OneofModel& o : m.oneofs) {
    if (!claim(o.case_member, "oneof " + o.name)) return false;
  }
  for (const FieldModel& f : m.fields) {
    if (IsUnescapedCKeyword(f.member)) {
      *error = FieldError(
          m.full_name + "." + f.name,
          "'" + f.member +
              "' is a C keyword that protoc-c 1.4.1 does not escape; rename "
              "the field");
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
                      std::string* error) {
  for (int i = 0; i < file->message_type_count(); i++) {
    if (!ValidateMessageFeatures(file->message_type(i), error)) return false;
  }
  return true;
}

bool ValidateNames(const FileModel& model, std::string* error) {
  for (const MessageModel& m : model.messages) {
    if (!ValidateTypeName("message", m.full_name, m.struct_name, error))
      return false;
    if (!ValidateMembers(m, error)) return false;
  }
  for (const EnumModel& e : model.enums) {
    if (!ValidateTypeName("enum", e.full_name, e.c_type, error)) return false;
  }
  return true;
}

}  // namespace protobuf_c_iter
