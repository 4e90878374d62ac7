/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SRC_UI_PROMPT_H
#define SRC_UI_PROMPT_H
#endif
