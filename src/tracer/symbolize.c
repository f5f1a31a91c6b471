// SPDX-License-Identifier: GPL-2.0
/*
 * Names of stack addresses.  The kernel's come from one read of
 * /proc/kallsyms: the text symbols sorted by address, an address named
 * after the last symbol at or below it (kallsyms gives no sizes).  A
 * process's come from libdwfl: one Dwfl per process, its modules the file
 * mappings of /proc/PID/maps, each file's symbol table read when an
 * address first falls in it.  Every answer is cached by (tgid, address),
 * so a profile's few thousand distinct addresses cost a few thousand
 * lookups whatever its sample count.
 *
 * The names live in an arena owned by the symbolizer: libdwfl's strings
 * die with their Dwfl, which may be ended early (see SYM_MAX_LIVE), and a
 * name must be rewritten for the folded format anyway.
 */
#include <elfutils/libdwfl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracer/symbolize.h"

/*
 * Dwfls kept open at once.  Each holds a descriptor and a mapping per
 * file it has read, so a system-wide profile of hundreds of processes
 * would otherwise run out of descriptors; the least recently used is
 * ended and read again if its process shows up later.
 */
#define SYM_MAX_LIVE	64
#define ARENA_CHUNK	(64 * 1024)
#define CACHE_MIN	1024

struct ksym {
	uint64_t addr;
	uint32_t name;		/* offset in kpool */
	uint32_t order;		/* line in kallsyms, to sort stably */
	uint8_t rank;		/* which of a shared address's names wins */
};

struct sym_proc {
	pid_t tgid;
	bool dead;		/* its maps could not be read: all unknown */
	bool refreshed;		/* maps re-read once since the Dwfl began */
	Dwfl *dwfl;		/* NULL: not open (yet, or evicted) */
	uint64_t last_use;
};

struct cache_ent {
	uint64_t addr;
	pid_t tgid;
	const char *name;	/* NULL: free slot */
};

struct chunk {
	struct chunk *next;
	size_t used, size;
	char data[];
};

struct symbolizer {
	bool kloaded;
	struct ksym *ksyms;
	size_t nksyms;
	char *kpool;

	struct sym_proc **procs;
	size_t nprocs, procs_cap;
	unsigned int nlive;
	uint64_t tick;

	struct cache_ent *cache;
	size_t cache_cap, cache_n;

	struct chunk *arena;
};

static const char unknown_name[] = "[unknown]";
static const char kernel_name[] = "[kernel]";

/*
 * No find_debuginfo that may reach debuginfod: dwfl_standard_find_debuginfo
 * asks it when DEBUGINFOD_URLS is set (Debian's profile.d sets it), and a
 * profile would then wait on downloads of whole debug files.  The build-id
 * lookup reads /usr/lib/debug/.build-id only; without it the symbol tables
 * of the files themselves (.symtab, else .dynsym) name the frames.
 */
static const Dwfl_Callbacks proc_callbacks = {
	.find_elf = dwfl_linux_proc_find_elf,
	.find_debuginfo = dwfl_build_id_find_debuginfo,
};

void sym_sanitize(char *name)
{
	unsigned char *p;

	for (p = (unsigned char *)name; *p; p++)
		if (*p <= ' ' || *p == 0x7f || *p == ';')
			*p = '_';
}

static char *arena_alloc(struct symbolizer *s, size_t n)
{
	struct chunk *c = s->arena;
	size_t size;

	if (!c || c->size - c->used < n) {
		size = n > ARENA_CHUNK ? n : ARENA_CHUNK;
		c = malloc(sizeof(*c) + size);
		if (!c)
			return NULL;
		c->size = size;
		c->used = 0;
		c->next = s->arena;
		s->arena = c;
	}
	c->used += n;
	return c->data + c->used - n;
}

/* A sanitised copy of pre, str and post, owned by s; NULL on no memory. */
static const char *arena_name(struct symbolizer *s, const char *pre,
			      const char *str, const char *post)
{
	size_t a = strlen(pre), b = strlen(str), c = strlen(post);
	char *p = arena_alloc(s, a + b + c + 1);

	if (!p)
		return NULL;
	memcpy(p, pre, a);
	memcpy(p + a, str, b);
	memcpy(p + a + b, post, c + 1);
	sym_sanitize(p);
	return p;
}

/* ---- kernel ---- */

/*
 * Several names often share an address (aliases, section starts): the
 * global one first, then the weak, the local, and among equals the one
 * with the fewest leading underscores, as perf picks.
 */
static uint8_t ksym_rank(char type, const char *name)
{
	uint8_t r;

	switch (type) {
	case 'T':
		r = 0;
		break;
	case 'W':
		r = 1;
		break;
	case 't':
		r = 2;
		break;
	default:
		r = 3;
		break;
	}
	r <<= 4;
	while (*name == '_' && (r & 0xf) < 0xf) {
		r++;
		name++;
	}
	return r;
}

static int ksym_cmp(const void *pa, const void *pb)
{
	const struct ksym *a = pa, *b = pb;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

/*
 * One line: "ffffffff81000000 T _stext" or, for a module,
 * "ffffffffc0203000 t name\t[module]".  The name ends at the first blank.
 */
static bool ksym_parse(char *line, uint64_t *addr, char *type, char **name)
{
	char *p, *end;

	*addr = strtoull(line, &p, 16);
	if (p == line || *p != ' ' || !p[1] || p[2] != ' ')
		return false;
	*type = p[1];
	p += 3;
	end = p + strcspn(p, " \t\n");
	if (end == p)
		return false;
	*end = '\0';
	*name = p;
	return true;
}

static void kallsyms_load(struct symbolizer *s)
{
	size_t cap = 0, pool_len = 0, pool_cap = 0, linesz = 0, i, n;
	struct ksym *syms = NULL, *ns;
	char *pool = NULL, *np, *line = NULL, *name;
	uint32_t order = 0;
	uint64_t addr;
	size_t len;
	char type;
	FILE *f;

	s->kloaded = true;
	f = fopen("/proc/kallsyms", "re");
	if (!f)
		return;
	while (getline(&line, &linesz, f) > 0) {
		order++;
		if (!ksym_parse(line, &addr, &type, &name))
			continue;
		/* kptr_restrict shows every address as 0: nothing to sort */
		if (!addr || !strchr("tTwW", type))
			continue;
		if (s->nksyms == cap) {
			cap = cap ? cap * 2 : 65536;
			ns = realloc(syms, cap * sizeof(*syms));
			if (!ns)
				goto fail;
			syms = ns;
		}
		len = strlen(name) + 1;
		if (pool_cap - pool_len < len) {
			pool_cap = pool_cap ? pool_cap * 2 : 1 << 20;
			if (pool_cap > UINT32_MAX)
				goto fail;
			np = realloc(pool, pool_cap);
			if (!np)
				goto fail;
			pool = np;
		}
		sym_sanitize(name);
		memcpy(pool + pool_len, name, len);
		syms[s->nksyms++] = (struct ksym){
			.addr = addr,
			.name = (uint32_t)pool_len,
			.order = order,
			.rank = ksym_rank(type, name),
		};
		pool_len += len;
	}
	if (!s->nksyms)
		goto fail;

	qsort(syms, s->nksyms, sizeof(*syms), ksym_cmp);
	/* keep the best name of each address; the search needs them unique */
	for (i = 1, n = 1; i < s->nksyms; i++)
		if (syms[i].addr != syms[n - 1].addr)
			syms[n++] = syms[i];
	s->nksyms = n;
	s->ksyms = syms;
	s->kpool = pool;
	free(line);
	fclose(f);
	return;

fail:
	s->nksyms = 0;
	free(syms);
	free(pool);
	free(line);
	fclose(f);
}

const char *sym_kernel(struct symbolizer *s, uint64_t addr)
{
	size_t lo = 0, hi, mid;

	if (!s->kloaded)
		kallsyms_load(s);
	if (!s->nksyms || addr < s->ksyms[0].addr)
		return kernel_name;
	/* the last symbol at or below addr: ksyms[lo] <= addr < ksyms[hi] */
	hi = s->nksyms;
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (s->ksyms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	return s->kpool + s->ksyms[lo].name;
}

/* ---- user ---- */

static size_t cache_slot(const struct symbolizer *s, pid_t tgid,
			 uint64_t addr)
{
	uint64_t h = (addr ^ ((uint64_t)(uint32_t)tgid << 40)) *
		     0x9e3779b97f4a7c15ull;

	return (h >> 20) & (s->cache_cap - 1);
}

static const char *cache_get(const struct symbolizer *s, pid_t tgid,
			     uint64_t addr)
{
	const struct cache_ent *e;
	size_t i;

	if (!s->cache_cap)
		return NULL;
	for (i = cache_slot(s, tgid, addr);; i = (i + 1) & (s->cache_cap - 1)) {
		e = &s->cache[i];
		if (!e->name)
			return NULL;
		if (e->addr == addr && e->tgid == tgid)
			return e->name;
	}
}

static void cache_put_slot(struct symbolizer *s, pid_t tgid, uint64_t addr,
			   const char *name)
{
	size_t i = cache_slot(s, tgid, addr);

	while (s->cache[i].name)
		i = (i + 1) & (s->cache_cap - 1);
	s->cache[i] = (struct cache_ent){ addr, tgid, name };
	s->cache_n++;
}

/* Best effort: without memory the name is only looked up again. */
static void cache_put(struct symbolizer *s, pid_t tgid, uint64_t addr,
		      const char *name)
{
	struct cache_ent *old = s->cache;
	size_t old_cap = s->cache_cap, i;

	if ((s->cache_n + 1) * 4 > s->cache_cap * 3) {
		s->cache_cap = old_cap ? old_cap * 2 : CACHE_MIN;
		s->cache = calloc(s->cache_cap, sizeof(*s->cache));
		if (!s->cache) {
			s->cache = old;
			s->cache_cap = old_cap;
			return;
		}
		s->cache_n = 0;
		for (i = 0; i < old_cap; i++)
			if (old[i].name)
				cache_put_slot(s, old[i].tgid, old[i].addr,
					       old[i].name);
		free(old);
	}
	cache_put_slot(s, tgid, addr, name);
}

static struct sym_proc *proc_get(struct symbolizer *s, pid_t tgid)
{
	struct sym_proc *p, **np;
	size_t i, cap;

	for (i = 0; i < s->nprocs; i++)
		if (s->procs[i]->tgid == tgid)
			return s->procs[i];
	if (s->nprocs == s->procs_cap) {
		cap = s->procs_cap ? s->procs_cap * 2 : 16;
		np = realloc(s->procs, cap * sizeof(*np));
		if (!np)
			return NULL;
		s->procs = np;
		s->procs_cap = cap;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->tgid = tgid;
	s->procs[s->nprocs++] = p;
	return p;
}

static void proc_close(struct symbolizer *s, struct sym_proc *p)
{
	if (!p->dwfl)
		return;
	dwfl_end(p->dwfl);
	p->dwfl = NULL;
	s->nlive--;
}

static void evict_lru(struct symbolizer *s)
{
	struct sym_proc *lru = NULL;
	size_t i;

	for (i = 0; i < s->nprocs; i++)
		if (s->procs[i]->dwfl &&
		    (!lru || s->procs[i]->last_use < lru->last_use))
			lru = s->procs[i];
	if (lru)
		proc_close(s, lru);
}

/* Reads p's mappings; false when they cannot be read (process gone). */
static bool proc_open(struct symbolizer *s, struct sym_proc *p)
{
	Dwfl *dwfl;

	if (s->nlive >= SYM_MAX_LIVE)
		evict_lru(s);
	dwfl = dwfl_begin(&proc_callbacks);
	if (!dwfl)
		return false;
	dwfl_report_begin(dwfl);
	if (dwfl_linux_proc_report(dwfl, p->tgid) != 0)
		goto fail;
	if (dwfl_report_end(dwfl, NULL, NULL) != 0)
		goto fail;
	p->dwfl = dwfl;
	p->refreshed = false;
	s->nlive++;
	return true;

fail:
	dwfl_end(dwfl);
	return false;
}

/*
 * Adds what the process mapped since its Dwfl began (dlopen), keeping the
 * modules already read; once, so that every address of a JIT's anonymous
 * code does not re-read the maps.
 */
static void proc_refresh(struct sym_proc *p)
{
	p->refreshed = true;
	dwfl_report_begin_add(p->dwfl);
	dwfl_linux_proc_report(p->dwfl, p->tgid);
	dwfl_report_end(p->dwfl, NULL, NULL);
}

/*
 * The module mapped at addr.  dwfl_addrmodule alone answers the last
 * module for any address above it (the stack, the vsyscall page), so its
 * answer is checked against the module's range.
 */
static Dwfl_Module *proc_module(struct sym_proc *p, uint64_t addr)
{
	Dwfl_Module *mod = dwfl_addrmodule(p->dwfl, addr);
	Dwarf_Addr start, end;

	if (!mod || !dwfl_module_info(mod, NULL, &start, &end, NULL, NULL,
				      NULL, NULL))
		return NULL;
	return addr >= start && addr < end ? mod : NULL;
}

/* "[libc.so.6]" for a module named "/usr/lib/x86_64-linux-gnu/libc.so.6". */
static const char *module_name(struct symbolizer *s, Dwfl_Module *mod)
{
	const char *name, *base;

	name = dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL,
				NULL);
	if (!name || !*name)
		return NULL;
	/* libdwfl names the vDSO "[vdso: PID]" */
	if (!strncmp(name, "[vdso", 5))
		return "[vdso]";
	base = strrchr(name, '/');
	base = base ? base + 1 : name;
	if (!*base)
		return NULL;
	return arena_name(s, "[", base, "]");
}

static const char *user_lookup(struct symbolizer *s, pid_t tgid,
			       uint64_t addr)
{
	const char *name = NULL;
	struct sym_proc *p;
	Dwfl_Module *mod;

	p = proc_get(s, tgid);
	if (!p || p->dead)
		return NULL;
	if (!p->dwfl && !proc_open(s, p)) {
		p->dead = true;
		return NULL;
	}
	p->last_use = ++s->tick;

	mod = proc_module(p, addr);
	if (!mod && !p->refreshed) {
		proc_refresh(p);
		mod = proc_module(p, addr);
	}
	if (!mod)
		return NULL;
	name = dwfl_module_addrname(mod, addr);
	if (name && *name)
		return arena_name(s, "", name, "");
	return module_name(s, mod);
}

const char *sym_user(struct symbolizer *s, pid_t tgid, uint64_t addr)
{
	const char *name = cache_get(s, tgid, addr);

	if (name)
		return name;
	name = user_lookup(s, tgid, addr);
	if (!name)
		name = unknown_name;
	cache_put(s, tgid, addr, name);
	return name;
}

/* ---- life ---- */

struct symbolizer *sym_new(void)
{
	return calloc(1, sizeof(struct symbolizer));
}

void sym_free(struct symbolizer *s)
{
	struct chunk *c, *next;
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nprocs; i++) {
		proc_close(s, s->procs[i]);
		free(s->procs[i]);
	}
	free(s->procs);
	free(s->cache);
	for (c = s->arena; c; c = next) {
		next = c->next;
		free(c);
	}
	free(s->ksyms);
	free(s->kpool);
	free(s);
}
