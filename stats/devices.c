/* The device table (devices.h): a small array of rows found by linear
 * search (a host has few devices and five ops). */
#include "stats/devices.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ior_devices_init(struct ior_devices *d)
{
	memset(d, 0, sizeof *d);
}

void ior_devices_free(struct ior_devices *d)
{
	for (unsigned i = 0; i < d->n; i++) {
		ior_hist_free(&d->rows[i].queue);
		ior_hist_free(&d->rows[i].device);
	}
	free(d->rows);
	free(d->names);
	memset(d, 0, sizeof *d);
}

static struct ior_dev_row *row_of(struct ior_devices *d, uint32_t dev, uint8_t op)
{
	struct ior_dev_row *r;

	for (unsigned i = 0; i < d->n; i++)
		if (d->rows[i].dev == dev && d->rows[i].op == op)
			return &d->rows[i];
	if (d->n == IOR_DEV_MAX_ROWS || !(r = realloc(d->rows, (d->n + 1) * sizeof *r)))
		return NULL;
	d->rows = r;
	r = &d->rows[d->n++];
	memset(r, 0, sizeof *r);
	r->dev = dev;
	r->op = op;
	ior_hist_init(&r->queue);
	ior_hist_init(&r->device);
	return r;
}

/* Counts one request for (pid, name) in who[0..*n), the last slot being
 * (other) once IOR_DEV_TOP are taken. Exact sums, approximate top: the
 * first IOR_DEV_TOP seen keep their rows. */
static void add_who(struct ior_dev_who *who, unsigned *n, uint32_t pid, const char *name, uint32_t bytes)
{
	unsigned i;

	for (i = 0; i < *n && i < IOR_DEV_TOP; i++)
		if (who[i].pid == pid && !strncmp(who[i].name, name, sizeof who[i].name - 1))
			break;
	if (i == *n && i < IOR_DEV_TOP) {
		who[i].pid = pid;
		strncpy(who[i].name, name, sizeof who[i].name - 1);
		(*n)++;
	} else if (i == IOR_DEV_TOP) {
		strcpy(who[i].name, "(other)");
		who[i].pid = 0;
	}
	who[i].requests++;
	who[i].bytes += bytes;
}

void ior_devices_add(struct ior_devices *d, const struct ior_block_req *q)
{
	struct ior_dev_row *r = row_of(d, q->dev, q->op);

	if (!r) {
		d->dropped++;
		return;
	}
	r->requests++;
	r->bytes += q->bytes;
	r->errors += q->error != 0;
	if (q->sys >= 0) {
		r->in_pairs++;
		r->in_pairs_bytes += q->bytes;
	}
	if (ior_blk_issued(q)) {
		ior_hist_add(&r->queue, ior_blk_queue_ns(q), 1);
		ior_hist_add(&r->device, ior_blk_device_ns(q), 1);
	} else {
		r->not_issued++;
	}
	if (q->pid || (q->comm && q->comm[0])) /* else no submitter (bpf/block.h) */
		add_who(r->procs, &r->nprocs, q->pid, q->comm ? q->comm : "", q->bytes);
	if (q->path && q->path[0])
		add_who(r->files, &r->nfiles, 0, q->path, q->bytes);
}

static int by_dev_op(const void *a, const void *b)
{
	const struct ior_dev_row *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	return (int)x->op - (int)y->op;
}

void ior_devices_sort(struct ior_devices *d)
{
	if (d->n)
		qsort(d->rows, d->n, sizeof *d->rows, by_dev_op);
}

int ior_devices_set_name(struct ior_devices *d, uint32_t dev, const char *name)
{
	struct ior_dev_name *n = NULL;

	for (unsigned i = 0; i < d->nnames && !n; i++)
		if (d->names[i].dev == dev)
			n = &d->names[i];
	if (!n) {
		if (d->nnames == IOR_DEV_MAX_NAMES)
			return -ENOSPC;
		if (!d->names && !(d->names = calloc(IOR_DEV_MAX_NAMES, sizeof *d->names)))
			return -ENOMEM;
		n = &d->names[d->nnames++];
		n->dev = dev;
	}
	snprintf(n->name, sizeof n->name, "%s", name);
	return 0;
}

const char *ior_devices_name(const struct ior_devices *d, uint32_t dev)
{
	for (unsigned i = 0; i < d->nnames; i++)
		if (d->names[i].dev == dev)
			return d->names[i].name;
	return NULL;
}
