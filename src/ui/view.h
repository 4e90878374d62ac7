/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SRC_UI_VIEW_H
#define SRC_UI_VIEW_H
#endif
