// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The incidents written, a ring (incident_rows.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "incident_rows.h"
#include "util/xalloc.h"

struct kt_incident_rows {
	struct kt_fr_row *rows; /* KT_FR_ROWS, allocated at the first */
	size_t n, first;	/* how many, the oldest's index */
};

struct kt_incident_rows *incident_rows_new(void)
{
	return xcalloc(1, sizeof(struct kt_incident_rows));
}

struct kt_fr_row *incident_rows_add(struct kt_incident_rows *rows)
{
	struct kt_fr_row *r;

	if (!rows->rows)
		rows->rows = xcalloc(KT_FR_ROWS, sizeof(*rows->rows));
	if (rows->n == KT_FR_ROWS)
		rows->first = (rows->first + 1) % KT_FR_ROWS;
	else
		rows->n++;
	r = &rows->rows[(rows->first + rows->n - 1) % KT_FR_ROWS];
	memset(r, 0, sizeof(*r));
	return r;
}

size_t incident_rows_count(const struct kt_incident_rows *rows)
{
	return rows ? rows->n : 0;
}

const struct kt_fr_row *incident_rows_get(const struct kt_incident_rows *rows, size_t i)
{
	return &rows->rows[(rows->first + i) % KT_FR_ROWS];
}

void incident_rows_free(struct kt_incident_rows *rows)
{
	if (!rows)
		return;
	free(rows->rows);
	free(rows);
}
