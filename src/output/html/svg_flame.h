/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A flame graph for the HTML report: a tree of frames built from folded
 * stacks (root first, frames separated by ';'), drawn as one inline SVG
 * that zooms.  Like the other pieces of svg.h it takes names and numbers
 * and knows nothing of result files, roles or runs.
 *
 * The picture is an icicle: the root is the top bar, each frame's
 * callees sit under it, and a frame is as wide as the value of the
 * stacks through it.  Each frame is a <g class="fr"> holding a <title>
 * (the full name on its first line, then the value and its share of
 * the root), a <rect> and a <text>, the name cut to what fits.  The
 * group carries data-x and data-w, its place and width in units of the
 * root (0..1), so that the page's one script (flame_script) only
 * rescales: clicking a frame makes it fill the width, its ancestors full
 * width above it, its descendants rescaled under it, everything else
 * hidden; clicking the root resets.  Without script the page shows the
 * unzoomed graph, which is the static SVG.
 */
#ifndef CHATBENCH_REPORT_SVG_FLAME_H
#define CHATBENCH_REPORT_SVG_FLAME_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define FLAME_NONE		((size_t)-1)
#define FLAME_MAX_FRAMES	3000	/* drawn per graph, at most */
#define FLAME_MIN_SHARE		0.001	/* of the root: narrower merged */

struct flame_node {
	char *name;
	uint64_t value;		/* of every stack through this frame */
	uint64_t self;		/* of the stacks that end here */
	size_t parent;		/* FLAME_NONE for the root */
	size_t child;		/* first callee, FLAME_NONE when none */
	size_t next;		/* next callee of the same caller */
	size_t last;		/* last callee, to append in order */
	unsigned int depth;	/* 0 for the root */
};

/*
 * The tree; n[0] is the root.  A node's index is always larger than its
 * caller's, so that one pass in index order visits callers first.
 */
struct flame {
	struct flame_node *n;
	size_t len;
	size_t cap;
};

/* 0, or -1 out of memory (fl is then empty, flame_free still safe). */
int flame_init(struct flame *fl, const char *root);
void flame_free(struct flame *fl);

/* The callee of at named name[0..len), made when missing; FLAME_NONE: OOM. */
size_t flame_child(struct flame *fl, size_t at, const char *name,
		   size_t len);

/*
 * Adds v to at, its callers and the frames of stack under at (';'
 * between frames, empty frames skipped), the last of which, or at for an
 * empty stack, gets v as its self value.  0, or -1 out of memory.
 */
int flame_add(struct flame *fl, size_t at, const char *stack, uint64_t v);

/* A value as the titles show it ("12 samples", "3.4 ms"); returns b. */
typedef const char *flame_value_fn(char *b, size_t n, double v);

struct flame_opts {
	flame_value_fn *value;
	const char *root_colour;	/* "#rrggbb"; NULL: from its name */
	size_t max_frames;		/* 0: FLAME_MAX_FRAMES */
	double min_share;		/* 0: FLAME_MIN_SHARE */
};

/*
 * Draws fl as <svg class="flame"> with data-frames (the frames drawn)
 * and data-total (the root's value).  A frame narrower than min_share of
 * the root is not drawn on its own: a caller's narrow callees are summed
 * into one grey frame "[N small frames]" (class "fr small"), left out
 * too when even the sum is that narrow.  When more than max_frames would
 * still be drawn, the bar is raised until they fit.  Returns the number
 * of frames drawn; 0, and nothing written, when the root's value is 0 or
 * memory ran out.
 */
size_t flame_draw(FILE *f, const struct flame *fl,
		  const struct flame_opts *o);

/* The frame's colour: a warm hue from a hash of its name, never random. */
const char *flame_colour(char *b, size_t n, const char *name);

/* The page's CSS for the graphs, and the script of the zoom: once each. */
void flame_css(FILE *f);
void flame_script(FILE *f);

#endif
