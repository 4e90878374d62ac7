// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#include "clock.h"
#include "log.h"

static FILE *log_file;
static int log_verbosity;
static pthread_mutex_t log_mutex = PTHREAD_MUTEX_INITIALIZER;

int log_open(int level, const char *path)
{
	char name[64];

	log_verbosity = level;
	if (level <= 0)
		return 0;
	if (!path) {
		snprintf(name, sizeof(name), "ktop-%d.log", (int)getpid());
		path = name;
	}
	log_file = fopen(path, "a");
	if (!log_file) {
		log_verbosity = 0;
		return -1;
	}
	setvbuf(log_file, NULL, _IOLBF, 0);
	return 0;
}

void log_close(void)
{
	if (log_file)
		fclose(log_file);
	log_file = NULL;
	log_verbosity = 0;
}

int log_level(void)
{
	return log_verbosity;
}

void log_vdebug(const char *fmt, va_list ap)
{
	unsigned long long ns;

	if (!log_file)
		return;
	ns = clock_mono_ns();
	pthread_mutex_lock(&log_mutex);
	fprintf(log_file, "%llu.%06llu ", ns / 1000000000ULL, ns % 1000000000ULL / 1000);
	vfprintf(log_file, fmt, ap);
	fputc('\n', log_file);
	pthread_mutex_unlock(&log_mutex);
}

void log_debug(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vdebug(fmt, ap);
	va_end(ap);
}
