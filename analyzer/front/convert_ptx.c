/* convert_ptx.c - the TMA's bulk copies, their groups, the proxy fence
 * and the mbarrier, as libcu++ (cuda::device::experimental::
 * cp_async_bulk_*) and cuda::ptx spell them in calls. They mean what the
 * inline PTX they wrap means (convert_async.c, cv_asm_async):
 * - a bulk copy into shared memory, on an mbarrier or a cuda::barrier: the
 *   issuing thread's store of `size` bytes, landing at any time until the
 *   barrier's wait;
 * - a bulk copy out of shared memory: the issuer's read, in flight until
 *   its bulk wait_group;
 * - a tensor copy (cp_async_bulk_tensor*): either of those, of the box its
 *   tensor map describes; once the launches are known, each copy whose map
 *   parameter every launch passes alike gets that map's box and swizzle
 *   (cv_bind_tensor_maps);
 * - cuda::ptx::mbarrier_init writes the mbarrier's 8 bytes, the arrives
 *   read them, and try_wait / test_wait (_parity) read them, complete
 *   every copy counted on it and order the block's threads, as
 *   mbarrier.try_wait does (convert_async.c, cv_async_mbarrier).
 * A call whose operands are not the shapes named here converts its
 * arguments for their effects and models nothing. */
#include "front/convert.h"

#include <string.h>

/* A bulk copy into shared memory: (dst, src, size, bar) from argument
 * `first` on (the barrier's wait completes it, as every copy). */
static struct sm_expr *bulk_into(struct fe *S, const struct cv_call *k, int first)
{
	for (int i = 0; i < k->nargs; i++)
		if (i != first)
			(void)cv_conv_expr(S, k->args[i]);
	int64_t n = cv_async_copy_size(k->args[first + 2]);
	struct sm_expr *p = cv_conv_expr(S, k->args[first]);
	cv_async_bulk_copy(S, k->c, p, SM_ACC_STORE, n, "cp.async.bulk");
	return NULL;
}

/* cuda::device::experimental::cp_async_bulk_global_to_shared(dst, src,
 * size, bar) */
struct sm_expr *cv_conv_bulk_load(struct fe *S, const struct cv_call *k)
{
	if (k->nargs != 4) {
		for (int i = 0; i < k->nargs; i++)
			(void)cv_conv_expr(S, k->args[i]);
		return NULL;
	}
	return bulk_into(S, k, 0);
}

/* The cuda::ptx state space argument i names: 'g' global, 'c'
 * shared::cluster, 's' shared::cta, 0 none. Its type is spelled by the
 * tag's name (space_shared_t) or, in an instantiation, as space_t of the
 * enumerator's value (dot_space: global, cluster, shared, in that order). */
static char ptx_space(const struct cv_call *k, int i)
{
	if (i >= k->nargs)
		return 0;
	static const struct { const char *spelled; char space; } names[] = {
		{ "space_global", 'g' }, { "dot_space)0", 'g' }, { "space_cluster", 'c' }, { "dot_space)1", 'c' },
		{ "space_shared", 's' }, { "dot_space)2", 's' },
	};
	CXString t = clang_getTypeSpelling(clang_getCursorType(k->args[i]));
	const char *ts = clang_getCString(t);
	char space = 0;
	for (size_t j = 0; j < sizeof(names) / sizeof(names[0]) && !space; j++)
		if (strstr(ts, names[j].spelled))
			space = names[j].space;
	clang_disposeString(t);
	return space;
}

/* The bulk copy out of shared memory, as libcu++ spells it:
 * cuda::device::experimental::cp_async_bulk_shared_to_global(gmem, smem,
 * size), or cuda::ptx::cp_async_bulk(space_global, space_shared, gmem,
 * smem, size): the same read as the PTX (cv_asm_async). The form into
 * shared memory on an mbarrier is bulk_into's; the others (shared::cta
 * to another block's shared::cluster, a byte mask, multicast) are not
 * modelled: their arguments are converted. */
struct sm_expr *cv_conv_bulk_store(struct fe *S, const struct cv_call *k)
{
	bool ptx = !strcmp(k->name, "cp_async_bulk");
	if (ptx && k->nargs == 6 && ptx_space(k, 1) == 'g' && (ptx_space(k, 0) == 's' || ptx_space(k, 0) == 'c'))
		return bulk_into(S, k, 2); /* (space_shared|cluster, space_global, dst, src, size, bar) */
	int src = ptx ? 3 : 1;
	if (k->nargs != src + 2 || (ptx && !(ptx_space(k, 0) == 'g' && ptx_space(k, 1) == 's'))) {
		for (int i = 0; i < k->nargs; i++)
			(void)cv_conv_expr(S, k->args[i]);
		return NULL;
	}
	(void)cv_conv_expr(S, k->args[src - 1]);
	int64_t n = cv_async_copy_size(k->args[src + 1]);
	struct sm_expr *p = cv_conv_expr(S, k->args[src]);
	cv_async_bulk_copy(S, k->c, p, SM_ACC_LOAD, n, "cp.async.bulk store");
	return NULL;
}

/* cp_async_bulk_commit_group(): closes a bulk group */
struct sm_expr *cv_conv_bulk_commit(struct fe *S, const struct cv_call *k)
{
	(void)k;
	cv_async_commit(S, true);
	return NULL;
}

/* cp_async_bulk_wait_group[_read]<N>() (libcu++) or (n32_t<N>)
 * (cuda::ptx): N is the called function's template argument */
struct sm_expr *cv_conv_bulk_wait(struct fe *S, const struct cv_call *k)
{
	CXCursor fn = clang_getCursorReferenced(k->c);
	long long n = clang_Cursor_getNumTemplateArguments(fn) >= 1 ? clang_Cursor_getTemplateArgumentValue(fn, 0) : -1;
	cv_async_wait(S, n >= 0 ? n : -1, true);
	return NULL;
}

/* fence_proxy_async_shared_cta() (libcu++), cuda::ptx::fence_proxy_async()
 * or (space_shared): the fence.proxy.async the PTX spells */
struct sm_expr *cv_conv_proxy_fence(struct fe *S, const struct cv_call *k)
{
	if (k->nargs && ptx_space(k, 0) != 's' && ptx_space(k, 0) != 'c')
		return NULL; /* the global state space: not shared memory's */
	cv_async_proxy_fence(S, k->c);
	return NULL;
}


/* cuda::ptx::mbarrier_init(bar, count), mbarrier_arrive[_expect_tx]
 * (..., bar, ...), mbarrier_expect_tx, mbarrier_try_wait[_parity](...,
 * bar, state|parity) and mbarrier_test_wait[_parity]: the mbarrier is
 * the first argument of type uint64_t *. */
struct sm_expr *cv_conv_ptx_mbarrier(struct fe *S, const struct cv_call *k)
{
	int bar = -1;
	for (int i = 0; i < k->nargs && bar < 0; i++) {
		CXType t = clang_getCanonicalType(clang_getCursorType(k->args[i]));
		if (t.kind == CXType_Pointer && clang_Type_getSizeOf(clang_getPointeeType(t)) == 8 &&
		    cv_type_is_integer(clang_getPointeeType(t)))
			bar = i;
	}
	for (int i = 0; i < k->nargs; i++)
		if (i != bar)
			(void)cv_conv_expr(S, k->args[i]);
	if (bar < 0)
		return NULL;
	bool init = !strcmp(k->name, "mbarrier_init");
	bool wait = !strncmp(k->name, "mbarrier_try_wait", 17) || !strncmp(k->name, "mbarrier_test_wait", 18);
	cv_async_mbarrier(S, k->c, cv_conv_expr(S, k->args[bar]), init, wait);
	/* a wait returns whether the phase completed: its callers loop on it */
	return NULL;
}

/* ---- TMA tensor copies ---- */

/* libcu++: cp_async_bulk_tensor_Nd_global_to_shared(dst, &map, coords...,
 * bar) and cp_async_bulk_tensor_Nd_shared_to_global(&map, coords...,
 * src); cuda::ptx: cp_async_bulk_tensor(space_cluster|shared,
 * space_global, dst, &map, coords, bar) and (space_global, space_shared,
 * &map, coords, src). */
struct sm_expr *cv_conv_tensor_copy(struct fe *S, const struct cv_call *k)
{
	int dst = -1, map = -1;
	enum sm_access_kind kind = SM_ACC_STORE;
	size_t len = strlen(k->name);
	if (!strcmp(k->name, "cp_async_bulk_tensor")) {
		if (k->nargs == 6 && ptx_space(k, 1) == 'g' && (ptx_space(k, 0) == 's' || ptx_space(k, 0) == 'c')) {
			dst = 2;
			map = 3;
		} else if (k->nargs == 5 && ptx_space(k, 0) == 'g' && ptx_space(k, 1) == 's') {
			dst = 4;
			map = 2;
			kind = SM_ACC_LOAD;
		}
	} else if (len > 17 && !strcmp(k->name + len - 17, "_global_to_shared") && k->nargs >= 4) {
		dst = 0;
		map = 1;
	} else if (len > 17 && !strcmp(k->name + len - 17, "_shared_to_global") && k->nargs >= 3) {
		dst = k->nargs - 1;
		map = 0;
		kind = SM_ACC_LOAD;
	}
	for (int i = 0; i < k->nargs; i++)
		if (i != dst)
			(void)cv_conv_expr(S, k->args[i]);
	if (dst >= 0)
		cv_tensor_copy(S, k->c, cv_conv_expr(S, k->args[dst]), kind, k->args[map]);
	return NULL;
}

static bool same_map(const struct sm_tensor_map *a, const struct sm_tensor_map *b)
{
	if (a->elem_size != b->elem_size || a->rank != b->rank || a->swizzle != b->swizzle)
		return false;
	for (unsigned i = 0; i < a->rank; i++)
		if (a->box[i] != b->box[i])
			return false;
	return true;
}

void cv_bind_tensor_maps(struct sm_kernel *K)
{
	for (unsigned i = 0; i < K->ntensor_copies; i++) {
		struct sm_access *a = K->tensor_copies[i];
		unsigned p = a->tmap_param;
		const struct sm_tensor_map *m = NULL;
		bool all = p > 0 && K->nlaunches > 0;
		for (unsigned l = 0; all && l < K->nlaunches; l++) {
			const struct sm_launch *L = &K->launches[l];
			const struct sm_tensor_map *x = p <= L->nargs ? L->args[p - 1].tmap : NULL;
			all = x && (!m || same_map(m, x));
			m = m ? m : x;
		}
		if (!all)
			continue;
		int64_t bytes = m->elem_size;
		for (unsigned d = 0; d < m->rank; d++)
			bytes *= m->box[d];
		/* the inner extent of a box is a multiple of 16 bytes, and a
		 * swizzled one at most the swizzle's span */
		if (bytes > SM_FE_BULK_BYTES || (m->box[0] * m->elem_size) % 16 ||
		    (m->swizzle && m->box[0] * m->elem_size > m->swizzle))
			continue;
		a->tmap = m;
		a->width = (unsigned)bytes;
	}
}
