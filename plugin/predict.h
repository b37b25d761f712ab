// In-order prediction: which key a decoder should expect after each field,
// so that fields arriving in number order (as every serializer writes them)
// skip the dispatch switch.
#ifndef PROTOBUF_C_ITER_PLUGIN_PREDICT_H_
#define PROTOBUF_C_ITER_PLUGIN_PREDICT_H_

#include "model.h"

namespace protobuf_c_iter {

// Fills each field's usual_key and `next` (its own key again for an
// unpacked repeated field, then the next field's usual key in number order)
// and the labels of the cases those predictions jump to: for a singular
// fixed-width field, past its bounds check (the prediction checks the key
// and the value's bytes at once). Keys longer than 2 bytes (field numbers
// from 2048) are not predicted.
void AddPredictions(MessageModel* m);

}  // namespace protobuf_c_iter

#endif  // PROTOBUF_C_ITER_PLUGIN_PREDICT_H_
