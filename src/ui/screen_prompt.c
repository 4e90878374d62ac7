// SPDX-License-Identifier: GPL-2.0-or-later
/* The status line's prompt as a service to the panes (view.h) and the screen's own prompts
 * (screen.h): opening it for an owner, completion, and its keys, whose events go to the
 * owner's prompt op. */
#include "config.h"

#include <stdio.h>

#include "app/app.h"
#include "ui/complete.h"
#include "ui/screen.h"
#include "ui/ui_arm.h"
#include "ui/view.h"

void ui_prompt_open(struct kt_ui *ui, struct kt_view *owner, int id, const char *label,
		    const char *initial)
{
	prompt_open(&ui->prompt, label, initial);
	ui->prompt_owner = owner;
	ui->prompt_id = id;
	ui->msg[0] = '\0';
	ui->status_dirty = true;
	ui->fbar_dirty = true;
}

size_t ui_prompt_complete(struct kt_ui *ui, const char *const *cands, size_t n,
			  const char *extra, char *list, size_t listlen)
{
	struct kt_prompt *p = &ui->prompt;
	size_t before = p->len, m;
	char text[KT_PROMPT_MAX];

	m = complete_word(p->buf, sizeof(p->buf), &p->len, &p->cur, extra, cands, n, list,
			  listlen);
	ui->status_dirty = true;
	if (p->len != before && ui->prompt_owner && ui->prompt_owner->ops->prompt) {
		snprintf(text, sizeof(text), "%s", p->buf);
		ui->prompt_owner->ops->prompt(ui->prompt_owner, ui->prompt_id, text,
					      KT_PROMPT_CHANGED);
	}
	return m;
}

void ui_prompt_drop(struct kt_ui *ui, struct kt_view *owner)
{
	if (!ui->prompt.active || ui->prompt_owner != owner)
		return;
	prompt_close(&ui->prompt);
	ui->prompt_owner = NULL;
	ui->status_dirty = ui->fbar_dirty = true;
}

size_t ui_prompt_cursor(const struct kt_ui *ui)
{
	return ui->prompt.cur;
}

void screen_prompt_key(struct kt_ui *ui, int key)
{
	struct kt_view *owner = ui->prompt_owner;
	enum kt_prompt_result r = prompt_key(&ui->prompt, key);
	char text[KT_PROMPT_MAX];

	if (key == KEY_F(10)) {
		ui->quit = true;
		return;
	}
	ui->status_dirty = true;
	snprintf(text, sizeof(text), "%s", ui->prompt.buf);
	switch (r) {
	case KT_PR_CHANGED:
		if (owner && owner->ops->prompt)
			owner->ops->prompt(owner, ui->prompt_id, text, KT_PROMPT_CHANGED);
		break;
	case KT_PR_COMPLETE:
		if (owner && owner->ops->prompt)
			owner->ops->prompt(owner, ui->prompt_id, text, KT_PROMPT_COMPLETE);
		break;
	case KT_PR_ACCEPT:
	case KT_PR_CANCEL:
		/* Closed first: the owner may open the next prompt or leave a message. */
		prompt_close(&ui->prompt);
		ui->prompt_owner = NULL;
		ui->fbar_dirty = true;
		if (!owner && ui->prompt_id == UI_PROMPT_PROFILE && r == KT_PR_ACCEPT) {
			struct kt_ui_settings now;
			bool error;

			screen_settings_now(ui, &now);
			settings_save_profile(ui->app, text, &now, ui->msg, sizeof(ui->msg),
					      &error);
			ui->msg_error = error;
		}
		if (!owner && ui->prompt_id == UI_PROMPT_RANGE && r == KT_PR_ACCEPT)
			screen_range_prompt(ui, text);
		else if (!owner && ui->prompt_id == UI_PROMPT_ARM && r == KT_PR_ACCEPT)
			ui_arm_prompt(ui, text);
		else if (!owner && ui->prompt_id != UI_PROMPT_PROFILE && r == KT_PR_ACCEPT)
			ui_record_prompt(ui, ui->app, &ui->rec, ui->prompt_id, text);
		if (owner && owner->ops->prompt)
			owner->ops->prompt(owner, ui->prompt_id, text,
					   r == KT_PR_ACCEPT ? KT_PROMPT_ACCEPT : KT_PROMPT_CANCEL);
		break;
	default:
		break;
	}
}
