// SPDX-License-Identifier: GPL-2.0-or-later
/* The status-line editor (see prompt.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "ui/prompt.h"

#define CTRL(c) ((c) & 0x1f)

void prompt_open(struct kt_prompt *p, const char *label, const char *initial)
{
	memset(p, 0, sizeof(*p));
	p->active = true;
	snprintf(p->label, sizeof(p->label), "%s", label ? label : "");
	snprintf(p->buf, sizeof(p->buf), "%s", initial ? initial : "");
	p->len = strlen(p->buf);
	p->cur = p->len;
}

void prompt_close(struct kt_prompt *p)
{
	p->active = false;
}

static void delete_range(struct kt_prompt *p, size_t from, size_t to)
{
	memmove(p->buf + from, p->buf + to, p->len - to + 1);
	p->len -= to - from;
	p->cur = from;
}

enum kt_prompt_result prompt_key(struct kt_prompt *p, int key)
{
	size_t i;

	switch (key) {
	case '\n':
	case '\r':
	case KEY_ENTER:
		return KT_PR_ACCEPT;
	case 27: /* Esc */
	case CTRL('c'):
	case CTRL('g'):
		return KT_PR_CANCEL;
	case '\t':
		return KT_PR_COMPLETE;
	case KEY_BACKSPACE:
	case 127:
	case CTRL('h'):
		if (!p->cur)
			return KT_PR_NONE;
		delete_range(p, p->cur - 1, p->cur);
		return KT_PR_CHANGED;
	case KEY_DC:
	case CTRL('d'):
		if (p->cur >= p->len)
			return KT_PR_NONE;
		delete_range(p, p->cur, p->cur + 1);
		return KT_PR_CHANGED;
	case KEY_LEFT:
	case CTRL('b'):
		if (p->cur)
			p->cur--;
		return KT_PR_MOVED;
	case KEY_RIGHT:
	case CTRL('f'):
		if (p->cur < p->len)
			p->cur++;
		return KT_PR_MOVED;
	case KEY_HOME:
	case CTRL('a'):
		p->cur = 0;
		return KT_PR_MOVED;
	case KEY_END:
	case CTRL('e'):
		p->cur = p->len;
		return KT_PR_MOVED;
	case CTRL('u'):
		if (!p->cur)
			return KT_PR_NONE;
		delete_range(p, 0, p->cur);
		return KT_PR_CHANGED;
	case CTRL('w'):
		i = p->cur;
		while (i && p->buf[i - 1] == ' ')
			i--;
		while (i && p->buf[i - 1] != ' ')
			i--;
		if (i == p->cur)
			return KT_PR_NONE;
		delete_range(p, i, p->cur);
		return KT_PR_CHANGED;
	default:
		break;
	}
	if (key < 0x20 || key > 0x7e || p->len + 1 >= sizeof(p->buf))
		return KT_PR_NONE;
	memmove(p->buf + p->cur + 1, p->buf + p->cur, p->len - p->cur + 1);
	p->buf[p->cur++] = (char)key;
	p->len++;
	return KT_PR_CHANGED;
}

void prompt_draw(struct kt_prompt *p, WINDOW *win, int w)
{
	int lw, room;

	wattrset(win, crt_attr(CRT_PROMPT));
	crt_fill(win, 0, 0, w);
	lw = crt_put(win, 0, 0, p->label, w - 1);
	wattrset(win, crt_attr(CRT_STATUS));
	room = w - lw - 1;
	if (room < 1) {
		wmove(win, 0, w > 0 ? w - 1 : 0);
		return;
	}
	/* Keep the cursor in view: scroll the text horizontally. */
	if (p->cur < p->scroll)
		p->scroll = p->cur;
	if (p->cur - p->scroll > (size_t)room)
		p->scroll = p->cur - (size_t)room;
	crt_put(win, 0, lw, p->buf + p->scroll, room);
	wmove(win, 0, lw + (int)(p->cur - p->scroll));
	wattrset(win, A_NORMAL);
}
