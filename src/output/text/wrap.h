/* SPDX-License-Identifier: GPL-2.0 */
/* Sentences as text for terminals: wrapped at spaces. */
#ifndef CHATBENCH_WRAP_H
#define CHATBENCH_WRAP_H

#include <stdio.h>

/*
 * head, then text broken at spaces before column width, continued on
 * lines indented by indent, never between a number and its "%" and with
 * no space at a line's end; ends with a newline.
 */
void text_wrap(FILE *f, const char *head, const char *text, int width,
	       int indent);

#endif
