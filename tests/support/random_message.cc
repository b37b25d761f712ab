#include "random_message.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <memory>

#include "compat.h"  // the plugin's

namespace pbci_test {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

template <typename T>
T Pick(std::mt19937* rng) {
  // Half the time an edge value, else anything.
  static const T kEdges[] = {0,
                             1,
                             static_cast<T>(-1),
                             std::numeric_limits<T>::max(),
                             std::numeric_limits<T>::min(),
                             127,
                             128,
                             300};
  if ((*rng)() % 2)
    return kEdges[(*rng)() % (sizeof kEdges / sizeof kEdges[0])];
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

// The plugin's version-neutral test (compat.h), remembered per file: it
// copies the file, and is asked for every value.
bool IsProto3File(const google::protobuf::FileDescriptor* file) {
  thread_local std::map<const google::protobuf::FileDescriptor*, bool> known;
  auto it = known.find(file);
  if (it == known.end())
    it = known.emplace(file, protobuf_c_iter::IsProto3(file)).first;
  return it->second;
}

int PickEnum(const FieldDescriptor* f, std::mt19937* rng) {
  const auto* e = f->enum_type();
  if (IsProto3File(e->file()) && (*rng)() % 5 == 0) {
    return static_cast<int>((*rng)() % 1000) - 500;  // open enum: any value
  }
  return e->value(static_cast<int>((*rng)() % e->value_count()))->number();
}

// Sets a singular field, or appends to a repeated one, a random value.
void PutOne(Message* m, const FieldDescriptor* f, std::mt19937* rng,
            int max_depth) {
  const Reflection* r = m->GetReflection();
  const bool add = f->is_repeated();
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32: {
      int32_t v = Pick<int32_t>(rng);
      add ? r->AddInt32(m, f, v) : r->SetInt32(m, f, v);
      break;
    }
    case FieldDescriptor::CPPTYPE_INT64: {
      int64_t v = Pick<int64_t>(rng);
      add ? r->AddInt64(m, f, v) : r->SetInt64(m, f, v);
      break;
    }
    case FieldDescriptor::CPPTYPE_UINT32: {
      uint32_t v = Pick<uint32_t>(rng);
      add ? r->AddUInt32(m, f, v) : r->SetUInt32(m, f, v);
      break;
    }
    case FieldDescriptor::CPPTYPE_UINT64: {
      uint64_t v = Pick<uint64_t>(rng);
      add ? r->AddUInt64(m, f, v) : r->SetUInt64(m, f, v);
      break;
    }
    case FieldDescriptor::CPPTYPE_FLOAT: {
      float v = static_cast<float>(Pick<int32_t>(rng)) / 7.0f;
      add ? r->AddFloat(m, f, v) : r->SetFloat(m, f, v);
      break;
    }
    case FieldDescriptor::CPPTYPE_DOUBLE: {
      double v = static_cast<double>(Pick<int64_t>(rng)) / 3.0;
      add ? r->AddDouble(m, f, v) : r->SetDouble(m, f, v);
      break;
    }
    case FieldDescriptor::CPPTYPE_BOOL: {
      bool v = (*rng)() % 2;
      add ? r->AddBool(m, f, v) : r->SetBool(m, f, v);
      break;
    }
    case FieldDescriptor::CPPTYPE_ENUM: {
      int v = PickEnum(f, rng);
      add ? r->AddEnumValue(m, f, v) : r->SetEnumValue(m, f, v);
      break;
    }
    case FieldDescriptor::CPPTYPE_STRING: {
      // proto3 strings must be valid UTF-8 for libprotobuf.
      const bool utf8 =
          f->type() == FieldDescriptor::TYPE_STRING && IsProto3File(f->file());
      std::string v = PickString(rng, utf8);
      add ? r->AddString(m, f, v) : r->SetString(m, f, v);
      break;
    }
    case FieldDescriptor::CPPTYPE_MESSAGE:
      FillRandom(add ? r->AddMessage(m, f) : r->MutableMessage(m, f), rng,
                 max_depth - 1);
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
      for (int k = 0; k < n; k++) PutOne(m, f, rng, max_depth);
    } else {
      PutOne(m, f, rng, max_depth);
    }
  }
}

std::string RandomWire(const std::string& full_name, std::mt19937* rng) {
  const Descriptor* d =
      google::protobuf::DescriptorPool::generated_pool()->FindMessageTypeByName(
          full_name);
  if (d == nullptr) {
    // The C++ classes of every test proto must be linked in.
    std::fprintf(stderr, "RandomWire: no generated type %s\n",
                 full_name.c_str());
    std::abort();
  }
  std::unique_ptr<Message> m(
      google::protobuf::MessageFactory::generated_factory()
          ->GetPrototype(d)
          ->New());
  FillRandom(m.get(), rng);
  // Deterministic serialization: map entries in key order. By default
  // libprotobuf writes them in its hash table's order, which changes from
  // one process to the next (the cross test's corpus did).
  std::string out;
  {
    google::protobuf::io::StringOutputStream stream(&out);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    if (!m->SerializePartialToCodedStream(&coded)) {
      std::fprintf(stderr, "RandomWire: cannot serialize a %s\n",
                   full_name.c_str());
      std::abort();
    }
  }
  return out;
}

}  // namespace pbci_test
