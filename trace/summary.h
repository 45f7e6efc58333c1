/* The kernel's summary map (bpf/event.h, struct ior_sum_key) only
 * grows: each entry keeps its thread's totals. This remembers what was
 * already delivered per key, so each read of the map yields what was
 * added since. Owned by one thread. */
#ifndef IOR_TRACE_SUMMARY_H
#define IOR_TRACE_SUMMARY_H

#include "bpf/event.h"

#include <stdint.h>

struct ior_sumtab;

/* NULL on allocation failure. */
struct ior_sumtab *ior_sumtab_new(void);
void ior_sumtab_free(struct ior_sumtab *t);

/* now: key's totals as read from the map. *d gets what they gained since
 * the last call for key (comm, first_enter, last_exit: now's). 1 when anything did, 0 when not,
 * -ENOMEM when a new key could not be remembered (nothing delivered). */
int ior_sumtab_delta(struct ior_sumtab *t, const struct ior_sum_key *k, const struct ior_sum_val *now,
		     struct ior_sum_val *d);

/* Keys remembered. */
uint32_t ior_sumtab_keys(const struct ior_sumtab *t);

#endif
