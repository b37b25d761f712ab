// The generated inputs: messages like the seed's rows, an RTB bid request
// (and the same with its fields out of order), a FileDescriptorSet and four
// stress shapes, built with libprotobuf from a fixed pseudo-random sequence
// (the merged shape by hand) so every run times the same bytes.
#include "inputs.h"

#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/wire_format_lite.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <utility>

#include "google/protobuf/descriptor.pb-iter.h"
#include "rows.pb-iter.h"
#include "rows.pb.h"
#include "rtb.pb-iter.h"
#include "rtb.pb.h"
#include "shapes.pb-iter.h"
#include "shapes.pb.h"

namespace pbci_bench {
namespace {

// splitmix64: fully specified, unlike the distributions of <random>, so
// the inputs are the same everywhere.
class Rng {
 public:
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
  }
  uint32_t Below(uint32_t n) { return static_cast<uint32_t>(Next() % n); }
  uint32_t Between(uint32_t lo, uint32_t hi) { return lo + Below(hi - lo + 1); }
  std::string Words(size_t min_len, size_t max_len) {
    static const char* const kWords[] = {
        "lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing",
        "elit", "integer", "nisl", "commodo", "diam", "porttitor", "molestie",
        "phasellus", "suscipit", "eleifend", "ullamcorper", "facilisis", "vestibulum"};
    size_t target = Between(static_cast<uint32_t>(min_len), static_cast<uint32_t>(max_len));
    std::string s;
    while (s.size() < target) {
      if (!s.empty()) s += ' ';
      s += kWords[Below(sizeof kWords / sizeof kWords[0])];
    }
    s.resize(target);
    return s;
  }

 private:
  uint64_t state_ = 20261130;
};

// The inputs are built here, so a failure to serialize one is a bug.
void Check(bool serialized) {
  if (!serialized) {
    std::fprintf(stderr, "bench: serializing an input failed\n");
    std::abort();
  }
}

std::string Wire(const google::protobuf::Message& m) {
  std::string s;
  Check(m.SerializeToString(&s));
  return s;
}

// The seed's rows: ten fields numbered 1..40, values drawn like its files
// (uniform 32/64-bit integers, 30-60 character strings).
template <typename Row, typename Fill>
void AddRow(const char* name, const Codec& codec, Fill fill, std::vector<Input>* out) {
  Row row;
  const google::protobuf::Descriptor* d = row.GetDescriptor();
  const google::protobuf::Reflection* r = row.GetReflection();
  for (int i = 0; i < d->field_count(); i++) fill(r, &row, d->field(i));
  out->push_back({name, "generated", codec, Wire(row)});
}

std::string BidRequestWire(Rng* rng) {
  pbci::bench::BidRequest req;
  req.set_id("a5f8e2c4-9b1d-4e7a-8c3f-" + std::to_string(rng->Next() % 1000000000000u));
  for (int i = 0; i < 2; i++) {
    auto* imp = req.add_imp();
    imp->set_id(std::to_string(i + 1));
    auto* banner = imp->mutable_banner();
    banner->set_w(300);
    banner->set_h(250);
    for (auto [w, h] : {std::pair{300, 250}, {336, 280}, {320, 100}}) {
      auto* f = banner->add_format();
      f->set_w(w);
      f->set_h(h);
    }
    banner->set_pos(1);
    banner->add_btype(1);
    banner->add_btype(4);
    imp->set_bidfloor(0.05 + rng->Below(100) / 100.0);
    imp->set_bidfloorcur("USD");
    imp->set_tagid("slot-" + std::to_string(rng->Below(100000)));
    imp->set_secure(true);
  }
  auto* site = req.mutable_site();
  site->set_id("site-" + std::to_string(rng->Below(1000000)));
  site->set_domain("news.example.com");
  for (const char* cat : {"IAB12", "IAB12-2", "IAB15"}) site->add_cat(cat);
  site->set_page("https://news.example.com/world/2026/11/30/" + rng->Words(20, 40));
  site->set_ref("https://www.example.org/search?q=" + rng->Words(8, 16));
  site->mutable_publisher()->set_id("pub-" + std::to_string(rng->Below(100000)));
  site->mutable_publisher()->set_name("Example News Network");
  auto* device = req.mutable_device();
  device->set_ua(
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
      "Chrome/120.0.0.0 Safari/537.36");
  device->set_ip("203.0.113." + std::to_string(rng->Below(256)));
  auto* geo = device->mutable_geo();
  geo->set_lat(48.85 + rng->Below(1000) / 10000.0);
  geo->set_lon(2.35 + rng->Below(1000) / 10000.0);
  geo->set_country("FRA");
  geo->set_region("IDF");
  geo->set_city("Paris");
  geo->set_zip("75001");
  geo->set_utcoffset(60);
  device->set_devicetype(pbci::bench::BidRequest::PERSONAL_COMPUTER);
  device->set_os("Linux");
  device->set_osv("6.1");
  device->set_language("fr");
  device->set_w(1920);
  device->set_h(1080);
  device->set_ifa_hash(rng->Next());
  auto* user = req.mutable_user();
  user->set_id("u-" + std::to_string(rng->Next() % 100000000000u));
  user->set_buyeruid("b-" + std::to_string(rng->Next() % 100000000000u));
  user->set_yob(1970 + static_cast<int>(rng->Below(40)));
  user->set_gender("F");
  for (int i = 0; i < 2; i++) {
    auto* data = user->add_data();
    data->set_id("dp-" + std::to_string(i));
    data->set_name("Example Data Provider");
    for (int j = 0; j < 3; j++) {
      auto* seg = data->add_segment();
      seg->set_id("seg-" + std::to_string(rng->Below(10000)));
      seg->set_value(rng->Words(4, 10));
    }
  }
  req.set_at(2);
  req.set_tmax(120);
  req.add_cur("USD");
  req.add_cur("EUR");
  for (const char* cat : {"IAB25", "IAB26", "IAB7-39", "IAB8-18", "IAB9-9"}) req.add_bcat(cat);
  for (const char* adv : {"competitor.example", "spam.example", "blocked.example"}) {
    req.add_badv(adv);
  }
  req.set_auction_ts(1764460800000u + rng->Below(1000000));
  return Wire(req);
}

std::string PackedWire(Rng* rng) {
  pbci::bench::Packed m;
  for (int i = 0; i < 1000; i++) m.add_small(static_cast<int32_t>(rng->Below(128)));
  for (int i = 0; i < 250; i++) m.add_large(rng->Next() >> rng->Below(32));
  for (int i = 0; i < 250; i++) m.add_deltas(static_cast<int32_t>(rng->Below(2001)) - 1000);
  for (int i = 0; i < 250; i++) m.add_ids(static_cast<uint32_t>(rng->Next()));
  for (int i = 0; i < 250; i++) m.add_values(rng->Below(1000000) / 1000.0);
  for (int i = 0; i < 250; i++) m.add_flags(rng->Below(2) != 0);
  return Wire(m);
}

std::string DeepWire(Rng* rng) {
  pbci::bench::Deep root;
  pbci::bench::Deep* node = &root;
  for (int level = 0; level < 64; level++) {
    node->set_level(level);
    node->set_name("node-" + std::to_string(level));
    for (int i = 0; i < 3; i++) node->add_tags(rng->Below(1000));
    if (level + 1 < 64) node = node->mutable_child();
  }
  return Wire(root);
}

// Keys are distinct: a repeated key is a merge in libprotobuf's map but two
// entries in protobuf-c's array, and the race compares contents.
std::string MapsWire(Rng* rng) {
  pbci::bench::Maps m;
  for (int i = 0; i < 64; i++) {
    (*m.mutable_counters())["counter." + std::to_string(i)] = rng->Next() % 1000000;
    (*m.mutable_names())[i * 7] = rng->Words(6, 16);
    (*m.mutable_seen())[rng->Next() | 1u] = rng->Below(2) != 0;
  }
  for (int i = 0; i < 32; i++) {
    pbci::bench::Maps::Item& item = (*m.mutable_items())["sku-" + std::to_string(1000 + i)];
    item.set_sku("SKU" + std::to_string(rng->Below(1000000)));
    item.set_count(rng->Below(50));
    item.set_price(rng->Below(100000) / 100.0);
  }
  // Map iteration order is unspecified: serialize deterministically.
  std::string s;
  google::protobuf::io::StringOutputStream stream(&s);
  google::protobuf::io::CodedOutputStream coded(&stream);
  coded.SetSerializationDeterministic(true);
  Check(m.SerializeToCodedStream(&coded));
  coded.Trim();
  return s;
}

// Merged.part 500 times, each time with one more element of its values:
// protobuf-c 1.4.1 copies the array on every occurrence (500^2 / 2 element
// copies, quadratic in memory with a bump allocator, which caps the count
// here), iter appends into the room the array has left.
std::string MergedWire() {
  std::string s;
  for (int i = 0; i < 500; i++) {
    const char occurrence[] = {0x0a, 0x02, 0x08, static_cast<char>(i & 0x7f)};
    s.append(occurrence, sizeof occurrence);
  }
  return s;
}

// The message `wire` of type `type` with its fields written again in
// descending number order (each field's own elements kept in order), and
// each sub-message's likewise: the same message, its fields where no
// serializer puts them (all write in number order), for decoders that
// expect the next field in that order.
std::string DescendingWire(const google::protobuf::Descriptor* type,
                           const std::string& wire) {
  using google::protobuf::FieldDescriptor;
  using google::protobuf::internal::WireFormatLite;
  std::vector<WireField> fields;
  Check(SplitFields(wire, &fields));
  for (WireField& f : fields) {
    const FieldDescriptor* d =
        type->FindFieldByNumber(WireFormatLite::GetTagFieldNumber(f.tag));
    if (WireFormatLite::GetTagWireType(f.tag) ==
            WireFormatLite::WIRETYPE_LENGTH_DELIMITED &&
        d != nullptr && d->type() == FieldDescriptor::TYPE_MESSAGE) {
      f.value = DescendingWire(d->message_type(), f.value);
    }
  }
  std::stable_sort(fields.begin(), fields.end(),
                   [](const WireField& a, const WireField& b) {
                     return WireFormatLite::GetTagFieldNumber(a.tag) >
                            WireFormatLite::GetTagFieldNumber(b.tag);
                   });
  std::string s;
  {
    google::protobuf::io::StringOutputStream os(&s);
    google::protobuf::io::CodedOutputStream out(&os);
    for (const WireField& f : fields) {
      out.WriteTag(f.tag);
      if (WireFormatLite::GetTagWireType(f.tag) ==
          WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
        out.WriteVarint32(static_cast<uint32_t>(f.value.size()));
      }
      out.WriteString(f.value);
    }
  }
  return s;
}

}  // namespace

Codec MakeCodec(const ProtobufCMessageDescriptor* pbc,
                ptrdiff_t (*iter_unpack)(const uint8_t*, size_t, void*, size_t),
                ptrdiff_t (*iter_unpacked_size)(const uint8_t*, size_t),
                const ProtobufCIterType* iter_type) {
  const google::protobuf::Descriptor* d =
      google::protobuf::DescriptorPool::generated_pool()->FindMessageTypeByName(pbc->name);
  const google::protobuf::Message* cpp =
      d ? google::protobuf::MessageFactory::generated_factory()->GetPrototype(d) : nullptr;
  return Codec{pbc, iter_unpack, iter_unpacked_size, iter_type, cpp};
}

bool SplitFields(const std::string& wire, std::vector<WireField>* fields) {
  using google::protobuf::internal::WireFormatLite;
  google::protobuf::io::CodedInputStream in(
      reinterpret_cast<const uint8_t*>(wire.data()),
      static_cast<int>(wire.size()));
  for (uint32_t tag; (tag = in.ReadTag()) != 0;) {
    WireField f{tag, {}};
    if (WireFormatLite::GetTagWireType(tag) ==
        WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
      uint32_t len;
      if (!in.ReadVarint32(&len) ||
          !in.ReadString(&f.value, static_cast<int>(len))) {
        return false;
      }
    } else {
      const int start = in.CurrentPosition();
      if (!WireFormatLite::SkipField(&in, tag)) return false;
      f.value = wire.substr(static_cast<size_t>(start),
                            static_cast<size_t>(in.CurrentPosition() - start));
    }
    fields->push_back(std::move(f));
  }
  return in.ConsumedEntireMessage();  // not stopped by a malformed tag
}

bool ReadFile(const std::string& path, std::string* bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  *bytes = ss.str();
  return !in.bad();
}

bool GeneratedInputs(const std::string& descriptor_set, std::vector<Input>* out,
                     std::string* error) {
  Rng rng;
  using google::protobuf::FieldDescriptor;
  using google::protobuf::Message;
  using google::protobuf::Reflection;
  AddRow<pbci::bench::Uint32Row>(
      "uint32_x10", PBCI_BENCH_CODEC(pbci__bench__uint32_row),
      [&](const Reflection* r, Message* m, const FieldDescriptor* f) {
        r->SetUInt32(m, f, static_cast<uint32_t>(rng.Next()));
      },
      out);
  AddRow<pbci::bench::Fixed32Row>(
      "fixed32_x10", PBCI_BENCH_CODEC(pbci__bench__fixed32_row),
      [&](const Reflection* r, Message* m, const FieldDescriptor* f) {
        r->SetUInt32(m, f, static_cast<uint32_t>(rng.Next()));
      },
      out);
  AddRow<pbci::bench::Fixed64Row>(
      "fixed64_x10", PBCI_BENCH_CODEC(pbci__bench__fixed64_row),
      [&](const Reflection* r, Message* m, const FieldDescriptor* f) {
        r->SetUInt64(m, f, rng.Next());
      },
      out);
  AddRow<pbci::bench::StringRow>(
      "string_x10", PBCI_BENCH_CODEC(pbci__bench__string_row),
      [&](const Reflection* r, Message* m, const FieldDescriptor* f) {
        r->SetString(m, f, rng.Words(30, 60));
      },
      out);
  const std::string bid_request = BidRequestWire(&rng);
  out->push_back({"rtb_bid_request", "generated",
                  PBCI_BENCH_CODEC(pbci__bench__bid_request), bid_request});
  out->push_back(
      {"rtb_reversed",
       "rtb_bid_request, every message's fields in descending order",
       PBCI_BENCH_CODEC(pbci__bench__bid_request),
       DescendingWire(pbci::bench::BidRequest::descriptor(), bid_request)});
  Input fds{"descriptor_set", "protoc --descriptor_set_out of descriptor.proto",
            PBCI_BENCH_CODEC(google__protobuf__file_descriptor_set),
            ""};
  if (!ReadFile(descriptor_set, &fds.bytes)) {
    *error = "cannot read " + descriptor_set;
    return false;
  }
  out->push_back(fds);
  out->push_back({"packed", "generated",
                  PBCI_BENCH_CODEC(pbci__bench__packed),
                  PackedWire(&rng)});
  out->push_back({"deep64", "generated",
                  PBCI_BENCH_CODEC(pbci__bench__deep), DeepWire(&rng)});
  out->push_back({"maps", "generated", PBCI_BENCH_CODEC(pbci__bench__maps),
                  MapsWire(&rng)});
  out->push_back({"merged500", "generated", PBCI_BENCH_CODEC(pbci__bench__merged),
                  MergedWire()});
  return true;
}

}  // namespace pbci_bench
