// SPDX-License-Identifier: GPL-2.0
/*
 * Output files through a temporary beside their target, renamed onto it
 * when whole (safe_file.h says why).  Every writer of a file a user names
 * goes through here, so that the rule lives in one place: no fixed
 * temporary name, nothing opened through a link, no temporary left on an
 * error path.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/safe_file.h"

/*
 * The process' umask, without changing it: umask(2) can only read it by
 * setting it, and chat_c's other threads may create files meanwhile.
 * /proc/self/status says it since Linux 4.7.
 */
static mode_t current_umask(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	unsigned int m;
	char line[128];
	mode_t old;

	if (f) {
		while (fgets(line, sizeof(line), f)) {
			if (sscanf(line, "Umask: %o", &m) == 1) {
				fclose(f);
				return (mode_t)m & 0777;
			}
		}
		fclose(f);
	}
	old = umask(022);
	umask(old);
	return old;
}

/* DIR/.NAME.XXXXXX for DIR/NAME: hidden, and on the target's filesystem. */
static char *temp_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	char *tmp;

	if (!*base) {
		errno = EISDIR;
		return NULL;
	}
	/* A name is at most 255 bytes: a long one is cut to make room. */
	if (asprintf(&tmp, "%.*s.%.200s.XXXXXX", (int)(base - path), path,
		     base) < 0) {
		errno = ENOMEM;
		return NULL;
	}
	return tmp;
}

/* Forgets the temporary, whatever became of it; errno is kept. */
static void release(struct safe_file *sf)
{
	int e = errno;

	free(sf->path);
	free(sf->tmp);
	memset(sf, 0, sizeof(*sf));
	errno = e;
}

FILE *safe_file_open(struct safe_file *sf, const char *path)
{
	int fd = -1, e;

	memset(sf, 0, sizeof(*sf));
	sf->path = strdup(path);
	if (!sf->path)
		goto fail;
	sf->tmp = temp_name(path);
	if (!sf->tmp)
		goto fail;
	/* Not inherited by the servers and clients chat_c starts. */
	fd = mkostemp(sf->tmp, O_CLOEXEC);
	if (fd < 0)
		goto fail;
	/* mkstemp's 0600 would hide results their readers used to see. */
	if (fchmod(fd, 0666 & ~current_umask()))
		goto fail;
	sf->f = fdopen(fd, "w");
	if (!sf->f)
		goto fail;
	return sf->f;
fail:
	e = errno;
	if (fd >= 0) {
		close(fd);
		unlink(sf->tmp);
	}
	errno = e;
	release(sf);
	return NULL;
}

int safe_file_commit(struct safe_file *sf, FILE **keep)
{
	int rc;

	if (fflush(sf->f))
		goto fail;
	/* A write that failed before the last flush, its errno since lost. */
	if (ferror(sf->f)) {
		errno = EIO;
		goto fail;
	}
	if (!keep) {
		rc = fclose(sf->f);
		sf->f = NULL;
		if (rc)
			goto fail;
	}
	if (rename(sf->tmp, sf->path))
		goto fail;
	if (keep)
		*keep = sf->f;
	release(sf);
	return 0;
fail:
	safe_file_abort(sf);
	return -1;
}

void safe_file_abort(struct safe_file *sf)
{
	int e = errno;

	if (sf->f)
		fclose(sf->f);
	if (sf->tmp)
		unlink(sf->tmp);
	errno = e;
	release(sf);
}

FILE *safe_file_fresh(const char *path)
{
	struct safe_file sf;
	FILE *f = NULL;

	if (!safe_file_open(&sf, path) || safe_file_commit(&sf, &f))
		return NULL;
	return f;
}

const char *safe_file_check(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	struct stat st;
	char *dir;
	int rc;

	if (!*base)
		return strerror(EISDIR);
	/* The temporary is created in the folder: it must take new names. */
	dir = slash ? strndup(path, (size_t)(base - path)) : strdup(".");
	if (!dir)
		return strerror(ENOMEM);
	rc = access(dir, W_OK | X_OK);
	free(dir);
	if (rc)
		return strerror(errno);
	if (lstat(path, &st))
		return errno == ENOENT ? NULL : strerror(errno);
	if (S_ISREG(st.st_mode))
		return NULL;
	if (S_ISDIR(st.st_mode))
		return strerror(EISDIR);
	if (S_ISLNK(st.st_mode))
		return "Is a symbolic link, not a regular file";
	return "Not a regular file";
}
