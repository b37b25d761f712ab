// protoc-c's naming rules (plugin/names.cc): the documented examples, and
// every name of every test proto checked against real protoc-c output.
#include "names.h"

#include <google/protobuf/descriptor.h>
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>

namespace protobuf_c_iter {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::DescriptorPool;
using google::protobuf::FieldDescriptor;

TEST(Names, CaseConversions) {
  EXPECT_EQ(ToCamel("foo_bar_baz"), "FooBarBaz");
  EXPECT_EQ(ToCamel("HTTPServer_conf"), "HTTPServerConf");
  EXPECT_EQ(ToCamel("B_c"), "BC");
  EXPECT_EQ(CamelToLower("HTTPServer_conf"), "httpserver_conf");
  EXPECT_EQ(CamelToLower("MEntry"), "mentry");
  EXPECT_EQ(CamelToLower("MpEntry"), "mp_entry");
  EXPECT_EQ(CamelToLower("B_c"), "b_c");
  EXPECT_EQ(CamelToUpper("HTTPServer_conf"), "HTTPSERVER_CONF");
  EXPECT_EQ(CamelToUpper("Foo_Bar"), "FOO__BAR");
  EXPECT_EQ(CamelToUpper("MyChoice"), "MY_CHOICE");
  EXPECT_EQ(FullNameToC("foo.bar_baz.HTTPServer_conf"),
            "Foo__BarBaz__HTTPServerConf");
  EXPECT_EQ(FullNameToLower("foo.bar_baz.HTTPServer_conf"),
            "foo__bar_baz__httpserver_conf");
  EXPECT_EQ(FullNameToUpper("foo.bar_baz.HTTPServer_conf"),
            "FOO__BAR_BAZ__HTTPSERVER_CONF");
  EXPECT_EQ(StripProto("dir/a.proto"), "dir/a");
  EXPECT_EQ(StripProto("dir/a.protodevel"), "dir/a");
  EXPECT_EQ(HeaderGuard("dir/a.proto"),
            "PROTOBUF_C_ITER_dir_2fa_2eproto__INCLUDED");
}

TEST(Names, Keywords) {
  EXPECT_TRUE(IsProtocCKeyword("class"));
  EXPECT_TRUE(IsProtocCKeyword("int"));
  EXPECT_FALSE(IsProtocCKeyword("restrict"));
  EXPECT_NE(UnescapedCKeyword("restrict"), nullptr);
  EXPECT_NE(UnescapedCKeyword("static_assert"), nullptr);
  EXPECT_NE(UnescapedCKeyword("typeof"), nullptr);
  EXPECT_EQ(UnescapedCKeyword("class"), nullptr);
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The body of `struct  Name\n{ ... };` in a protoc-c header.
std::string StructBody(const std::string& header, const std::string& name) {
  const std::string start = "struct  " + name + "\n{";
  size_t b = header.find(start);
  if (b == std::string::npos) return "";
  size_t e = header.find("\n};", b);
  return header.substr(b, e - b);
}

bool HasMember(const std::string& body, const std::string& member) {
  return std::regex_search(
      body, std::regex("[ *]" + member + "( PROTOBUF_C__DEPRECATED)?;"));
}

void CheckMessage(const Descriptor* d, const Options& options,
                  const std::string& header) {
  SCOPED_TRACE(d->full_name());
  const std::string body = StructBody(header, MessageStructName(d, options));
  ASSERT_NE(body, "") << "no struct " << MessageStructName(d, options);
  EXPECT_NE(header.find("#define " + MessageInitMacro(d, options) + " \\"),
            std::string::npos);
  EXPECT_NE(header.find("extern const ProtobufCMessageDescriptor " +
                        MessageLowerName(d, options) + "__descriptor;"),
            std::string::npos);
  for (int i = 0; i < d->field_count(); i++) {
    const FieldDescriptor* f = d->field(i);
    SCOPED_TRACE(f->name());
    EXPECT_TRUE(HasMember(body, FieldMemberName(f)));
    if (!HasMemberName(f, options).empty()) {
      EXPECT_TRUE(HasMember(body, HasMemberName(f, options)));
    }
    if (!CountMemberName(f).empty()) {
      EXPECT_TRUE(HasMember(body, CountMemberName(f)));
    }
    if (f->real_containing_oneof() != nullptr) {
      EXPECT_TRUE(HasMember(body, OneofCaseMember(f->real_containing_oneof())));
      EXPECT_NE(header.find("  " + OneofCaseValue(f, options) + " = " +
                            std::to_string(f->number())),
                std::string::npos);
    }
  }
  // No presence flag that we do not know of.
  std::smatch m;
  std::string rest = body;
  while (std::regex_search(
      rest, m, std::regex(" (has_[a-z0-9_]+)( PROTOBUF_C__DEPRECATED)?;"))) {
    bool known = false;
    for (int i = 0; i < d->field_count(); i++) {
      known = known || HasMemberName(d->field(i), options) == m[1].str();
    }
    EXPECT_TRUE(known) << "protoc-c has " << m[1] << " that we do not compute";
    rest = m.suffix();
  }
  for (int i = 0; i < d->enum_type_count(); i++) {
    EXPECT_NE(header.find("} " + EnumTypeName(d->enum_type(i), options) + ";"),
              std::string::npos);
  }
  for (int i = 0; i < d->nested_type_count(); i++) {
    CheckMessage(d->nested_type(i), options, header);
  }
}

class NamesAgainstProtocC : public ::testing::TestWithParam<std::string> {};

TEST_P(NamesAgainstProtocC, EveryName) {
  const auto* file =
      DescriptorPool::generated_pool()->FindFileByName(GetParam());
  ASSERT_NE(file, nullptr);
  const std::string header = ReadFile(std::string(GENERATED_DIR) + "/" +
                                      StripProto(GetParam()) + ".pb-c.h");
  ASSERT_NE(header, "");
  const Options options(file);
  for (int i = 0; i < file->message_type_count(); i++) {
    CheckMessage(file->message_type(i), options, header);
  }
  for (int i = 0; i < file->enum_type_count(); i++) {
    EXPECT_NE(
        header.find("} " + EnumTypeName(file->enum_type(i), options) + ";"),
        std::string::npos);
  }
}

INSTANTIATE_TEST_SUITE_P(TestProtos, NamesAgainstProtocC,
                         ::testing::Values("scalars2.proto", "scalars3.proto",
                                           "defaults.proto", "options.proto",
                                           "keywords.proto", "pkg/common.proto",
                                           "pkg/nested/shapes.proto",
                                           "merge.proto", "merge3.proto",
                                           "empty.proto", "wide.proto",
                                           "init_helpers.proto"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = StripProto(info.param);
                           for (char& c : name) {
                             if (c == '/') c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace protobuf_c_iter
