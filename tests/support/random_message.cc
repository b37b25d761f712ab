#include "random_message.h"

#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>

#include <google/protobuf/descriptor.h>

namespace pbci_test {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

template <typename T>
T Pick(std::mt19937* rng) {
  // Half the time an edge value, else anything.
  static const T kEdges[] = {0, 1, static_cast<T>(-1),
                             std::numeric_limits<T>::max(),
                             std::numeric_limits<T>::min(), 127, 128, 300};
  if ((*rng)() % 2) return kEdges[(*rng)() % (sizeof kEdges / sizeof kEdges[0])];
  uint64_t bits = (static_cast<uint64_t>((*rng)()) << 32) | (*rng)();
  return static_cast<T>(bits >> ((*rng)() % 64));
}

std::string PickString(std::mt19937* rng, bool utf8) {
  static const char kChars[] = "abcXYZ019 _-\n\"\\";
  size_t n = (*rng)() % 4 == 0 ? 0 : (*rng)() % 24;
  std::string s;
  for (size_t i = 0; i < n; i++) {
    if (!utf8 && (*rng)() % 8 == 0) {
      s += static_cast<char>((*rng)() % 256);  // includes NUL and high bytes
    } else {
      s += kChars[(*rng)() % (sizeof kChars - 1)];
    }
  }
  return s;
}

int PickEnum(const FieldDescriptor* f, std::mt19937* rng) {
  const auto* e = f->enum_type();
  if (e->file()->syntax() == google::protobuf::FileDescriptor::SYNTAX_PROTO3 &&
      (*rng)() % 5 == 0) {
    return static_cast<int>((*rng)() % 1000) - 500;  // open enum: any value
  }
  return e->value(static_cast<int>((*rng)() % e->value_count()))->number();
}

void SetOne(Message* m, const FieldDescriptor* f, std::mt19937* rng,
            int depth, int max_depth);

void AddOne(Message* m, const FieldDescriptor* f, std::mt19937* rng, int depth,
            int max_depth) {
  const Reflection* r = m->GetReflection();
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32: r->AddInt32(m, f, Pick<int32_t>(rng)); break;
    case FieldDescriptor::CPPTYPE_INT64: r->AddInt64(m, f, Pick<int64_t>(rng)); break;
    case FieldDescriptor::CPPTYPE_UINT32: r->AddUInt32(m, f, Pick<uint32_t>(rng)); break;
    case FieldDescriptor::CPPTYPE_UINT64: r->AddUInt64(m, f, Pick<uint64_t>(rng)); break;
    case FieldDescriptor::CPPTYPE_FLOAT: r->AddFloat(m, f, static_cast<float>(Pick<int32_t>(rng)) / 7.0f); break;
    case FieldDescriptor::CPPTYPE_DOUBLE: r->AddDouble(m, f, static_cast<double>(Pick<int64_t>(rng)) / 3.0); break;
    case FieldDescriptor::CPPTYPE_BOOL: r->AddBool(m, f, (*rng)() % 2); break;
    case FieldDescriptor::CPPTYPE_ENUM: r->AddEnumValue(m, f, PickEnum(f, rng)); break;
    case FieldDescriptor::CPPTYPE_STRING:
      r->AddString(m, f, PickString(rng, f->type() == FieldDescriptor::TYPE_STRING &&
                                             f->file()->syntax() == google::protobuf::FileDescriptor::SYNTAX_PROTO3));
      break;
    case FieldDescriptor::CPPTYPE_MESSAGE:
      FillRandom(r->AddMessage(m, f), rng, max_depth - depth - 1);
      break;
  }
}

void SetOne(Message* m, const FieldDescriptor* f, std::mt19937* rng, int depth,
            int max_depth) {
  const Reflection* r = m->GetReflection();
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32: r->SetInt32(m, f, Pick<int32_t>(rng)); break;
    case FieldDescriptor::CPPTYPE_INT64: r->SetInt64(m, f, Pick<int64_t>(rng)); break;
    case FieldDescriptor::CPPTYPE_UINT32: r->SetUInt32(m, f, Pick<uint32_t>(rng)); break;
    case FieldDescriptor::CPPTYPE_UINT64: r->SetUInt64(m, f, Pick<uint64_t>(rng)); break;
    case FieldDescriptor::CPPTYPE_FLOAT: r->SetFloat(m, f, static_cast<float>(Pick<int32_t>(rng)) / 7.0f); break;
    case FieldDescriptor::CPPTYPE_DOUBLE: r->SetDouble(m, f, static_cast<double>(Pick<int64_t>(rng)) / 3.0); break;
    case FieldDescriptor::CPPTYPE_BOOL: r->SetBool(m, f, (*rng)() % 2); break;
    case FieldDescriptor::CPPTYPE_ENUM: r->SetEnumValue(m, f, PickEnum(f, rng)); break;
    case FieldDescriptor::CPPTYPE_STRING:
      r->SetString(m, f, PickString(rng, f->type() == FieldDescriptor::TYPE_STRING &&
                                             f->file()->syntax() == google::protobuf::FileDescriptor::SYNTAX_PROTO3));
      break;
    case FieldDescriptor::CPPTYPE_MESSAGE:
      FillRandom(r->MutableMessage(m, f), rng, max_depth - depth - 1);
      break;
  }
}

}  // namespace

void FillRandom(Message* m, std::mt19937* rng, int max_depth) {
  const Descriptor* d = m->GetDescriptor();
  for (int i = 0; i < d->field_count(); i++) {
    const FieldDescriptor* f = d->field(i);
    const bool is_message = f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE;
    const bool required = f->is_required();
    if (!required && is_message && max_depth <= 0) continue;
    if (!required && (*rng)() % 2) continue;
    if (f->is_repeated()) {
      int n = static_cast<int>((*rng)() % 5);
      for (int k = 0; k < n; k++) AddOne(m, f, rng, 0, max_depth);
    } else {
      SetOne(m, f, rng, 0, max_depth);
    }
  }
}

std::string RandomWire(const std::string& full_name, std::mt19937* rng) {
  const Descriptor* d =
      google::protobuf::DescriptorPool::generated_pool()->FindMessageTypeByName(full_name);
  if (d == nullptr) {
    // The C++ classes of every test proto must be linked in.
    std::fprintf(stderr, "RandomWire: no generated type %s\n", full_name.c_str());
    std::abort();
  }
  std::unique_ptr<Message> m(
      google::protobuf::MessageFactory::generated_factory()->GetPrototype(d)->New());
  FillRandom(m.get(), rng);
  return m->SerializePartialAsString();
}

}  // namespace pbci_test
