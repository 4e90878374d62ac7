// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/probes.h"
#include "backend/usdt.h"
#include "backend/tracers.h"
#include "backend/histspec.h"
#include "backend/triggers.h"
#include "options.h"
#include "xalloc.h"

#define KT_DEFAULT_MEMORY (256ull << 20)
#define KT_DEFAULT_DELAY_MS 1000u

enum {
	OPT_DOCTOR = 256,
	OPT_DURATION,
	OPT_BUFFER_KB,
	OPT_MEMORY,
	OPT_JSON,
	OPT_FILTER,
	OPT_LOG,
	OPT_MAX_EVENTS,
	OPT_PMU,
	OPT_PMU_EVENT,
	OPT_THEME,
	OPT_KPROBE,
	OPT_KRETPROBE,
	OPT_UPROBE,
	OPT_URETPROBE,
	OPT_USDT,
	OPT_LIST_USDT,
	OPT_FTRACE_FILTER,
	OPT_FTRACE_NOTRACE,
	OPT_GRAPH_NOTRACE,
	OPT_FOLLOW_CHILDREN,
	OPT_COMM,
	OPT_CGROUP,
	OPT_HIST,
	OPT_TREE,
	OPT_TOP_LEVEL,
	OPT_TRIGGER,
	OPT_STOP_WHEN,
	OPT_CPU_PROFILE,
	OPT_FOLDED,
	OPT_FLAME,
	OPT_DIFF_BASE,
	OPT_OFF_CPU,
	OPT_TOP,
	OPT_INTERVAL,
	OPT_STACK,
	OPT_USER_STACKS,
	OPT_AGENT,
	OPT_VIA,
	OPT_COMPRESS,
	OPT_FORCE,
	OPT_READ_MODE,
	OPT_PUSH,
	OPT_NO_PUSH,
};

static const struct option long_options[] = {
	{ "batch", no_argument, NULL, 'b' },
	{ "doctor", no_argument, NULL, OPT_DOCTOR },
	{ "list", optional_argument, NULL, 'l' },
	{ "event", required_argument, NULL, 'e' },
	{ "filter", required_argument, NULL, OPT_FILTER },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "delay", required_argument, NULL, 'd' },
	{ "buffer-kb", required_argument, NULL, OPT_BUFFER_KB },
	{ "read-mode", required_argument, NULL, OPT_READ_MODE },
	{ "memory", required_argument, NULL, OPT_MEMORY },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "quiet", no_argument, NULL, 'q' },
	{ "tree", no_argument, NULL, OPT_TREE },
	{ "top-level", no_argument, NULL, OPT_TOP_LEVEL },
	{ "max-events", required_argument, NULL, OPT_MAX_EVENTS },
	{ "pmu", no_argument, NULL, OPT_PMU },
	{ "pmu-event", required_argument, NULL, OPT_PMU_EVENT },
	{ "pid", required_argument, NULL, 'p' },
	{ "hist", required_argument, NULL, OPT_HIST },
	{ "theme", required_argument, NULL, OPT_THEME },
	{ "kprobe", required_argument, NULL, OPT_KPROBE },
	{ "kretprobe", required_argument, NULL, OPT_KRETPROBE },
	{ "uprobe", required_argument, NULL, OPT_UPROBE },
	{ "uretprobe", required_argument, NULL, OPT_URETPROBE },
	{ "usdt", required_argument, NULL, OPT_USDT },
	{ "list-usdt", required_argument, NULL, OPT_LIST_USDT },
	{ "tracer", required_argument, NULL, 't' },
	{ "ftrace-filter", required_argument, NULL, OPT_FTRACE_FILTER },
	{ "ftrace-notrace", required_argument, NULL, OPT_FTRACE_NOTRACE },
	{ "graph-function", required_argument, NULL, 'g' },
	{ "graph-notrace", required_argument, NULL, OPT_GRAPH_NOTRACE },
	{ "follow-children", no_argument, NULL, OPT_FOLLOW_CHILDREN },
	{ "comm", required_argument, NULL, OPT_COMM },
	{ "cgroup", required_argument, NULL, OPT_CGROUP },
	{ "trigger", required_argument, NULL, OPT_TRIGGER },
	{ "stop-when", required_argument, NULL, OPT_STOP_WHEN },
	{ "profile", no_argument, NULL, OPT_CPU_PROFILE },
	{ "freq", required_argument, NULL, 'F' },
	{ "folded", no_argument, NULL, OPT_FOLDED },
	{ "preset", required_argument, NULL, 'P' },
	{ "off-cpu", optional_argument, NULL, OPT_OFF_CPU },
	{ "top", optional_argument, NULL, OPT_TOP },
	{ "interval", required_argument, NULL, OPT_INTERVAL },
	{ "stack", required_argument, NULL, OPT_STACK },
	{ "user-stacks", no_argument, NULL, OPT_USER_STACKS },
	{ "no-mouse", no_argument, NULL, 'M' },
	{ "no-color", no_argument, NULL, 'C' },
	{ "no-colour", no_argument, NULL, 'C' },
	{ "ascii", no_argument, NULL, 'U' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "log", required_argument, NULL, OPT_LOG },
	{ "output", required_argument, NULL, 'o' },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "input", required_argument, NULL, 'i' },
	{ "flame", required_argument, NULL, OPT_FLAME },
	{ "diff-base", required_argument, NULL, OPT_DIFF_BASE },
	{ "agent", no_argument, NULL, OPT_AGENT },
	{ "host", required_argument, NULL, 'H' },
	{ "via", required_argument, NULL, OPT_VIA },
	{ "compress", no_argument, NULL, OPT_COMPRESS },
	{ "push", no_argument, NULL, OPT_PUSH },
	{ "no-push", no_argument, NULL, OPT_NO_PUSH },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

void options_usage(FILE *out)
{
	fputs("Usage: ktop [options]\n"
	      "Explore what the Linux kernel is doing, live.\n"
	      "\n"
	      "Modes:\n"
	      "  (default)              full-screen explorer\n"
	      "  -b, --batch            no screen: capture, then print events and a loss summary\n"
	      "      --doctor           what this kernel and these privileges allow, and why not\n"
	      "  -l, --list[=SPEC]      list the available events (matching SPEC, globs allowed)\n"
	      "      --list-usdt PATH|PID  list a binary's or a process's USDT probes\n"
	      "\n"
	      "Capture:\n"
	      "  -e, --event SPEC       enable system:event (globs allowed), repeatable\n"
	      "      --filter EXPR      kernel filter for every -e event (e.g. 'common_pid == 42')\n"
	      "      --buffer-kb N      ring buffer per CPU in KiB (default: 64 MiB, less on small machines)\n"
	      "      --read-mode MODE   mmap (default where the kernel can) or read: how the ring buffer is read\n"
	      "      --memory SIZE      event store budget (default 256M; k, M, G suffixes)\n"
	      "\n"
	      "Recordings (trace-cmd's trace.dat):\n"
	      "  -o, --output FILE      with -b: also record the capture to FILE\n"
	      "      --force            -o, w and A may replace an existing file of one's own\n"
	      "  -i, --input FILE       explore FILE offline (with -b: print its events)\n"
	      "\n"
	      "Flame graphs:\n"
	      "      --flame FILE       the flame graph of a folded-stacks file (perf script |\n"
	      "                         stackcollapse-perf.pl, inferno, ktop -b --folded)\n"
	      "      --diff-base FILE   with --flame: colour frames by their change from FILE's\n"
	      "                         (red grew, blue shrank)\n"
	      "\n"
	      "Tracers and dynamic probes:\n"
	      "  -t, --tracer NAME      tracer of ktop's instance (function, function_graph, ...)\n"
	      "      --ftrace-filter F  trace only functions F (globs, :mod:MODULE, F:traceoff)\n"
	      "      --ftrace-notrace F never trace functions F\n"
	      "  -g, --graph-function F function_graph from F down\n"
	      "      --graph-notrace F  function_graph: not below F (the four repeatable)\n"
	      "      --top-level        where -t or -g exist only at tracefs's top level, use it\n"
	      "                         (it must be idle; saved and restored at exit)\n"
	      "      --kprobe DEF       probe a kernel function: '[NAME=]FUNC [ARG=FETCH:TYPE...]'\n"
	      "      --kretprobe DEF    probe its return ('do_sys_openat2 ret=$retval:s32'); add\n"
	      "                         maxactive=N (1-4096) for N calls in flight at once\n"
	      "      --uprobe DEF       probe a user function: '[NAME=]PATH:FUNC [ARG...] [pid=N]'\n"
	      "      --uretprobe DEF    probe its return; all four repeatable, enabled at once\n"
	      "      --usdt DEF         a USDT probe: '[NAME=]PATH:PROVIDER:PROBE [argN:string...]\n"
	      "                         [pid=N]', its arguments typed from the note; repeatable\n"
	      "      --comm NAME        only events of tasks named NAME\n"
	      "      --follow-children  -p and --comm also cover the children they fork\n"
	      "      --cgroup PATH      only tasks in cgroup PATH and below (v2, relative to its\n"
	      "                         mount, or a v1 directory): events, probes, --hist, --pmu\n"
	      "      --trigger SPEC     event trigger 'SYS:EV:TRIGGER[:COUNT] [if FILTER]'\n"
	      "                         (traceon, traceoff, stacktrace, enable_event:SYS:EV,\n"
	      "                         disable_event:SYS:EV, ...); repeatable\n"
	      "      --stop-when SPEC   stop capturing when 'SYS:EV [if FILTER]' fires (with -b:\n"
	      "                         end the run there)\n"
	      "      --stack SYS:EV     trace SYS:EV (globs allowed) with its kernel stack on\n"
	      "                         every row (a stacktrace trigger); repeatable\n"
	      "      --user-stacks      every event also carries its task's user stack\n"
	      "                         (the instance's userstacktrace option)\n"
	      "\n"
	      "Counters (perf_event_open):\n"
	      "      --pmu              performance counters: a pane beside the stream, or\n"
	      "                         with -b a table (or JSON object) at the end\n"
	      "      --pmu-event SPEC   also count SPEC as perf spells it (cache-misses, r01c2,\n"
	      "                         cpu/event=0x3c/, msr/tsc/, sched:sched_switch); repeatable\n"
	      "  -p, --pid PID[,PID]    count these processes' threads instead of every CPU,\n"
	      "                         and trace only them (set_event_pid, set_ftrace_pid)\n"
	      "                         (-p and --pmu-event imply --pmu; with --profile, -p\n"
	      "                         scopes the profile and --pmu is asked for apart)\n"
	      "\n"
	      "The overview (a top of the kernel, counted in the kernel by BPF):\n"
	      "      --top[=VIA]        with -b: one table of every process per interval (CPU,\n"
	      "                         run-queue wait, off-CPU, syscalls, faults, I/O, context\n"
	      "                         switches, migrations; --json: one object per line); VIA\n"
	      "                         pins tp_btf, raw_tp or proc (no BPF). The explorer opens\n"
	      "                         on it when nothing else is named\n"
	      "      --interval SECS    --top's interval (default: -d's)\n"
	      "\n"
	      "Profiles (perf_event_open sampling with kernel and user stacks):\n"
	      "      --profile          sample on-CPU stacks on every CPU (or -p, --comm): cycles\n"
	      "                         with a PMU, else cpu-clock; with -b, folded stacks at the\n"
	      "                         end (--json: a JSON object); --memory bounds the stacks\n"
	      "  -F, --freq HZ          samples per second per CPU (default 99)\n"
	      "      --off-cpu[=VIA]    time off the CPU (blocked, then waiting for a CPU) by\n"
	      "                         kernel and user stack, in ns, with -b (BPF); VIA pins\n"
	      "                         tp_btf, raw_tp or tracepoint; one -p, --comm or --cgroup\n"
	      "      --folded           with -b: stacks folded (task;outer;...;inner COUNT) for\n"
	      "                         flame graphs, instead of event lines: the profile's, or\n"
	      "                         the --stack events' (counts on stderr)\n"
	      "\n"
	      "Histograms (BPF, aggregated in the kernel):\n"
	      "      --hist SPEC        syscall-latency, runq-latency, offcpu, bio-latency,\n"
	      "                         bio-size, read-size, write-size, lock-contention,\n"
	      "                         tcp-connect-latency, func:FUNCTION, field:SYS:EVENT.FIELD,\n"
	      "                         latency:SYS:EV[.F]->SYS:EV[.F], usdt:PATH:PROVIDER:PROBE[.argN];\n"
	      "                         options ,by=KEY ,linear=STEP ,pid=PID\n"
	      "                         ,via=tp_btf|raw_tp|tracepoint|fentry|kprobe; repeatable;\n"
	      "                         --hist list shows the kinds\n"
	      "\n"
	      "Batch mode:\n"
	      "      --duration SECS    capture this long (default: until SIGINT/SIGTERM)\n"
	      "      --max-events N     stop after N events\n"
	      "      --json             one JSON object per line\n"
	      "  -q, --quiet            print only the summary\n"
	      "      --tree             function_graph call trees, in the kernel's layout (or\n"
	      "                         JSON with --json), instead of event lines\n"
	      "\n"
	      "Remote (docs/remote.md):\n"
	      "  -H, --host HOST        capture on HOST: runs ssh HOST ktop --agent\n"
	      "      --via CMD          capture through CMD (/bin/sh -c), which runs ktop --agent\n"
	      "                         (kubectl exec -i POD -- ktop --agent, docker exec -i ...)\n"
	      "                         -H and --via repeat (up to 16): one stream by time, a\n"
	      "                         host column (HOST, or via1, via2... in order)\n"
	      "      --compress         the agent sends its pages zstd-compressed (slow links)\n"
	      "      --push             send the static agent even where HOST has ktop (with\n"
	      "                         --via, CMD starts a POSIX shell: 'chroot ROOT /bin/sh');\n"
	      "                         -H sends it by itself where HOST has no ktop of this\n"
	      "                         version; it runs from memory and leaves nothing there\n"
	      "      --no-push          -H: only HOST's own ktop (ssh HOST ktop --agent)\n"
	      "      --agent            no screen: the remote protocol on stdin/stdout, for a\n"
	      "                         viewer at the other end of the pipe\n"
	      "\n"
	      "Screen:\n"
	      "  -d, --delay TENTHS     refresh interval in tenths of a second (default 10)\n"
	      "  -C, --no-color         monochrome (also when NO_COLOR is set)\n"
	      "  -U, --ascii            ASCII line drawing\n"
	      "      --theme NAME       colour theme (default, light, mono, high-contrast, yours;\n"
	      "                         --theme list shows them)\n"
	      "  -M, --no-mouse         no mouse (clicks and the wheel go to the terminal)\n"
	      "  -P, --preset NAME      events and layout of a profile: sched, block, syscalls,\n"
	      "                         memory, net, or ~/.config/ktop/profiles/NAME (-P list)\n"
	      "\n"
	      "  -v, --verbose          debug log to ktop-PID.log\n"
	      "      --log FILE         the debug log to FILE instead (implies -v)\n"
	      "  -h, --help             this help\n"
	      "  -V, --version          version\n"
	      "\n"
	      "Exit status: 0 ok, 1 runtime error, 2 usage error, 3 not permitted,\n"
	      "128+N after signal N in the explorer. See ktop(1).\n",
	      out);
}

long long options_parse_size(const char *s)
{
	unsigned long long v, mult = 1;
	char *end;

	if (!s || !*s || *s == '-')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -1;
	switch (*end) {
	case '\0':
		break;
	case 'k': case 'K':
		mult = 1ull << 10;
		end++;
		break;
	case 'm': case 'M':
		mult = 1ull << 20;
		end++;
		break;
	case 'g': case 'G':
		mult = 1ull << 30;
		end++;
		break;
	default:
		return -1;
	}
	if (*end == 'B' || *end == 'b' || (*end == 'i' && end[1] == 'B' && end++))
		end++;
	if (*end)
		return -1;
	if (v > (unsigned long long)(1ll << 62) / mult)
		return -1;
	return (long long)(v * mult);
}

static int parse_ulong(const char *s, unsigned long max, unsigned long *out)
{
	unsigned long v;
	char *end;

	if (!s || !*s || *s == '-')
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

/* "1234" or "1,2,3", appended to o->pids. */
static int parse_pids(const char *s, struct kt_options *o)
{
	unsigned long v;
	char *end;

	for (;;) {
		if (*s < '0' || *s > '9')
			return -1;
		errno = 0;
		v = strtoul(s, &end, 10);
		if (errno || v == 0 || v > INT_MAX || (*end && *end != ','))
			return -1;
		o->pids = xreallocarray(o->pids, o->n_pids + 1, sizeof(*o->pids));
		o->pids[o->n_pids++] = (pid_t)v;
		if (!*end)
			return 0;
		s = end + 1;
	}
}

static void options_defaults(struct kt_options *o)
{
	const char *nc = getenv("NO_COLOR");

	memset(o, 0, sizeof(*o));
	o->mode = KT_MODE_INTERACTIVE;
	o->delay_ms = KT_DEFAULT_DELAY_MS;
	o->memory_bytes = KT_DEFAULT_MEMORY;
	/* https://no-color.org: any non-empty value */
	o->no_color = nc && *nc;
}

static void add_probe(struct kt_options *o, int kind, bool usdt, const char *def)
{
	o->probes = xreallocarray(o->probes, o->n_probes + 1, sizeof(*o->probes));
	o->probes[o->n_probes].kind = kind;
	o->probes[o->n_probes].usdt = usdt;
	o->probes[o->n_probes++].def = def;
}

static void add_list_entry(struct kt_options *o, int which, const char *entry)
{
	o->ftrace_lists[which] = xreallocarray(o->ftrace_lists[which],
					       o->n_ftrace_lists[which] + 2, sizeof(char *));
	o->ftrace_lists[which][o->n_ftrace_lists[which]++] = entry;
	o->ftrace_lists[which][o->n_ftrace_lists[which]] = NULL;
}

static const char *const probe_option[] = { "--kprobe", "--kretprobe", "--uprobe",
					    "--uretprobe" };
static const char *const list_option[] = { "--ftrace-filter", "--ftrace-notrace",
					   "--graph-function", "--graph-notrace" };

/* --hist list: the built-in names and the generic forms' prefixes, one a line (for shell
 * completion and for people). */
static void print_hist_kinds(void)
{
	const char *const *names;
	size_t n;

	names = histspec_builtins(&n);
	for (size_t i = 0; i < n; i++)
		printf("%.*s\n", (int)strcspn(names[i], ":") + !!strchr(names[i], ':'), names[i]);
	puts("field:\nlatency:\nusdt:");
}

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); goto fail; } while (0)

/* One more -H host or --via cmd, labelled (struct kt_remote_opt). Returns 0, or -1 with
 * err. */
static int options_add_remote(struct kt_options *o, const char *host, const char *via,
			      char *err, size_t errlen)
{
	struct kt_remote_opt *r;
	size_t vias = 0;

	if (o->n_remotes == KT_REMOTES_MAX) {
		snprintf(err, errlen, "at most %d remotes (-H and --via) in one run: run another "
			 "ktop for the rest", KT_REMOTES_MAX);
		return -1;
	}
	for (size_t i = 0; i < o->n_remotes; i++)
		vias += o->remotes[i].via != NULL;
	r = &o->remotes[o->n_remotes];
	r->host = host;
	r->via = via;
	if (host)
		snprintf(r->label, sizeof(r->label), "%s", host);
	else
		snprintf(r->label, sizeof(r->label), "via%zu", vias + 1);
	for (size_t i = 0; i < o->n_remotes; i++) {
		if (!strcmp(o->remotes[i].label, r->label)) {
			snprintf(err, errlen, "two remotes labelled %s (-H HOST is labelled HOST, "
				 "--via CMD via1, via2... in order): give each host once", r->label);
			return -1;
		}
	}
	o->n_remotes++;
	return 0;
}

int options_parse(int argc, char **argv, struct kt_options *o, char *err, size_t errlen)
{
	char why[512];
	unsigned long ul;
	long long ll;
	char *end;
	int c, kind, which, pos;

	options_defaults(o);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":be:d:lp:qCUvhVP:Mt:g:o:i:F:H:", long_options,
				NULL)) != -1) {
		switch (c) {
		case 'b':
			o->mode = KT_MODE_BATCH;
			break;
		case OPT_DOCTOR:
			o->mode = KT_MODE_DOCTOR;
			break;
		case OPT_AGENT:
			o->agent = true;
			break;
		case 'H':
			if (!*optarg || *optarg == '-')
				FAIL("-H takes a host name as ssh knows it, not '%s'", optarg);
			if (strlen(optarg) >= sizeof(o->remotes[0].label))
				FAIL("-H %.40s...: a host name of at most %zu characters (an ssh "
				     "config alias is shorter)", optarg, sizeof(o->remotes[0].label) - 1);
			if (options_add_remote(o, optarg, NULL, err, errlen) < 0)
				goto fail;
			break;
		case OPT_VIA:
			if (!*optarg)
				FAIL("--via takes a command that runs ktop --agent, such as "
				     "'ssh HOST ktop --agent'");
			if (options_add_remote(o, NULL, optarg, err, errlen) < 0)
				goto fail;
			break;
		case OPT_COMPRESS:
			o->compress = true;
			break;
		case OPT_FORCE:
			o->force = true;
			break;
		case OPT_PUSH:
		case OPT_NO_PUSH:
			if (o->push != KT_PUSH_AUTO &&
			    o->push != (c == OPT_PUSH ? KT_PUSH_FORCE : KT_PUSH_NEVER))
				FAIL("--push and --no-push contradict each other: give one");
			o->push = c == OPT_PUSH ? KT_PUSH_FORCE : KT_PUSH_NEVER;
			break;
		case 'l':
			o->mode = KT_MODE_LIST;
			/* "-l sched:*" as well as "--list=sched:*" */
			if (!optarg && optind < argc && argv[optind][0] != '-')
				optarg = argv[optind++];
			o->list_spec = optarg;
			break;
		case 'e':
			if (!*optarg)
				FAIL("-e needs an event such as sched:sched_switch");
			o->events = xreallocarray(o->events, o->n_events + 2, sizeof(*o->events));
			o->events[o->n_events++] = optarg;
			o->events[o->n_events] = NULL;
			break;
		case OPT_FILTER:
			o->filter = optarg;
			break;
		case OPT_DURATION:
			errno = 0;
			o->duration = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(o->duration >= 0) ||
			    o->duration > 1e7)
				FAIL("--duration takes seconds, such as 3 or 0.5, not '%s'", optarg);
			break;
		case 'd':
			if (parse_ulong(optarg, 36000, &ul) || ul == 0)
				FAIL("-d takes tenths of a second from 1 to 36000, not '%s'", optarg);
			o->delay_ms = (unsigned)ul * 100;
			o->delay_set = true;
			break;
		case OPT_THEME:
			if (!*optarg)
				FAIL("--theme needs a name (--theme list shows them)");
			o->theme = optarg;
			break;
		case 'P':
			if (!*optarg)
				FAIL("-P needs a profile name such as sched");
			o->profile = optarg;
			break;
		case 'M':
			o->no_mouse = true;
			break;
		case OPT_BUFFER_KB:
			if (parse_ulong(optarg, 16ul << 20, &ul) || ul < 4)
				FAIL("--buffer-kb takes KiB per CPU from 4 to 16777216, not '%s'",
				     optarg);
			o->buffer_kb = ul;
			break;
		case OPT_READ_MODE:
			if (strcmp(optarg, "mmap") && strcmp(optarg, "read"))
				FAIL("--read-mode takes mmap or read, not '%s'", optarg);
			o->read_copy = !strcmp(optarg, "read");
			break;
		case OPT_MEMORY:
			ll = options_parse_size(optarg);
			if (ll < (8 << 20))
				FAIL("--memory takes a size of at least 8M, such as 256M or 2G, not '%s'",
				     optarg);
			o->memory_bytes = (size_t)ll;
			break;
		case OPT_MAX_EVENTS:
			if (parse_ulong(optarg, (unsigned long)-1, &ul) || ul == 0)
				FAIL("--max-events takes a positive count, not '%s'", optarg);
			o->max_events = ul;
			break;
		case OPT_PMU:
			o->pmu = true;
			break;
		case OPT_PMU_EVENT:
			if (!*optarg)
				FAIL("--pmu-event needs an event such as cache-misses or msr/tsc/");
			o->pmu_events = xreallocarray(o->pmu_events, o->n_pmu_events + 2,
						      sizeof(*o->pmu_events));
			o->pmu_events[o->n_pmu_events++] = optarg;
			o->pmu_events[o->n_pmu_events] = NULL;
			o->pmu = true;
			break;
		case OPT_TRIGGER: {
			struct kt_trigger t;
			char bad[400];

			if (trigger_parse(optarg, true, &t, bad, sizeof(bad)) < 0)
				FAIL("--trigger: %s", bad);
			o->triggers = xreallocarray(o->triggers, o->n_triggers + 2,
						    sizeof(*o->triggers));
			o->triggers[o->n_triggers++] = optarg;
			o->triggers[o->n_triggers] = NULL;
			break;
		}
		case OPT_STACK:
			if (!strchr(optarg, ':'))
				FAIL("--stack '%s': needs SYS:EV, e.g. syscalls:sys_enter_openat",
				     optarg);
			o->stacks = xreallocarray(o->stacks, o->n_stacks + 2, sizeof(*o->stacks));
			o->stacks[o->n_stacks++] = optarg;
			o->stacks[o->n_stacks] = NULL;
			break;
		case OPT_FOLDED:
			o->folded = true;
			break;
		case OPT_USER_STACKS:
			o->user_stacks = true;
			break;
		case OPT_STOP_WHEN: {
			struct kt_trigger t;
			char bad[400];

			if (trigger_parse_stop(optarg, &t, bad, sizeof(bad)) < 0)
				FAIL("--stop-when: %s", bad);
			o->stop_when = optarg;
			break;
		}
		case OPT_HIST: {
			struct kt_hist_spec spec;
			char bad[400];

			if (!strcmp(optarg, "list")) {
				print_hist_kinds();
				options_free(o);
				return 1;
			}
			if (histspec_parse(optarg, &spec, bad, sizeof(bad)) < 0)
				FAIL("--hist: %s", bad);
			o->hists = xreallocarray(o->hists, o->n_hists + 2, sizeof(*o->hists));
			o->hists[o->n_hists++] = optarg;
			o->hists[o->n_hists] = NULL;
			break;
		}
		case 'p':
			if (parse_pids(optarg, o) < 0)
				FAIL("-p takes a process id or a comma-separated list, not '%s'",
				     optarg);
			break;
		case OPT_CPU_PROFILE:
			o->cpu_profile = true;
			break;
		case 'F':
			if (parse_ulong(optarg, UINT_MAX, &ul) || ul == 0)
				FAIL("-F takes samples per second, 1 or more (perf's default is 99), "
				     "not '%s'", optarg);
			o->freq = (unsigned)ul;
			break;
		case OPT_TREE:
			o->tree = true;
			break;
		case OPT_TOP_LEVEL:
			o->top_level = true;
			break;
		case OPT_KPROBE:
		case OPT_KRETPROBE:
		case OPT_UPROBE:
		case OPT_URETPROBE:
			kind = c - OPT_KPROBE;
			/* syntax is checked here (exit 2); the kernel's verdict comes later */
			if (probe_parse((enum kt_probe_kind)kind, optarg, NULL, why, sizeof(why),
					&pos) < 0)
				FAIL("%s '%s': %s (at column %d)", probe_option[kind], optarg, why,
				     pos + 1);
			add_probe(o, kind, false, optarg);
			break;
		case OPT_USDT:
			if (usdt_parse(optarg, NULL, why, sizeof(why)) < 0)
				FAIL("--usdt '%s': %s", optarg, why);
			add_probe(o, KT_PROBE_UPROBE, true, optarg);
			break;
		case OPT_LIST_USDT:
			if (!*optarg)
				FAIL("--list-usdt needs a binary, a library or a process id");
			o->mode = KT_MODE_LIST_USDT;
			o->list_spec = optarg;
			break;
		case 't':
			if (!*optarg)
				FAIL("-t needs a tracer name such as function or function_graph");
			o->tracer = optarg;
			break;
		case OPT_FTRACE_FILTER:
		case OPT_FTRACE_NOTRACE:
		case 'g':
		case OPT_GRAPH_NOTRACE:
			which = c == OPT_FTRACE_FILTER	? KT_FTRACE_FILTER :
				c == OPT_FTRACE_NOTRACE ? KT_FTRACE_NOTRACE :
				c == 'g'		? KT_GRAPH_FUNCTION :
							  KT_GRAPH_NOTRACE;
			if (tracers_filter_check((enum kt_ftrace_list)which, optarg, why,
						 sizeof(why), &pos) < 0)
				FAIL("%s '%s': %s", list_option[which], optarg, why);
			add_list_entry(o, which, optarg);
			break;
		case OPT_FOLLOW_CHILDREN:
			o->follow_children = true;
			break;
		case OPT_COMM:
			if (!*optarg || strlen(optarg) > 15 || strpbrk(optarg, "\"\\"))
				FAIL("--comm takes a command name of 1 to 15 characters without "
				     "quotes or backslashes, not '%s'", optarg);
			o->comm = optarg;
			break;
		case OPT_CGROUP:
			if (!*optarg)
				FAIL("--cgroup needs a cgroup directory such as "
				     "/system.slice/cron.service");
			o->cgroup = optarg;
			break;
		case OPT_OFF_CPU:
			if (optarg && strcmp(optarg, "tp_btf") && strcmp(optarg, "raw_tp") &&
			    strcmp(optarg, "tracepoint"))
				FAIL("--off-cpu=VIA takes tp_btf, raw_tp or tracepoint, not '%s'",
				     optarg);
			o->off_cpu = true;
			o->off_cpu_via = optarg;
			break;
		case OPT_TOP:
			if (optarg && strcmp(optarg, "tp_btf") && strcmp(optarg, "raw_tp") &&
			    strcmp(optarg, "proc"))
				FAIL("--top=VIA takes tp_btf, raw_tp or proc, not '%s'", optarg);
			o->top = true;
			o->top_via = optarg;
			break;
		case OPT_INTERVAL:
			errno = 0;
			o->top_interval = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(o->top_interval >= 0.1) ||
			    o->top_interval > 3600)
				FAIL("--interval takes seconds from 0.1 to 3600, such as 1 or 0.5, "
				     "not '%s'", optarg);
			break;
		case OPT_JSON:
			o->json = true;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'C':
			o->no_color = true;
			break;
		case 'U':
			o->ascii = true;
			break;
		case 'v':
			o->verbose++;
			break;
		case OPT_LOG:
			o->log_path = optarg;
			if (!o->verbose)
				o->verbose = 1;
			break;
		case 'o':
			if (!*optarg)
				FAIL("-o needs a file name to record to, such as trace.dat");
			o->record_path = optarg;
			break;
		case 'i':
			if (!*optarg)
				FAIL("-i needs a trace.dat file to open");
			o->input_path = optarg;
			break;
		case OPT_FLAME:
			if (!*optarg)
				FAIL("--flame needs a folded-stacks file to show");
			o->flame_path = optarg;
			break;
		case OPT_DIFF_BASE:
			if (!*optarg)
				FAIL("--diff-base needs a folded-stacks file to compare with");
			o->diff_base = optarg;
			break;
		case 'h':
			options_usage(stdout);
			return 1;
		case 'V':
			printf("ktop %s\n", PACKAGE_VERSION);
#ifdef KTOP_TEST_HOOKS
			printf("built with --enable-test-hooks: the test suite's variables are read\n");
#endif
			return 1;
		case ':':
			FAIL("option '%s' needs a value", argv[optind - 1]);
		default:
			FAIL("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc && !strcmp(argv[optind - 1], "--profile"))
		FAIL("unexpected argument '%s' (--profile is the CPU profile and takes no value; "
		     "-P NAME, or --preset NAME, starts with a profile of events)", argv[optind]);
	if (optind < argc)
		FAIL("unexpected argument '%s'", argv[optind]);
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
	if (o->record_path && o->mode != KT_MODE_BATCH)
		FAIL("-o records in batch mode (-b); in the explorer, w writes the capture");
	if (o->force && !o->record_path && o->mode != KT_MODE_INTERACTIVE)
		FAIL("--force lets -o (or the explorer's w and A) replace a file: give -o FILE");
	if (o->input_path && (o->record_path || o->n_events || o->filter || o->pmu ||
			      o->buffer_kb || o->profile || o->n_probes || o->tracer ||
			      o->n_ftrace_lists[0] || o->n_ftrace_lists[1] || o->n_ftrace_lists[2] ||
			      o->n_ftrace_lists[3] || o->n_hists || o->comm || o->n_triggers ||
			      o->stop_when || o->n_stacks || o->user_stacks))
		FAIL("-i opens a recording: -o, -e, --filter, --buffer-kb, -P, tracers, probes, "
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
		       o->pmu || o->tree || o->record_path || o->input_path || o->n_triggers ||
		       o->stop_when || o->filter || o->max_events || o->off_cpu || o->cpu_profile ||
		       o->flame_path))
		FAIL("--top runs alone: events, tracers, probes, histograms, counters, profiles, "
		     "-i and -o belong to other runs");
	if (o->top && o->n_remotes > 1)
		FAIL("--top shows one host's tasks: give one -H or --via");
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
	return 0;
fail:
	options_free(o);
	return -1;
}

void options_free(struct kt_options *o)
{
	free(o->events);
	o->events = NULL;
	o->n_events = 0;
	free(o->pmu_events);
	o->pmu_events = NULL;
	o->n_pmu_events = 0;
	free(o->hists);
	o->hists = NULL;
	o->n_hists = 0;
	free(o->triggers);
	o->triggers = NULL;
	o->n_triggers = 0;
	free(o->stacks);
	o->stacks = NULL;
	o->n_stacks = 0;
	free(o->pids);
	o->pids = NULL;
	o->n_pids = 0;
	free(o->profile_events);
	o->profile_events = NULL;
	free(o->probes);
	o->probes = NULL;
	o->n_probes = 0;
	for (size_t i = 0; i < 4; i++) {
		free(o->ftrace_lists[i]);
		o->ftrace_lists[i] = NULL;
		o->n_ftrace_lists[i] = 0;
	}
	o->n_profile_events = 0;
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
