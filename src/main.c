// SPDX-License-Identifier: GPL-2.0-or-later
/* ktop: options, start-up and teardown order, nothing else. */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "app/app.h"
#include "backend/tracefs/doctor.h"
#include "backend/tracefs/guard.h"
#include "backend/tracefs/usdt.h"
#include "batch/batch.h"
#include "batch/batch_offcpu.h"
#include "batch/batch_top.h"
#include "batch/batch_remote.h"
#include "ui/ktoprc.h"
#include "util/log.h"
#include "app/options.h"
#include "agent/agent.h"
#include "remote/push.h"
#include "app/signals.h"
#include "util/textout.h"
#include "ui/ui.h"

int main(int argc, char **argv)
{
	struct kt_options opts;
	struct kt_app app;
	struct kt_config rc, prof;
	char err[512];
	FILE *out = NULL; /* batch text and --list-usdt: through textout */
	int ret, sig;

	setlocale(LC_ALL, "");
	ret = options_parse(argc, argv, &opts, err, sizeof(err));
	if (ret > 0)
		return KT_EXIT_OK;
	if (ret < 0) {
		fprintf(stderr, "ktop: %s (see ktop --help)\n", err);
		return KT_EXIT_USAGE;
	}
	push_set_mode(opts.push);
	/* --theme list, -P, ktoprc */
	ret = ktoprc_startup(&opts, &rc, &prof, err, sizeof(err));
	if (ret) {
		if (ret < 0)
			fprintf(stderr, "ktop: %s\n", err);
		ret = ret < 0 ? KT_EXIT_USAGE : KT_EXIT_OK;
		goto out;
	}
	if (opts.verbose && log_open(opts.verbose, opts.log_path) < 0)
		perror("ktop: cannot open the log file");
	if ((opts.mode == KT_MODE_BATCH && !opts.json) || opts.mode == KT_MODE_LIST_USDT)
		out = textout_open(stdout);
	if (!out)
		out = stdout;

	if (opts.mode == KT_MODE_DOCTOR) {
		ret = doctor_run(stdout, opts.json);
		goto out;
	}
	if (opts.mode == KT_MODE_LIST) {
		ret = app_list_events(stdout, opts.list_spec, err, sizeof(err));
		if (ret)
			fprintf(stderr, "ktop: %s\n", err);
		goto out;
	}

	if (opts.mode == KT_MODE_LIST_USDT) {
		ret = usdt_print(out, opts.list_spec, err, sizeof(err));
		if (ret)
			fprintf(stderr, "ktop: %s\n", err);
		goto out;
	}

	/* the remote protocol on stdin/stdout; it opens the kernel state after the hello */
	if (opts.agent) {
		ret = agent_run(&opts);
		goto out;
	}

	if (opts.mode == KT_MODE_BATCH && opts.top) {
		ret = batch_top_run(&opts, stdout);
		goto out;
	}
	/* the capture is the agent's, at the other end of the pipe */
	if (opts.n_remotes && opts.mode == KT_MODE_BATCH) {
		ret = batch_remote_run(&opts, out);
		goto out;
	}

	/* BPF alone: no tracefs, so no guard either */
	if (opts.mode == KT_MODE_BATCH && opts.off_cpu) {
		ret = batch_offcpu_run(&opts, out);
		goto out;
	}

	if (opts.n_remotes) {
		ret = app_open_remote(&app, &opts, err, sizeof(err));
	} else if (opts.flame_path) {
		ret = app_open_flame(&app, &opts, err, sizeof(err));
	} else if (opts.input_path) {
		ret = app_open_recording(&app, &opts, err, sizeof(err));
	} else {
		/* Before any thread exists: the guard cleans up after kill -9. */
		guard_start();
		ret = app_open(&app, &opts, err, sizeof(err));
	}
	if (ret) {
		fprintf(stderr, "ktop: %s\n", err);
		app_close(&app);
		goto out;
	}
	signals_install(app.wake_wr);
	/* the explorer shows it in its status line */
	if (app.start_warning[0] && opts.mode == KT_MODE_BATCH)
		fprintf(stderr, "ktop: %s\n", app.start_warning);

	/* -i FILE -o PART or --chrome-trace: written, then ktop exits (-b prints rows too) */
	if (opts.mode == KT_MODE_BATCH ||
	    (opts.input_path && (opts.record_path || opts.chrome_path)))
		ret = batch_run(&app, out);
	else
		ret = ui_run(&app);

	app_close(&app);
	sig = signals_pending();
	if (sig && ret == KT_EXIT_OK && opts.mode == KT_MODE_INTERACTIVE)
		ret = KT_EXIT_SIGNAL + sig;
out:
	if (out && out != stdout)
		fclose(out);
	options_free(&opts);
	config_free(&rc);
	config_free(&prof);
	log_close();
	return ret;
}
