// SPDX-License-Identifier: GPL-2.0-or-later
/* The summary of a batch run over agents, per host (batch_hostsum.h). */
#include "config.h"

#include "batch_hostsum.h"
#include "util/json.h"

void batch_hostsum_read(struct batch_hostsum *s, const struct kt_remote *r,
			const struct kt_rpages *p, const struct kt_hostmerge *m, unsigned idx)
{
	s->st = (struct kt_remote_stats){ 0 };
	s->rs = (struct kt_reader_stats){ 0 };
	s->ms = (struct kt_hostmerge_stats){ 0 };
	s->bl = (struct kt_rbacklog){ 0 };
	s->lost = s->unc = 0;
	s->off = 0;
	remote_stats(r, &s->st);
	rpages_stats(p, &s->rs, NULL, 0, &s->lost);
	rpages_backlog(p, &s->bl);
	if (m)
		hostmerge_stats(m, idx, &s->ms);
	s->clock = remote_clock(r, &s->off, &s->unc);
}

void batch_hostsum_one(FILE *out, const struct batch_hostsum *s)
{
	fprintf(out, "# ktop: %s (kernel %s, %u CPUs): %llu bytes received in %llu frames, "
		"%llu pages (%llu bytes)", s->name, s->hello->kernel, s->hello->ncpus,
		(unsigned long long)s->st.bytes, (unsigned long long)s->st.frames,
		(unsigned long long)s->st.pages, (unsigned long long)s->st.page_bytes);
	fprintf(out, ", backlog max %llu bytes %llu ns, end %llu bytes %llu ns",
		(unsigned long long)s->bl.max_bytes, (unsigned long long)s->bl.max_age_ns,
		(unsigned long long)s->bl.bytes, (unsigned long long)s->bl.age_ns);
	if (s->clock)
		fprintf(out, ", clock offset %+lld ns +/- %llu ns", (long long)s->off,
			(unsigned long long)s->unc);
	fputc('\n', out);
}

void batch_hostsum_line(FILE *out, const struct batch_hostsum *s)
{
	fprintf(out, "# ktop: host %s (%s, kernel %s, %u CPUs): events=%llu lost=%llu "
		"lost_marked=%llu lost_unknown_pages=%llu bytes=%llu frames=%llu stalled=%llu "
		"late=%llu backlog_max=%llu backlog_max_ns=%llu backlog_end=%llu "
		"backlog_end_ns=%llu", s->label, s->name, s->hello->kernel, s->hello->ncpus,
		(unsigned long long)s->rs.events, (unsigned long long)s->lost,
		(unsigned long long)s->rs.missed, (unsigned long long)s->rs.missed_unknown,
		(unsigned long long)s->st.bytes, (unsigned long long)s->st.frames,
		(unsigned long long)s->ms.stalled, (unsigned long long)s->ms.late,
		(unsigned long long)s->bl.max_bytes, (unsigned long long)s->bl.max_age_ns,
		(unsigned long long)s->bl.bytes, (unsigned long long)s->bl.age_ns);
	if (s->clock)
		fprintf(out, ", clock offset %+lld ns +/- %llu ns", (long long)s->off,
			(unsigned long long)s->unc);
	else
		fputs(", clock offset unknown (no pong came)", out);
	fputs(s->failed ? ", ended early\n" : "\n", out);
}

void batch_hostsum_json(FILE *out, const struct batch_hostsum *s)
{
	fputs("{\"host\":", out);
	json_string(out, s->label);
	fputs(",\"agent\":", out);
	json_string(out, s->hello->host);
	fputs(",\"kernel\":", out);
	json_string(out, s->hello->kernel);
	fprintf(out, ",\"cpus\":%u,\"events\":%llu,\"lost\":%llu,\"lost_marked\":%llu,"
		"\"lost_unknown_pages\":%llu,\"bytes\":%llu,\"frames\":%llu,\"pages\":%llu,"
		"\"stalled\":%llu,\"late\":%llu,\"backlog_max_bytes\":%llu,"
		"\"backlog_max_ns\":%llu,\"backlog_end_bytes\":%llu,\"backlog_end_ns\":%llu,",
		s->hello->ncpus, (unsigned long long)s->rs.events, (unsigned long long)s->lost,
		(unsigned long long)s->rs.missed, (unsigned long long)s->rs.missed_unknown,
		(unsigned long long)s->st.bytes, (unsigned long long)s->st.frames,
		(unsigned long long)s->st.pages, (unsigned long long)s->ms.stalled,
		(unsigned long long)s->ms.late, (unsigned long long)s->bl.max_bytes,
		(unsigned long long)s->bl.max_age_ns, (unsigned long long)s->bl.bytes,
		(unsigned long long)s->bl.age_ns);
	if (s->clock)
		fprintf(out, "\"offset_ns\":%lld,\"uncertainty_ns\":%llu", (long long)s->off,
			(unsigned long long)s->unc);
	else
		fputs("\"offset_ns\":null,\"uncertainty_ns\":null", out);
	fprintf(out, ",\"ended_early\":%s}", s->failed ? "true" : "false");
}
