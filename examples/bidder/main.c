/* Decodes a bid request into a stack buffer, its strings checked as UTF-8,
 * and prints it. */
#include <inttypes.h>
#include <stdio.h>

#include "rtb/v2/bid_request.pb-iter.h"

int main(void) {
  Rtb__V2__BidRequest req = RTB__V2__BID_REQUEST__INIT;
  Rtb__Core__Impression imp = RTB__CORE__IMPRESSION__INIT;
  Rtb__Core__Impression__Banner banner = RTB__CORE__IMPRESSION__BANNER__INIT;
  Rtb__Core__Impression *imps[1] = {&imp};
  char *formats[2] = {"300x250", "728x90"};
  uint8_t wire[512];
  size_t len, i;
  ptrdiff_t used;
  const Rtb__V2__BidRequest *r;
  PROTOBUF_C_ITER_BUFFER(buf, 1024);
  ProtobufCIterOptions opts = {PROTOBUF_C_ITER_VALIDATE_UTF8, 0};
  ProtobufCIterStatus st;

  banner.has_w = banner.has_h = 1;
  banner.w = 300;
  banner.h = 250;
  imp.id = "imp-1";
  imp.n_formats = 2;
  imp.formats = formats;
  imp.banner = &banner;
  req.id = "req-42";
  req.n_imp = 1;
  req.imp = imps;
  req.user_agent = "Mozilla/5.0";
  req.site_or_app_case = RTB__V2__BID_REQUEST__SITE_OR_APP_SITE_DOMAIN;
  req.site_domain = "example.com";
  len = rtb__v2__bid_request__pack(&req, wire);

  used = rtb__v2__bid_request__iter_unpack_ex(wire, len, buf.bytes,
                                              sizeof buf.bytes, &opts, &st);
  if (used < 0) {
    fprintf(stderr, "decode failed: %s at byte %zu (field %" PRIu32 ")\n",
            st.message, st.offset, st.field_number);
    return 1;
  }
  r = (const Rtb__V2__BidRequest *)buf.bytes;
  printf("bid request %s from %s (%zu wire bytes, %td buffer bytes)\n", r->id,
         r->site_domain, len, used);
  for (i = 0; i < r->n_imp; i++) {
    const Rtb__Core__Impression *m = r->imp[i];
    printf("  imp %s floor %.2f banner %ux%u formats %zu\n", m->id, m->bid_floor,
           m->banner->w, m->banner->h, m->n_formats);
  }
  return 0;
}
