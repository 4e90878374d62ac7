// SPDX-License-Identifier: GPL-2.0-or-later
/* Event stacks aggregated into a stack tree (evstacks.h). */
#include "config.h"

#include <stdbool.h>

#include "backend/ingest/decode.h"
#include "evstack.h"
#include "evstacks.h"
#include "backend/ingest/store.h"

#define NAME_LEN 256
#define COLLECT_BATCH 4096 /* records per hold of the store lock */

int evstacks_add(struct kt_stacks *st, struct kt_decoder *d, struct tep_handle *syms,
		 struct kt_symbolizer *sym, const struct kt_store *store, const struct kt_rec *r)
{
	char names[KT_EVSTACK_MAX][NAME_LEN];
	struct kt_evstack_frame f[KT_EVSTACK_MAX];
	struct kt_frame path[KT_EVSTACK_MAX + 1];
	size_t n, i;

	if (!r->stack || (r->flags & (KT_REC_LOST | KT_REC_STACK)))
		return 0;
	/* before the stack is read: reaching it may move a paged store's window, and r's
	 * data with it */
	path[0].name = decoder_comm(d, decoder_rec_pid(r), r->ts);
	path[0].kind = KT_FRAME_TASK;
	n = evstack_read(d, store, r, f, KT_EVSTACK_MAX);
	if (!n)
		return 0;
	/* root to leaf: the outermost frame (the user stack's last) first */
	for (i = 0; i < n; i++) {
		const struct kt_evstack_frame *fr = &f[n - 1 - i];

		path[i + 1].name = evstack_name_syms(d, syms, sym, fr, false, names[i], NAME_LEN,
						     &path[i + 1].kind);
	}
	return stacks_add(st, path, n + 1, 1) < 0 ? -1 : 1;
}

int64_t evstacks_collect(struct kt_stacks *st, struct kt_decoder *d,
			 struct kt_symbolizer *sym, struct kt_store *store, uint64_t first,
			 uint64_t end, const struct kt_evstacks_scan *scan)
{
	uint64_t seq = first;
	int64_t added = 0;
	struct kt_rec r;
	unsigned n;
	int ret;

	while (seq < end) {
		store_lock(store);
		if (seq < store_first(store))
			seq = store_first(store);
		for (n = 0; seq < end && n < COLLECT_BATCH; n++, seq++) {
			if (!store_get(store, seq, &r) || !r.stack ||
			    (scan && scan->shown && !scan->shown(scan->arg, &r)))
				continue;
			ret = evstacks_add(st, d,
					   scan && scan->syms_of ? scan->syms_of(scan->arg, &r) :
								   NULL,
					   scan && scan->sym_of ? scan->sym_of(scan->arg, &r) : sym,
					   store, &r);
			if (ret < 0) {
				store_unlock(store);
				return -1;
			}
			added += ret;
		}
		store_unlock(store);
	}
	return added;
}
