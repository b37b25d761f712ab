/*
 * Internal: the limits the generator and the runtime must agree on, in one
 * place. Plain macros without includes, so that protoc-gen-iter (C++)
 * includes this header too and decides with the runtime's numbers.
 */
#ifndef PROTOBUF_C_ITER_INTERNAL_LIMITS_H
#define PROTOBUF_C_ITER_INTERNAL_LIMITS_H

/* The sizer scratch the runtime holds itself (runtime/src/measure.c) for a
 * message of up to this many repeated fields, groups of merging
 * sub-message occurrences and required fields without a default. The
 * generator gives larger messages a sizer of their own (x__iter_measure)
 * that provides theirs. */
#define PBCI_LOCAL_COUNTS 8
#define PBCI_LOCAL_GROUPS 4
#define PBCI_LOCAL_REQUIRED 64

/* The most repeated fields, groups or required fields one message may
 * have: PbciFieldInfo numbers them in 16 bits (slot, required_bit). The
 * generator refuses wider messages. */
#define PBCI_MAX_SLOTS 0xffff

#endif /* PROTOBUF_C_ITER_INTERNAL_LIMITS_H */
