/* Fuzzes the -trigger parser and, when it accepts, the matcher on a pair
 * made from the same bytes. */
#include "recorder/trigger.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char expr[600], err[256];
	struct ior_trigger t;
	size_t n = size < sizeof expr - 1 ? size : sizeof expr - 1;

	memcpy(expr, data, n);
	expr[n] = 0;
	int rc = ior_trigger_parse(&t, expr, err, sizeof err);
	if (rc && (!err[0] || strlen(err) >= sizeof err))
		abort(); /* a refusal always says why */
	if (rc)
		return 0;
	struct ior_event_pair p = { .enter_ns = n * 77777777ull, .duration_ns = n * 1000003ull,
				    .ret = -(int64_t)(n % 140), .sys = (uint16_t)(n % 300), .comm = expr,
				    .path = expr + n / 2, .path2 = "", .summary = (uint8_t)(n & 1), .pairs = n };
	for (int i = 0; i < 3; i++) {
		ior_trigger_pair(&t, &p);
		p.enter_ns += 150000000ull;
	}
	ior_trigger_in_flight(&t, p.sys, "c", expr, 1, n * 1000000000ull);
	return 0;
}
