/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tab completion of the word under the cursor of a one-line editor, from a list of names:
 * field names in the filter prompt, kernel functions and ELF symbols in the probe editor and
 * the function-filter picker. No curses. */
#ifndef KTOP_UI_COMPLETE_H
#define KTOP_UI_COMPLETE_H

#include <stddef.h>

/* The word that ends at cur in buf: letters, digits, '_' and the characters in extra. Its
 * start into *start. */
size_t complete_word_start(const char *buf, size_t cur, const char *extra);

/* Completes the word ending at *cur in buf (len bytes used, size bytes available) from the n
 * names in cands (sorted or not). One match: the word becomes it. Several: the word grows
 * to their longest common prefix, and up to listlen bytes of "name name ..." (the first
 * matches) go into list when list is not NULL. *len and *cur follow the edit. Returns how
 * many names match. */
size_t complete_word(char *buf, size_t size, size_t *len, size_t *cur, const char *extra,
		     const char *const *cands, size_t n, char *list, size_t listlen);

#endif
