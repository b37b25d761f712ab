// The registry of generated test types, seen through IterType: every
// message type of the test protos, nested types and map entries included
// (IterTypes.EveryTestTypeIsListed checks it against libprotobuf's pool).
#include <stdexcept>

#include "defaults.pb-iter.h"
#include "empty.pb-iter.h"
#include "init_helpers.pb-iter.h"
#include "iter_check.h"
#include "keywords.pb-iter.h"
#include "merge.pb-iter.h"
#include "merge3.pb-iter.h"
#include "options.pb-iter.h"
#include "pkg/common.pb-iter.h"
#include "pkg/nested/shapes.pb-iter.h"
#include "wide.pb-iter.h"
#include "scalars2.pb-iter.h"
#include "scalars3.pb-iter.h"

namespace pbci_test {

const std::vector<IterType>& AllTypes() {
  static const std::vector<IterType> kTypes = {
      PBCI_TEST_ITER_TYPE(Iter__Defaults__Defaults, iter__defaults__defaults, "iter.defaults.Defaults"),
      PBCI_TEST_ITER_TYPE(Iter__Defaults__Defaults__Sub, iter__defaults__defaults__sub, "iter.defaults.Defaults.Sub"),
      PBCI_TEST_ITER_TYPE(Iter__Empty__Empty, iter__empty__empty, "iter.empty.Empty"),
      PBCI_TEST_ITER_TYPE(Iter__Empty__OnlyEmpty, iter__empty__only_empty, "iter.empty.OnlyEmpty"),
      PBCI_TEST_ITER_TYPE(Iter__Init__FlatUnion, iter__init__flat_union, "iter.init.FlatUnion"),
      PBCI_TEST_ITER_TYPE(Iter__Init__NoInit, iter__init__no_init, "iter.init.NoInit"),
      PBCI_TEST_ITER_TYPE(Iter__Init__NoInit__MEntry, iter__init__no_init__mentry, "iter.init.NoInit.MEntry"),
      PBCI_TEST_ITER_TYPE(Iter__Init__NoInit__Nested, iter__init__no_init__nested, "iter.init.NoInit.Nested"),
      PBCI_TEST_ITER_TYPE(Iter__Init__NoInit__WithInit, iter__init__no_init__with_init, "iter.init.NoInit.WithInit"),
      PBCI_TEST_ITER_TYPE(Iter__Init__NoInitEnum, iter__init__no_init_enum, "iter.init.NoInitEnum"),
      PBCI_TEST_ITER_TYPE(Iter__Kw__Class, iter__kw__class, "iter.kw.class"),
      PBCI_TEST_ITER_TYPE(Iter__Merge__FarField, iter__merge__far_field, "iter.merge.FarField"),
      PBCI_TEST_ITER_TYPE(Iter__Merge__Inner, iter__merge__inner, "iter.merge.Inner"),
      PBCI_TEST_ITER_TYPE(Iter__Merge__LogEntry, iter__merge__log_entry, "iter.merge.LogEntry"),
      PBCI_TEST_ITER_TYPE(Iter__Merge__MergeTest, iter__merge__merge_test, "iter.merge.MergeTest"),
      PBCI_TEST_ITER_TYPE(Iter__Merge__PackedField, iter__merge__packed_field, "iter.merge.PackedField"),
      PBCI_TEST_ITER_TYPE(Iter__Merge__Plain, iter__merge__plain, "iter.merge.Plain"),
      PBCI_TEST_ITER_TYPE(Iter__Merge__RequiredField2, iter__merge__required_field2, "iter.merge.RequiredField2"),
      PBCI_TEST_ITER_TYPE(Iter__Merge__StringField, iter__merge__string_field, "iter.merge.StringField"),
      PBCI_TEST_ITER_TYPE(Iter__Merge3__Inner3, iter__merge3__inner3, "iter.merge3.Inner3"),
      PBCI_TEST_ITER_TYPE(Iter__Merge3__Outer3, iter__merge3__outer3, "iter.merge3.Outer3"),
      PBCI_TEST_ITER_TYPE(Renamed__PkgC__HTTPServerConf, renamed__pkg_c__httpserver_conf, "iter.opts.HTTPServer_conf"),
      PBCI_TEST_ITER_TYPE(Renamed__PkgC__HTTPServerConf__EnvEntry, renamed__pkg_c__httpserver_conf__env_entry, "iter.opts.HTTPServer_conf.EnvEntry"),
      PBCI_TEST_ITER_TYPE(Iter__Pkg__Common__Point, iter__pkg__common__point, "iter.pkg.common.Point"),
      PBCI_TEST_ITER_TYPE(Iter__Pkg__Nested__Shapes__Polygon, iter__pkg__nested__shapes__polygon, "iter.pkg.nested.shapes.Polygon"),
      PBCI_TEST_ITER_TYPE(Iter__Pkg__Nested__Shapes__Polygon__Style, iter__pkg__nested__shapes__polygon__style, "iter.pkg.nested.shapes.Polygon.Style"),
      PBCI_TEST_ITER_TYPE(Iter__Test__EightInts, iter__test__eight_ints, "iter.test.EightInts"),
      PBCI_TEST_ITER_TYPE(Iter__Test__Scalars2, iter__test__scalars2, "iter.test.Scalars2"),
      PBCI_TEST_ITER_TYPE(Iter__Test3__All3, iter__test3__all3, "iter.test3.All3"),
      PBCI_TEST_ITER_TYPE(Iter__Test3__All3__MBoolUint32Entry, iter__test3__all3__mbool_uint32_entry, "iter.test3.All3.MBoolUint32Entry"),
      PBCI_TEST_ITER_TYPE(Iter__Test3__All3__MFixed32FloatEntry, iter__test3__all3__mfixed32_float_entry, "iter.test3.All3.MFixed32FloatEntry"),
      PBCI_TEST_ITER_TYPE(Iter__Test3__All3__MFixed64BoolEntry, iter__test3__all3__mfixed64_bool_entry, "iter.test3.All3.MFixed64BoolEntry"),
      PBCI_TEST_ITER_TYPE(Iter__Test3__All3__MInt32StringEntry, iter__test3__all3__mint32_string_entry, "iter.test3.All3.MInt32StringEntry"),
      PBCI_TEST_ITER_TYPE(Iter__Test3__All3__MInt64Int64Entry, iter__test3__all3__mint64_int64_entry, "iter.test3.All3.MInt64Int64Entry"),
      PBCI_TEST_ITER_TYPE(Iter__Test3__All3__MSfixed32Sfixed64Entry, iter__test3__all3__msfixed32_sfixed64_entry, "iter.test3.All3.MSfixed32Sfixed64Entry"),
      PBCI_TEST_ITER_TYPE(Iter__Test3__All3__MSfixed64Fixed32Entry, iter__test3__all3__msfixed64_fixed32_entry, "iter.test3.All3.MSfixed64Fixed32Entry"),
      PBCI_TEST_ITER_TYPE(Iter__Test3__All3__MSint32EnumEntry, iter__test3__all3__msint32_enum_entry, "iter.test3.All3.MSint32EnumEntry"),
      PBCI_TEST_ITER_TYPE(Iter__Test3__All3__MSint64DoubleEntry, iter__test3__all3__msint64_double_entry, "iter.test3.All3.MSint64DoubleEntry"),
      PBCI_TEST_ITER_TYPE(Iter__Test3__All3__MStringSelfEntry, iter__test3__all3__mstring_self_entry, "iter.test3.All3.MStringSelfEntry"),
      PBCI_TEST_ITER_TYPE(Iter__Test3__All3__MStringStringEntry, iter__test3__all3__mstring_string_entry, "iter.test3.All3.MStringStringEntry"),
      PBCI_TEST_ITER_TYPE(Iter__Test3__All3__MUint32BytesEntry, iter__test3__all3__muint32_bytes_entry, "iter.test3.All3.MUint32BytesEntry"),
      PBCI_TEST_ITER_TYPE(Iter__Test3__All3__MUint64LeafEntry, iter__test3__all3__muint64_leaf_entry, "iter.test3.All3.MUint64LeafEntry"),
      PBCI_TEST_ITER_TYPE(Iter__Test3__All3__Nested, iter__test3__all3__nested, "iter.test3.All3.Nested"),
      PBCI_TEST_ITER_TYPE(Iter__Test3__All3__Nested__Deeper, iter__test3__all3__nested__deeper, "iter.test3.All3.Nested.Deeper"),
      PBCI_TEST_ITER_TYPE(Iter__Test3__Leaf, iter__test3__leaf, "iter.test3.Leaf"),
      PBCI_TEST_ITER_TYPE(Iter__Wide__Item, iter__wide__item, "iter.wide.Item"),
      PBCI_TEST_ITER_TYPE(Iter__Wide__SixtyFour, iter__wide__sixty_four, "iter.wide.SixtyFour"),
      PBCI_TEST_ITER_TYPE(Iter__Wide__WideGroups, iter__wide__wide_groups, "iter.wide.WideGroups"),
      PBCI_TEST_ITER_TYPE(Iter__Wide__WideRepeated, iter__wide__wide_repeated, "iter.wide.WideRepeated"),
      PBCI_TEST_ITER_TYPE(Iter__Wide__WideRequired, iter__wide__wide_required, "iter.wide.WideRequired"),
  };
  return kTypes;
}

const IterType& TypeNamed(const std::string& full_name) {
  for (const IterType& t : AllTypes()) {
    if (full_name == t.full_name) return t;
  }
  throw std::runtime_error("no test type " + full_name);
}

}  // namespace pbci_test
