// The registry of generated test types, seen through IterType.
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
      PBCI_TEST_ITER_TYPE(Iter__Test__Scalars2, iter__test__scalars2,
                          "iter.test.Scalars2"),
      PBCI_TEST_ITER_TYPE(Iter__Test3__All3, iter__test3__all3,
                          "iter.test3.All3"),
      PBCI_TEST_ITER_TYPE(Iter__Test3__Leaf, iter__test3__leaf,
                          "iter.test3.Leaf"),
      PBCI_TEST_ITER_TYPE(Iter__Test3__All3__MUint64LeafEntry,
                          iter__test3__all3__muint64_leaf_entry,
                          "iter.test3.All3.MUint64LeafEntry"),
      PBCI_TEST_ITER_TYPE(Iter__Test3__All3__Nested__Deeper,
                          iter__test3__all3__nested__deeper,
                          "iter.test3.All3.Nested.Deeper"),
      PBCI_TEST_ITER_TYPE(Iter__Defaults__Defaults, iter__defaults__defaults,
                          "iter.defaults.Defaults"),
      PBCI_TEST_ITER_TYPE(Iter__Defaults__Defaults__Sub,
                          iter__defaults__defaults__sub,
                          "iter.defaults.Defaults.Sub"),
      PBCI_TEST_ITER_TYPE(Renamed__PkgC__HTTPServerConf,
                          renamed__pkg_c__httpserver_conf,
                          "iter.opts.HTTPServer_conf"),
      PBCI_TEST_ITER_TYPE(Iter__Kw__Class, iter__kw__class, "iter.kw.class"),
      PBCI_TEST_ITER_TYPE(Iter__Pkg__Nested__Shapes__Polygon,
                          iter__pkg__nested__shapes__polygon,
                          "iter.pkg.nested.shapes.Polygon"),
      PBCI_TEST_ITER_TYPE(Iter__Pkg__Common__Point, iter__pkg__common__point,
                          "iter.pkg.common.Point"),
      PBCI_TEST_ITER_TYPE(Iter__Merge__MergeTest, iter__merge__merge_test,
                          "iter.merge.MergeTest"),
      PBCI_TEST_ITER_TYPE(Iter__Merge__Inner, iter__merge__inner,
                          "iter.merge.Inner"),
      PBCI_TEST_ITER_TYPE(Iter__Merge__PackedField, iter__merge__packed_field,
                          "iter.merge.PackedField"),
      PBCI_TEST_ITER_TYPE(Iter__Merge__RequiredField2,
                          iter__merge__required_field2,
                          "iter.merge.RequiredField2"),
      PBCI_TEST_ITER_TYPE(Iter__Merge__StringField, iter__merge__string_field,
                          "iter.merge.StringField"),
      PBCI_TEST_ITER_TYPE(Iter__Merge3__Outer3, iter__merge3__outer3,
                          "iter.merge3.Outer3"),
      PBCI_TEST_ITER_TYPE(Iter__Empty__OnlyEmpty, iter__empty__only_empty,
                          "iter.empty.OnlyEmpty"),
      PBCI_TEST_ITER_TYPE(Iter__Wide__WideRepeated, iter__wide__wide_repeated,
                          "iter.wide.WideRepeated"),
      PBCI_TEST_ITER_TYPE(Iter__Wide__WideGroups, iter__wide__wide_groups,
                          "iter.wide.WideGroups"),
      PBCI_TEST_ITER_TYPE(Iter__Wide__WideRequired, iter__wide__wide_required,
                          "iter.wide.WideRequired"),
      PBCI_TEST_ITER_TYPE(Iter__Init__NoInit, iter__init__no_init,
                          "iter.init.NoInit"),
      PBCI_TEST_ITER_TYPE(Iter__Init__NoInit__Nested,
                          iter__init__no_init__nested,
                          "iter.init.NoInit.Nested"),
      PBCI_TEST_ITER_TYPE(Iter__Init__NoInit__WithInit,
                          iter__init__no_init__with_init,
                          "iter.init.NoInit.WithInit"),
      PBCI_TEST_ITER_TYPE(Iter__Init__FlatUnion, iter__init__flat_union,
                          "iter.init.FlatUnion"),
      PBCI_TEST_ITER_TYPE(Iter__Init__NoInit__MEntry,
                          iter__init__no_init__mentry,
                          "iter.init.NoInit.MEntry"),
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
