/* A recording as a sink (pair/sink.h): every pair written, each tick a
 * frame when one is due. The writer's errors are sticky; the first one is
 * kept here for the owner to report when it closes the writer. */
#ifndef IOR_REC_SINK_H
#define IOR_REC_SINK_H

#include <stdbool.h>

#include "pair/sink.h"
#include "rec/rec.h"

struct ior_rec_sink {
	struct ior_rec_writer *w; /* NULL: nothing written (a recording not started) */
	int error;                /* errno of the first failed write or frame, 0: none */
	bool keep_going;          /* a failure stops the recording, not the trace */
};

/* s stays the caller's and must outlive the session it is added to; w
 * may be set and cleared between ticks. */
struct ior_sink ior_rec_sink(struct ior_rec_sink *s);

#endif
