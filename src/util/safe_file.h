/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output files written safely in folders others can write to.  chatbench
 * runs as root and its outputs often go to shared folders, where a fixed
 * name such as PATH.tmp can be a symlink planted by someone else; opening
 * it would write through the link.  So a file is written to a temporary
 * that mkstemp creates (O_EXCL: never an existing name, never a link)
 * beside its target, in the same folder so that the rename onto the
 * target is atomic: a reader or a crash sees the old file or the new one,
 * never half of one, and nothing outside the target's name is touched.
 */
#ifndef CHATBENCH_SAFE_FILE_H
#define CHATBENCH_SAFE_FILE_H

#include <stdio.h>

struct safe_file {
	FILE *f;    /* write here */
	char *path; /* the target */
	char *tmp;  /* the temporary: DIR/.NAME.XXXXXX */
};

/*
 * A new temporary beside path, readable as a plain fopen(path, "w")
 * would have made it (0666 & ~umask): its stream, also in sf->f; NULL
 * with errno set (nothing created).
 */
FILE *safe_file_open(struct safe_file *sf, const char *path);
/*
 * The temporary flushed and renamed onto the target: 0, or -1 with errno
 * set, the temporary removed and the target as it was.  keep NULL: the
 * stream is closed first.  Otherwise it stays open, on the file now at
 * the target's name, and *keep gets it (the caller closes it): for a
 * writer that goes on appending.
 */
int safe_file_commit(struct safe_file *sf, FILE **keep);
/* Gives up: the temporary closed and removed, the target untouched. */
void safe_file_abort(struct safe_file *sf);
/*
 * A new, empty file at path, replacing what had that name (a link is
 * replaced, not followed): its stream, NULL with errno set.
 */
FILE *safe_file_fresh(const char *path);
/*
 * Whether path could be written as above, without creating or following
 * anything: NULL if so, else why not (its folder missing or read-only,
 * or something not a regular file, a link included, at its name).
 */
const char *safe_file_check(const char *path);

#endif
