// SPDX-License-Identifier: GPL-2.0-or-later
/* The command line's combinations: what each option applies to and what excludes what
 * (src/app/options.c reads the options one by one). */
#include "config.h"

#include <stdio.h>

#include "options.h"

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

/* What the flight recorder's options need and exclude. */
static int options_check_arm(const struct kt_options *o, char *err, size_t errlen)
{
	/* the explorer arms later too (^A), with these */
	if (!o->n_arms && o->mode == KT_MODE_BATCH &&
	    (o->incidents_dir || o->max_incidents || o->incident_quota || o->arm_gap > 0))
		FAIL("--incidents, --max-incidents, --incident-gap and --incident-quota go with "
		     "--arm COND");
	if (!o->n_arms)
		return 0;
	if (!o->incidents_dir && o->mode == KT_MODE_BATCH)
		FAIL("--arm needs --incidents DIR, where each incident's directory is written");
	if (o->input_path || o->n_remotes || o->top || o->off_cpu || o->tree || o->agent)
		FAIL("--arm watches the live local capture: -i, -H, --via, --top, --off-cpu and "
		     "--tree belong to other runs");
	return 0;
}

bool options_ranged(const struct kt_options *o)
{
	return o->range.has_from || o->range.has_to;
}

/* --from, --to and --chrome-trace: what they scope or write from is there. */
static int options_range_check(const struct kt_options *o, char *err, size_t errlen)
{
	const struct kt_time_range *r = &o->range;

	if (options_ranged(o) && !o->input_path && o->mode != KT_MODE_BATCH)
		FAIL("--from and --to scope a recording (-i FILE) or batch output (-b): give one");
	if (r->has_from && r->has_to && r->from.relative == r->to.relative &&
	    r->from.ns > r->to.ns)
		FAIL("--from is after --to: give the earlier time to --from");
	if ((options_ranged(o) || o->chrome_path) && o->n_remotes)
		FAIL("--from, --to and --chrome-trace apply to local captures and recordings, not "
		     "over -H or --via");
	if (o->chrome_path && !o->input_path && o->mode != KT_MODE_BATCH)
		FAIL("--chrome-trace writes a recording's events (-i FILE) or a batch capture's (-b)");
	if ((options_ranged(o) || o->chrome_path) && (o->top || o->off_cpu || o->flame_path))
		FAIL("--from, --to and --chrome-trace do not apply to --top, --off-cpu or --flame");
	return 0;
}

int options_check(struct kt_options *o, char *err, size_t errlen)
{
	/* -p alone counts its processes (not yet in the explorer over an agent, which has no
	 * counters pane there); with --profile it scopes the profile */
	if (o->n_pids && !o->cpu_profile && !o->off_cpu && !o->top &&
	    !(o->n_remotes && o->mode != KT_MODE_BATCH))
		o->pmu = true;
	if (o->freq && !o->cpu_profile)
		FAIL("-F applies to --profile, which was not given");
	if (o->cpu_profile && (o->mode == KT_MODE_DOCTOR || o->mode == KT_MODE_LIST ||
			       o->mode == KT_MODE_LIST_USDT))
		FAIL("--profile does not apply to --doctor, --list or --list-usdt");
	if (o->cpu_profile && o->input_path && (o->freq || o->n_pids))
		FAIL("-i --profile shows the recorded profile: -F and -p belong to a live one");
	if (o->cpu_profile && (o->cgroup || o->tree))
		FAIL("--profile does not combine with %s", o->cgroup ? "--cgroup" : "--tree");
	if (o->filter && !o->n_events && !o->profile && !o->n_probes && !o->n_stacks)
		FAIL("--filter applies to the -e events and probes, and none was given");
	if ((o->mode == KT_MODE_DOCTOR || o->mode == KT_MODE_LIST ||
	     o->mode == KT_MODE_LIST_USDT) &&
	    (o->n_probes || o->tracer || o->comm || o->follow_children ||
	     o->n_ftrace_lists[0] || o->n_ftrace_lists[1] || o->n_ftrace_lists[2] ||
	     o->n_ftrace_lists[3]))
		FAIL("probes, tracers, function lists and --comm do not apply to --doctor, "
		     "--list or --list-usdt");
	if (o->cgroup && (o->n_pids || o->comm))
		FAIL("--cgroup, -p and --comm each scope what is traced: give one of them");
	if (o->cgroup && (o->mode == KT_MODE_DOCTOR || o->mode == KT_MODE_LIST ||
			  o->mode == KT_MODE_LIST_USDT || o->input_path))
		FAIL("--cgroup scopes a live capture: it does not apply to --doctor, --list, "
		     "--list-usdt or -i");
	if (o->follow_children && !o->n_pids && !o->comm)
		FAIL("--follow-children applies to -p or --comm, and neither was given");
	if (o->mode != KT_MODE_BATCH && (o->duration > 0 || o->max_events || o->quiet))
		FAIL("--duration, --max-events and --quiet belong to batch mode (-b)");
	if (o->record_path && o->mode != KT_MODE_BATCH && !o->input_path)
		FAIL("-o records in batch mode (-b); in the explorer, w writes the capture");
	if (options_range_check(o, err, errlen) < 0)
		return -1;
	if (o->force && !o->record_path && o->mode != KT_MODE_INTERACTIVE)
		FAIL("--force lets -o (or the explorer's w and A) replace a file: give -o FILE");
	if (o->input_path && (o->n_events || o->filter || o->pmu ||
			      o->buffer_kb || o->profile || o->n_probes || o->tracer ||
			      o->n_ftrace_lists[0] || o->n_ftrace_lists[1] || o->n_ftrace_lists[2] ||
			      o->n_ftrace_lists[3] || o->n_hists || o->comm || o->n_triggers ||
			      o->stop_when || o->n_stacks || o->user_stacks))
		FAIL("-i opens a recording: -e, --filter, --buffer-kb, -P, tracers, probes, "
		     "--comm, --hist, triggers, --stack and the counters need the live kernel");
	if (o->input_path && (o->mode == KT_MODE_DOCTOR || o->mode == KT_MODE_LIST ||
			      o->mode == KT_MODE_LIST_USDT))
		FAIL("-i does not apply to --doctor, --list or --list-usdt");
	if (o->diff_base && !o->flame_path)
		FAIL("--diff-base is the baseline of --flame FILE, and no --flame was given");
	if (o->flame_path && (o->mode != KT_MODE_INTERACTIVE || o->input_path ||
			      o->record_path || o->n_events || o->filter || o->pmu ||
			      o->buffer_kb || o->profile || o->n_probes || o->tracer ||
			      o->n_ftrace_lists[0] || o->n_ftrace_lists[1] || o->n_ftrace_lists[2] ||
			      o->n_ftrace_lists[3] || o->n_hists || o->comm || o->cgroup ||
			      o->n_triggers || o->stop_when || o->n_pids))
		FAIL("--flame shows a file in the explorer: it takes no other mode, recording, "
		     "capture, scope or pane option");
	if (o->mode != KT_MODE_BATCH && o->tree)
		FAIL("--tree belongs to batch mode (-b); the explorer's call-tree pane is key T");
	if (o->folded && o->mode != KT_MODE_BATCH)
		FAIL("--folded belongs to batch mode (-b); in the explorer, I shows the flame graph "
		     "and Enter on a row its stack");
	if (o->folded && (o->tree || o->json))
		FAIL("--folded prints stacks instead of event lines: it does not go with --tree "
		     "or --json");
	if (o->folded && !o->cpu_profile && !o->off_cpu && !o->n_stacks && !o->user_stacks &&
	    !o->input_path)
		FAIL("--folded prints stacks: give --profile, --off-cpu, --stack SYS:EV or -i FILE");
	if ((o->n_stacks || o->user_stacks) && (o->mode == KT_MODE_DOCTOR || o->mode == KT_MODE_LIST ||
			    o->mode == KT_MODE_LIST_USDT))
		FAIL("--stack and --user-stacks do not apply to --doctor, --list or --list-usdt");
	if (o->n_hists && (o->mode == KT_MODE_DOCTOR || o->mode == KT_MODE_LIST ||
			   o->mode == KT_MODE_LIST_USDT))
		FAIL("--hist does not apply to --doctor, --list or --list-usdt");
	if (o->pmu && (o->mode == KT_MODE_DOCTOR || o->mode == KT_MODE_LIST ||
		       o->mode == KT_MODE_LIST_USDT))
		FAIL("--pmu, --pmu-event and -p do not apply to --doctor, --list or --list-usdt");
	if (o->json && (o->mode == KT_MODE_INTERACTIVE || o->mode == KT_MODE_LIST ||
			o->mode == KT_MODE_LIST_USDT))
		FAIL("--json belongs to batch mode (-b) or --doctor");
	if (o->off_cpu && o->mode != KT_MODE_BATCH)
		FAIL("--off-cpu is a batch-mode profile: add -b");
	if (o->off_cpu && (o->n_events || o->profile || o->n_probes ||
			   o->tracer || o->n_hists || o->n_pmu_events || o->tree ||
			   o->record_path || o->input_path || o->n_triggers || o->stop_when ||
			   o->filter || o->max_events || o->follow_children))
		FAIL("--off-cpu runs alone: -e, -P, probes, tracers, --filter, --hist, --pmu-event, "
		     "--tree, --max-events, -o, -i, triggers and --follow-children belong to "
		     "other runs");
	if (o->top_interval > 0 && !o->top)
		FAIL("--interval is --top's: add -b --top");
	if (o->top && (o->n_events || o->profile || o->n_probes || o->tracer || o->n_hists ||
		       o->pmu || o->tree || o->record_path || o->n_triggers ||
		       o->stop_when || o->filter || o->max_events || o->off_cpu || o->cpu_profile ||
		       o->flame_path))
		FAIL("--top runs alone: events, tracers, probes, histograms, counters, profiles "
		     "and -o belong to other runs");
	if (o->top && o->input_path && (o->n_remotes || o->top_via))
		FAIL("--top -i counts the recording's events: -H, --via and --top=VIA are for a "
		     "live kernel");
	if (o->wakers && !o->off_cpu)
		FAIL("--wakers joins the off-CPU profile's waits to their wakers: add -b --off-cpu");
	if (o->off_cpu && o->n_pids > 1)
		FAIL("--off-cpu scopes to one process: give -p a single PID");
	if (o->agent && (o->mode != KT_MODE_INTERACTIVE || o->n_remotes ||
			 o->n_events || o->filter || o->tracer || o->n_probes || o->input_path ||
			 o->record_path || o->n_hists || o->pmu || o->cpu_profile || o->compress ||
			 o->profile || o->n_triggers || o->stop_when || o->n_stacks ||
			 o->user_stacks || o->comm || o->cgroup || o->n_pids ||
			 o->n_ftrace_lists[0] || o->n_ftrace_lists[1] || o->n_ftrace_lists[2] ||
			 o->n_ftrace_lists[3]))
		FAIL("--agent takes its events, filters, tracer and probes from the viewer at the "
		     "other end of the pipe: give it no mode or capture option (--buffer-kb and "
		     "-v apply)");
	/* the explorer over agents takes triggers; batch mode's output of them is local */
	if (o->n_remotes && (o->n_triggers || o->stop_when) && o->mode == KT_MODE_BATCH)
		FAIL("--trigger and --stop-when over agents act in the explorer (without -b)");
	if (o->n_remotes &&
	    ((o->folded && !o->cpu_profile && !o->off_cpu) || o->input_path || o->profile))
		FAIL("over a remote agent (-H, --via), -i, -P and --folded without a profile work "
		     "locally only");
	if (o->push != KT_PUSH_AUTO && !o->n_remotes)
		FAIL("%s applies to -H or --via (how the agent gets to the host)",
		     o->push == KT_PUSH_FORCE ? "--push" : "--no-push");
	if (o->compress && !o->n_remotes)
		FAIL("--compress applies to -H or --via (the agent compresses what it sends)");
	return options_check_arm(o, err, errlen);
}

bool options_landing(const struct kt_options *o)
{
	return o->top || (!o->n_events && !o->tracer && !o->n_hists && !o->profile &&
			  !o->input_path && !o->flame_path && !o->cpu_profile && !o->n_probes &&
			  !o->n_remotes && !o->pmu && !o->n_pids && !o->comm && !o->cgroup &&
			  !o->n_stacks && !o->n_triggers && !o->stop_when && !o->record_path &&
			  !o->n_ftrace_lists[0] && !o->n_ftrace_lists[1] && !o->n_ftrace_lists[2] &&
			  !o->n_ftrace_lists[3]);
}
