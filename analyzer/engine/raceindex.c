/* raceindex.c - accesses that no other thread's access can meet (see
 * raceindex.h). Accesses are interned by signature (storage, kind and
 * sorted touches): a kernel of many `s[t] += ...` has one signature.
 * finish() sorts every signature's intervals by storage and start, joins
 * overlapping ones into clusters, and marks a signature shared when one of
 * its intervals lies in a cluster that two threads touch with a pair of
 * kinds that can race. Conservative: a cluster joined through a chain of
 * overlaps may be marked when no two of its intervals from different
 * threads overlap; that only costs the search a pair it tries. Below it,
 * the search's per-thread address entries (struct sm_taddr): sorted by
 * address, and split by warp for the search of pairs within one warp. */
#include "engine/raceindex.h"
#include "base/grow.h"
#include "base/limits.h"
#include "smemlint/ir.h"

#include <stdlib.h>
#include <string.h>

struct sig {
	const void *storage;
	enum sm_touch_kind kind;
	size_t first;              /* its touches: X->touch[first .. first + n) */
	int n;
	uint64_t hash;
	bool shared;
	int next;                  /* the hash chain */
};

struct sm_race_index {
	unsigned nacc;
	int *sig_of;               /* per access: its signature, -1 not indexed */
	struct sig *sigs;
	int nsigs;
	unsigned capsigs;
	struct sm_touch *touch;
	size_t ntouch, captouch, max_touches;
	int head[4096];            /* hash buckets of sigs */
};

static int cmp_touch(const void *pa, const void *pb)
{
	const struct sm_touch *a = pa, *b = pb;
	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	if (a->hi != b->hi)
		return a->hi < b->hi ? -1 : 1;
	return (a->thread > b->thread) - (a->thread < b->thread);
}

struct sm_race_index *sm_race_index_new(unsigned nacc, size_t max_touches)
{
	struct sm_race_index *X = calloc(1, sizeof(*X));
	if (!X)
		return NULL;
	X->nacc = nacc;
	X->max_touches = max_touches;
	X->sig_of = malloc(((size_t)nacc + 1) * sizeof(int));
	if (!X->sig_of) {
		free(X);
		return NULL;
	}
	for (unsigned i = 0; i < nacc; i++)
		X->sig_of[i] = -1;
	for (int i = 0; i < 4096; i++)
		X->head[i] = -1;
	return X;
}

void sm_race_index_free(struct sm_race_index *X)
{
	if (!X)
		return;
	free(X->sig_of);
	free(X->sigs);
	free(X->touch);
	free(X);
}

/* Are the n touches of x and y the same? Field by field: a touch's
 * padding is never written, so memcmp would read it. */
static bool same_touches(const struct sm_touch *x, const struct sm_touch *y, int n)
{
	for (int i = 0; i < n; i++)
		if (x[i].lo != y[i].lo || x[i].hi != y[i].hi || x[i].thread != y[i].thread)
			return false;
	return true;
}

int sm_race_index_add(struct sm_race_index *X, unsigned acc, const void *storage, enum sm_touch_kind kind,
		      struct sm_touch *t, int n, uint64_t *steps)
{
	if (acc >= X->nacc)
		return -1;
	/* addresses rising with the thread (s[t]) come sorted already */
	int i = 1;
	while (i < n && cmp_touch(&t[i - 1], &t[i]) <= 0)
		i++;
	if (i < n)
		qsort(t, (size_t)n, sizeof(*t), cmp_touch);
	*steps += (uint64_t)n;
	uint64_t h = (uint64_t)(uintptr_t)storage * 0x9E3779B97F4A7C15ull ^ (uint64_t)kind;
	for (i = 0; i < n; i++)
		h = (h ^ ((uint64_t)t[i].lo * 31 + (uint64_t)t[i].hi * 7 + (uint64_t)t[i].thread)) * 0x100000001B3ull;
	for (int s = X->head[h % 4096]; s >= 0; s = X->sigs[s].next) {
		const struct sig *S = &X->sigs[s];
		if (S->hash != h || S->storage != storage || S->kind != kind || S->n != n)
			continue;
		*steps += (uint64_t)n;
		if (n == 0 || same_touches(&X->touch[S->first], t, n)) {
			X->sig_of[acc] = s;
			return 0;
		}
	}
	if (X->ntouch + (size_t)n > X->max_touches)
		return -1;
	if (SM_ALLOC_GROW(X->touch, X->ntouch + (size_t)n, X->captouch) ||
	    SM_ALLOC_GROW(X->sigs, (size_t)X->nsigs + 1, X->capsigs))
		return -1;
	if (n > 0) /* no touches: the buffer may not exist yet */
		memcpy(&X->touch[X->ntouch], t, (size_t)n * sizeof(*t));
	int s = X->nsigs++;
	X->sigs[s] = (struct sig){ storage, kind, X->ntouch, n, h, false, X->head[h % 4096] };
	X->head[h % 4096] = s;
	X->ntouch += (size_t)n;
	X->sig_of[acc] = s;
	return 0;
}

/* One interval of a signature, for the sweep. */
struct ivl {
	const void *storage;
	int64_t lo, hi;
	int thread;
	int sig;
};

static int cmp_ivl(const void *pa, const void *pb)
{
	const struct ivl *a = pa, *b = pb;
	if (a->storage != b->storage)
		return (uintptr_t)a->storage < (uintptr_t)b->storage ? -1 : 1;
	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	return (a->thread > b->thread) - (a->thread < b->thread);
}

int sm_race_index_finish(struct sm_race_index *X, uint64_t *steps)
{
	struct ivl *v = malloc((X->ntouch + 1) * sizeof(*v));
	if (!v)
		return -1;
	size_t n = 0;
	for (int s = 0; s < X->nsigs; s++)
		for (int i = 0; i < X->sigs[s].n; i++) {
			const struct sm_touch *t = &X->touch[X->sigs[s].first + (size_t)i];
			v[n++] = (struct ivl){ X->sigs[s].storage, t->lo, t->hi, t->thread, s };
		}
	qsort(v, n, sizeof(*v), cmp_ivl);
	*steps += n;
	for (size_t i = 0; i < n;) {
		/* the cluster [i, j): intervals joined by overlaps */
		size_t j = i + 1;
		int64_t hi = v[i].hi;
		bool two = false, load = false, store = false, atomic = false;
		for (; j < n && v[j].storage == v[i].storage && v[j].lo < hi; j++) {
			if (v[j].hi > hi)
				hi = v[j].hi;
		}
		for (size_t k = i; k < j; k++) {
			two |= v[k].thread != v[i].thread;
			enum sm_touch_kind kd = X->sigs[v[k].sig].kind;
			load |= kd == SM_TOUCH_LOAD;
			store |= kd == SM_TOUCH_STORE;
			atomic |= kd == SM_TOUCH_ATOMIC;
		}
		if (two && (store || (load && atomic)))
			for (size_t k = i; k < j; k++)
				X->sigs[v[k].sig].shared = true;
		i = j;
	}
	free(v);
	return 0;
}

bool sm_race_index_alone(const struct sm_race_index *X, unsigned acc)
{
	if (acc >= X->nacc || X->sig_of[acc] < 0)
		return false;
	return !X->sigs[X->sig_of[acc]].shared;
}

static int cmp_taddr(const void *pa, const void *pb)
{
	const struct sm_taddr *a = pa, *b = pb;
	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return a->lin - b->lin;
}

void sm_taddr_sort(struct sm_taddr *e, int n)
{
	qsort(e, (size_t)n, sizeof(*e), cmp_taddr);
}

void sm_taddr_by_warp(const struct sm_taddr *e, int n, int nwarps, struct sm_taddr *out, int *start)
{
	memset(start, 0, (size_t)(nwarps + 1) * sizeof(*start));
	for (int i = 0; i < n; i++)
		start[e[i].lin / SM_WARP + 1]++;
	for (int w = 0; w < nwarps; w++)
		start[w + 1] += start[w];
	int fill[SM_MAX_BLOCK_THREADS / SM_WARP + 1];
	memcpy(fill, start, (size_t)nwarps * sizeof(*fill));
	for (int i = 0; i < n; i++)
		out[fill[e[i].lin / SM_WARP]++] = e[i];
}

int sm_taddr_first_above(const struct sm_taddr *e, int from, int end, int near, int64_t key)
{
	if (near < from || near > end)
		near = from;
	int lo, hi, step = 1; /* the answer lies in [lo, hi] */
	if (near < end && e[near].addr <= key) {
		/* after near: double the stride until past key */
		lo = hi = near + 1;
		while (hi < end && e[hi].addr <= key) {
			lo = hi + 1;
			step *= 2;
			hi = near + step;
		}
		if (hi > end)
			hi = end;
	} else {
		/* at near or before it: double the stride back until at or
		 * below key */
		hi = near;
		lo = near - 1;
		while (lo >= from && e[lo].addr > key) {
			hi = lo;
			step *= 2;
			lo = near - step;
		}
		lo = lo < from ? from : lo + 1;
	}
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (e[mid].addr <= key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}
