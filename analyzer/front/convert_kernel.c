/* convert_kernel.c - kernels, launches, and the walk over a translation unit.
 *
 * cv_convert_tu visits the top-level declarations of the main file (into
 * namespaces and extern "C"): file-scope __shared__ arrays, __global__ and
 * __device__ function definitions, each converted into an sm_kernel (its
 * parameters, body and __launch_bounds__), and the host code in which
 * kernel<<<grid, block, smem>>>(...) launches are found. A launch records
 * the block size and dynamic shared memory when they evaluate to
 * constants; a launched specialization of a kernel template in the main
 * file is converted on its own, named with its template arguments. The
 * errors clang reported become the file's notes. The project headers that
 * --header-filter accepts are walked as the main file is (cv_file_index):
 * their kernels are converted here, their ranges carry the header's index.
 */
#define _GNU_SOURCE
#include "front/convert.h"
#include "front/frontend.h"
#include "smemlint/options.h"
#include "front/host_code.h"
#include "front/missing_headers.h"
#include "front/nvcc_dialect.h"
#include "front/include_site.h"
#include "base/stack.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* __cluster_dims__(x[, y[, z]]) with integer literals (missing extents 1):
 * the kernel's cluster shape, or all 0 (none, or not constant). */
static struct sm_dim3 cluster_dims_of(struct fe *S, CXCursor fn)
{
	struct sm_dim3 d = { 0, 0, 0 };
	struct toks t = cv_tokens_until(S, fn, "{");
	for (unsigned i = 0; i + 2 < t.n; i++) {
		if (!strcmp(t.s[i], "{"))
			break;
		if (strcmp(t.s[i], "__cluster_dims__") || strcmp(t.s[i + 1], "("))
			continue;
		int64_t v[3] = { 1, 1, 1 };
		unsigned j = i + 2;
		for (int n = 0; n < 3 && j < t.n; n++) {
			if (!isdigit((unsigned char)t.s[j][0]))
				return d;
			v[n] = strtoll(t.s[j], NULL, 0);
			if (j + 1 >= t.n || !strcmp(t.s[j + 1], ")"))
				break;
			if (strcmp(t.s[j + 1], ","))
				return d;
			j += 2;
		}
		if (v[0] > 0 && v[1] > 0 && v[2] > 0) {
			d.x = v[0];
			d.y = v[1];
			d.z = v[2];
		}
		return d;
	}
	return d;
}

static struct sm_kernel *convert_function(struct fe *S, CXCursor fn, const char *tmpl_args)
{
	struct sm_kernel *K = sm_arena_alloc(S->A, sizeof(*K));
	if (!K)
		return NULL;
	const char *base = cv_cx_str(S->A, clang_getCursorSpelling(fn));
	K->name = tmpl_args ? sm_arena_printf(S->A, "%s%s", base, tmpl_args) : base;
	/* resting on a missing header's declarations: not analyzed */
	if (cv_missing_taints(S, fn)) {
		cv_missing_dropped(S, K->name);
		return NULL;
	}
	S->miss.tainted = false;
	K->template_args = tmpl_args;
	K->kind = cv_has_attr(fn, CXCursor_CUDAGlobalAttr) ? SM_F_KERNEL : SM_F_DEVICE;
	K->range = cv_range_of(S, fn);
	K->launch_bounds = cv_launch_bounds(S, fn);
	K->cluster_dims = cluster_dims_of(S, fn);
	S->K = K;
	memset(&S->kvars, 0, sizeof(S->kvars));
	memset(&S->karrays, 0, sizeof(S->karrays));
	memset(&S->ktensor, 0, sizeof(S->ktensor));
	cv_cmap_free(&S->vars);
	S->naccess = 0;
	cv_async_reset(S);
	cv_local_elems_reset(S);
	int n = clang_Cursor_getNumArguments(fn);
	for (int i = 0; i < n; i++)
		(void)cv_make_var(S, clang_Cursor_getArgument(fn, (unsigned)i), SM_V_PARAM);
	K->nparams = n > 0 ? (unsigned)n : 0;
	/* the body: the function's compound statement child (after any
	 * number of parameters and attributes) */
	CXCursor body = cv_body_of(fn);
	if (!clang_Cursor_isNull(body))
		K->body = cv_conv_block(S, body);
	K->vars = (struct sm_var **)S->kvars.v;
	K->nvars = S->kvars.n;
	K->arrays = (struct sm_array **)S->karrays.v;
	K->narrays = S->karrays.n;
	K->naccesses = S->naccess;
	K->tensor_copies = (struct sm_access **)S->ktensor.v;
	K->ntensor_copies = S->ktensor.n;
	S->K = NULL;
	if (S->miss.tainted) {
		/* it follows a call into a function that does */
		S->miss.tainted = false;
		cv_missing_dropped(S, K->name);
		return NULL;
	}
	return K;
}

/* A kernel converted into the file's arena: one of F->kernels. */
static struct sm_kernel *convert_kept(struct fe *S, CXCursor fn, const char *tmpl_args)
{
	struct sm_kernel *K = convert_function(S, fn, tmpl_args);
	if (K)
		cv_vec_push(S->FA, &S->all_kernels, K);
	return K;
}

/* The writes of a host dim3 variable after its declaration, in the
 * function that declares it: `b.x = 32; b.y = n;` (fields set one by one)
 * or `b = dim3(...)`, `&b`, `b.x += 1` (then nothing is known of it). */
struct dim3_writes {
	struct fe *S;
	CXCursor var;         /* the variable (canonical) */
	int64_t val[3];       /* the one constant each field is set to */
	int nset[3];          /* how many assignments set it; -1: not a constant */
	bool whole;           /* written whole, incremented, or its address taken */
	CXCursor block;       /* the compound statement declaring it: only an
	                       * assignment directly in it is unconditional */
	bool have_block;
};

static bool names_var(CXCursor e, CXCursor var)
{
	e = cv_strip(e);
	return clang_getCursorKind(e) == CXCursor_DeclRefExpr &&
	       clang_equalCursors(clang_getCanonicalCursor(clang_getCursorReferenced(e)), var);
}

/* The field (0, 1, 2) that member access e names of var, or -1. */
static int var_field(CXCursor e, CXCursor var)
{
	e = cv_strip(e);
	if (clang_getCursorKind(e) != CXCursor_MemberRefExpr)
		return -1;
	struct kids ks = cv_kids_of(e);
	if (ks.n != 1 || !names_var(ks.c[0], var))
		return -1;
	CXString n = clang_getCursorSpelling(e);
	const char *f = clang_getCString(n);
	int k = f && f[0] && !f[1] && f[0] >= 'x' && f[0] <= 'z' ? f[0] - 'x' : -1;
	clang_disposeString(n);
	return k;
}

static enum CXChildVisitResult dim3_write_visit(CXCursor c, CXCursor parent, CXClientData data)
{
	struct dim3_writes *w = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_DeclStmt && !w->have_block) {
		struct kids ds = cv_kids_of(c);
		for (int i = 0; i < ds.n && i < 8; i++)
			if (clang_equalCursors(clang_getCanonicalCursor(ds.c[i]), w->var)) {
				w->block = parent;
				w->have_block = true;
			}
		return CXChildVisit_Recurse;
	}
	if (k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator) {
		struct kids ks = cv_kids_of(c);
		enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
		bool assign = op >= CXBinaryOperator_Assign && op <= CXBinaryOperator_OrAssign;
		if (assign && ks.n == 2) {
			int f = var_field(ks.c[0], w->var);
			int64_t v;
			/* a constant set straight after the declaration, in its
			 * own block; one under an if or loop makes it unknown */
			bool straight = w->have_block && clang_equalCursors(parent, w->block);
			if (f >= 0 && op == CXBinaryOperator_Assign && straight && cv_host_eval(w->S, ks.c[1], &v) &&
			    w->nset[f] >= 0 && (w->nset[f] == 0 || w->val[f] == v)) {
				w->val[f] = v;
				w->nset[f]++;
			} else if (f >= 0) {
				w->nset[f] = -1;
			} else if (names_var(ks.c[0], w->var)) {
				w->whole = true;
			}
		}
	} else if (k == CXCursor_UnaryOperator) {
		struct kids ks = cv_kids_of(c);
		if (ks.n == 1 && (names_var(ks.c[0], w->var) || var_field(ks.c[0], w->var) >= 0))
			w->whole = true; /* &b, ++b.x */
	} else if (k == CXCursor_CallExpr && clang_getCursorKind(clang_getCursorReferenced(c)) == CXCursor_CXXMethod) {
		/* b.operator=(...) on a class type */
		struct kids ks = cv_kids_of(c);
		for (int i = 0; i < ks.n && i < 2; i++)
			if (names_var(ks.c[i], w->var))
				w->whole = true;
	}
	return CXChildVisit_Recurse;
}

/* Is e of a class type (a dim3, a uint3), not an integer? */
static bool is_record_expr(CXCursor e)
{
	return clang_getCanonicalType(clang_getCursorType(e)).kind == CXType_Record;
}

/* The block or grid of a launch: dim3(a,b,c), an integer, or a variable
 * initialised with one of those, its fields perhaps set one by one
 * afterwards. Every component host code fixes is in *out, one it
 * computes at run time is 0 (struct sm_launch: partial knowledge);
 * returns 1 when all three are known. */
static int eval_dim3(struct fe *S, CXCursor c, struct sm_dim3 *out, int depth)
{
	if (depth > 4) {
		out->x = out->y = out->z = 0;
		return 0;
	}
	c = cv_strip(c);
	out->x = out->y = out->z = 1;
	int64_t v;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_CallExpr || k == CXCursor_UnexposedExpr) {
		int n = clang_Cursor_getNumArguments(c);
		int64_t vals[3] = { 1, 1, 1 };
		bool all = true;
		if (n <= 0) {
			struct kids ks = cv_kids_of(c);
			int got = 0;
			for (int i = 0; i < ks.n && i < 8; i++) {
				if (!clang_isExpression(clang_getCursorKind(ks.c[i])))
					continue;
				if (got == 0 && ks.n == 1 && is_record_expr(ks.c[i])) {
					struct sm_dim3 inner;
					int r = eval_dim3(S, ks.c[i], &inner, depth + 1);
					if (r || inner.x != 1 || inner.y != 1 || inner.z != 1) {
						*out = inner;
						return r;
					}
				}
				if (got >= 3) {
					out->x = out->y = out->z = 0;
					return 0;
				}
				if (!cv_host_eval(S, ks.c[i], &vals[got])) {
					vals[got] = 0;
					all = false;
				}
				got++;
			}
			if (!got) {
				if (cv_host_eval(S, c, &out->x))
					return 1;
				out->x = out->y = out->z = 0;
				return 0;
			}
		} else {
			for (int i = 0; i < n && i < 3; i++) {
				CXCursor a = clang_Cursor_getArgument(c, (unsigned)i);
				if (n == 1 && is_record_expr(a)) {
					struct sm_dim3 inner;
					int r = eval_dim3(S, a, &inner, depth + 1);
					if (r || inner.x != 1 || inner.y != 1 || inner.z != 1) {
						*out = inner;
						return r;
					}
				}
				if (!cv_host_eval(S, a, &vals[i])) {
					/* a default argument shows as an unexposed expr */
					if (clang_getCursorKind(a) == CXCursor_UnexposedExpr && cv_kids_of(a).n == 0) {
						vals[i] = 1;
						continue;
					}
					vals[i] = 0;
					all = false;
				}
			}
		}
		out->x = vals[0];
		out->y = vals[1];
		out->z = vals[2];
		return all;
	}
	if (cv_host_eval(S, c, &v)) {
		out->x = v;
		return 1;
	}
	if (k == CXCursor_DeclRefExpr) {
		CXCursor d = clang_getCursorReferenced(c);
		if (clang_getCursorKind(d) == CXCursor_VarDecl) {
			if (cv_try_eval_int(d, &v)) {
				out->x = v;
				return 1;
			}
			int r = 0;
			bool init = false;
			struct kids ks = cv_kids_of(d);
			for (int i = ks.n - 1; i >= 0 && i < 8 && !init; i--)
				if (clang_isExpression(clang_getCursorKind(ks.c[i]))) {
					r = eval_dim3(S, ks.c[i], out, depth + 1);
					init = true;
				}
			if (!init) {
				out->x = out->y = out->z = 0;
				return 0;
			}
			/* its fields set afterwards in the function declaring it */
			CXCursor fn = clang_getCursorSemanticParent(d);
			enum CXCursorKind fk = clang_getCursorKind(fn);
			if (fk == CXCursor_FunctionDecl || fk == CXCursor_CXXMethod || fk == CXCursor_FunctionTemplate) {
				struct dim3_writes w;
				memset(&w, 0, sizeof(w));
				w.S = S;
				w.var = clang_getCanonicalCursor(d);
				clang_visitChildren(fn, dim3_write_visit, &w);
				if (w.whole) {
					out->x = out->y = out->z = 0;
					return 0;
				}
				int64_t *f[3] = { &out->x, &out->y, &out->z };
				for (int i = 0; i < 3; i++) {
					if (w.nset[i] > 0)
						*f[i] = w.val[i];
					else if (w.nset[i] < 0)
						*f[i] = 0;
				}
				r = out->x > 0 && out->y > 0 && out->z > 0;
			}
			return r;
		}
	}
	out->x = out->y = out->z = 0;
	return 0;
}

struct launch_ctx {
	struct fe *S;
	bool defer;          /* kernels are only listed (kernel_fns), not
	                      * converted: the file may be streamed */
	struct vec kernel_fns; /* CXCursor *: __global__ definitions (defer) */
	struct vec launches; /* pending: struct pending_launch */
	struct vec optins;   /* pending: struct pending_optin */
	struct vec device_fns; /* CXCursor *: __device__ definitions, converted
	                        * on their own only when no kernel inlines them */
	struct vec kernel_tmpls; /* CXCursor *: __global__ function templates:
	                          * analyzed only through the specializations
	                          * launched (template_not_launched) */
	struct vec kernel_insts; /* CXCursor *: the templates of __global__
	                          * explicit instantiations and specializations */
	struct cmap inst_seen; /* host template specializations walked for
	                        * launches (canonical cursor -> 1) */
	int inst_depth;        /* specializations walked inside one another */
};

struct pending_launch {
	CXCursor kernel; /* referenced decl (maybe a specialization) */
	struct sm_launch L;
};

/* cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
 * value): the kernel may launch with more than 48 KB of dynamic shared
 * memory, up to value. */
struct pending_optin {
	CXCursor kernel;
	int64_t value;   /* -1: not known */
	struct sm_range at;
};

/* The first function a DeclRefExpr under c names (a kernel passed as
 * `k`, `&k`, `(void *)k`, `k<32>`). */
static enum CXChildVisitResult find_fn_ref(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	CXCursor *out = d;
	if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
		CXCursor r = clang_getCursorReferenced(c);
		if (clang_getCursorKind(r) == CXCursor_FunctionDecl) {
			*out = r;
			return CXChildVisit_Break;
		}
	}
	return CXChildVisit_Recurse;
}

static CXCursor referenced_function(CXCursor arg)
{
	CXCursor out = clang_getNullCursor();
	CXCursor a = cv_strip(arg);
	if (clang_getCursorKind(a) == CXCursor_DeclRefExpr &&
	    clang_getCursorKind(clang_getCursorReferenced(a)) == CXCursor_FunctionDecl)
		return clang_getCursorReferenced(a);
	clang_visitChildren(arg, find_fn_ref, &out);
	return out;
}

/* The name of the declaration an argument names (an enumerator), or "". */
static const char *referenced_name(struct fe *S, CXCursor arg)
{
	CXCursor r = clang_getCursorReferenced(cv_strip(arg));
	return clang_Cursor_isNull(r) ? "" : cv_cx_str(S->A, clang_getCursorSpelling(r));
}

/* A launch's configuration call: the index of its grid argument (its
 * block, shared bytes follow), or -1 when c is none. cudaLaunchDevice(fn,
 * params, grid, block, smem, stream) is a launch compiled for the device,
 * as in a lambda (clang takes a lambda as __host__ __device__). */
static int config_call_base(CXCursor c)
{
	if (clang_getCursorKind(c) != CXCursor_CallExpr)
		return -1;
	CXString cs = clang_getCursorSpelling(c);
	const char *n = clang_getCString(cs);
	int base = !strcmp(n, "__cudaPushCallConfiguration") || !strcmp(n, "cudaConfigureCall") ? 0
		   : !strcmp(n, "cudaLaunchDevice")                                               ? 2
											       : -1;
	clang_disposeString(cs);
	return base;
}

static enum CXChildVisitResult launch_visit(CXCursor c, CXCursor p, CXClientData d);

/* Is launch argument a a CUtensorMap (the driver's struct CUtensorMap_st)? */
static bool is_tensor_map(CXCursor a)
{
	CXString ts = clang_getTypeSpelling(clang_getCanonicalType(clang_getCursorType(a)));
	bool yes = strstr(clang_getCString(ts), "CUtensorMap_st") != NULL;
	clang_disposeString(ts);
	return yes;
}

/* A call of a host function template's specialization (or of a generic
 * lambda's: `dispatch(launch, n)` calling `launch(integral_constant<int,
 * 32>{})`) whose pattern is in a converted file: its instantiated body is
 * walked for launches, where the template arguments are constants
 * (`k<ic.value><<<g, ic.value>>>` is `k<32><<<g, 32>>>` there). The
 * pattern's own launch, dependent, names no kernel specialization. Each
 * specialization once, at most SM_HOST_INST_DEPTH inside one another. */
static void walk_instantiation(struct launch_ctx *lc, CXCursor call)
{
	struct fe *S = lc->S;
	CXCursor fn = clang_getCursorReferenced(call);
	enum CXCursorKind k = clang_getCursorKind(fn);
	if ((k != CXCursor_FunctionDecl && k != CXCursor_CXXMethod) ||
	    clang_Cursor_isNull(clang_getSpecializedCursorTemplate(fn)) ||
	    cv_has_attr(fn, CXCursor_CUDAGlobalAttr) || lc->inst_depth >= SM_HOST_INST_DEPTH)
		return;
	if (cv_has_attr(fn, CXCursor_CUDADeviceAttr) && !cv_has_attr(fn, CXCursor_CUDAHostAttr))
		return;
	CXCursor def = clang_getCursorDefinition(fn);
	if (clang_Cursor_isNull(def) || !cv_in_converted_file(S, def))
		return;
	CXCursor key = clang_getCanonicalCursor(def);
	if (cv_cmap_get(&lc->inst_seen, key) || cv_cmap_put(&lc->inst_seen, key, (void *)1) < 0)
		return;
	lc->inst_depth++;
	clang_visitChildren(def, launch_visit, lc);
	lc->inst_depth--;
}

static enum CXChildVisitResult launch_visit(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	struct launch_ctx *lc = d;
	struct fe *S = lc->S;
	if (clang_getCursorKind(c) == CXCursor_CallExpr) {
		struct kids ks = cv_kids_of(c);
		int cfg = -1, base = 0;
		for (int i = 0; i < ks.n && i < 8; i++) {
			int b = config_call_base(cv_strip(ks.c[i]));
			if (b >= 0) {
				cfg = i;
				base = b;
			}
		}
		if (cfg >= 0 && cv_in_converted_file(S, c)) {
			CXCursor callee = clang_getCursorReferenced(c);
			struct pending_launch *pl = sm_arena_alloc(S->A, sizeof(*pl));
			if (pl) {
				pl->kernel = callee;
				pl->L.range = cv_range_of(S, c);
				CXCursor conf = cv_strip(ks.c[cfg]);
				int na = clang_Cursor_getNumArguments(conf) - base;
				pl->L.dyn_smem = -1;
				if (na >= 1)
					pl->L.grid_known = eval_dim3(S, clang_Cursor_getArgument(conf, (unsigned)base), &pl->L.grid, 0) &&
							   pl->L.grid.x > 0 && pl->L.grid.y > 0 && pl->L.grid.z > 0;
				if (na >= 2) {
					pl->L.block_known = eval_dim3(S, clang_Cursor_getArgument(conf, (unsigned)base + 1), &pl->L.block, 0) &&
							    pl->L.block.x > 0 && pl->L.block.y > 0 && pl->L.block.z > 0;
					pl->L.block_rank = pl->L.block_known ? 0 : cv_host_dim_rank(S, clang_Cursor_getArgument(conf, (unsigned)base + 1));
				}
				/* the kernel's arguments, where the host fixes them */
				int nk = clang_Cursor_getNumArguments(c);
				if (nk > 0 && nk <= SM_MAX_LAUNCH_ARGS) {
					pl->L.args = sm_arena_alloc(S->A, (size_t)nk * sizeof(*pl->L.args));
					if (pl->L.args) {
						pl->L.nargs = (unsigned)nk;
						for (int i = 0; i < nk; i++) {
							CXCursor a = clang_Cursor_getArgument(c, (unsigned)i);
							pl->L.args[i].known = cv_host_eval(S, a, &pl->L.args[i].value);
							if (is_tensor_map(a))
								pl->L.args[i].tmap = cv_host_tensor_map(S, a);
						}
					}
				}
				if (na >= 3) {
					/* a constant, or what the host code computes
					 * (size_t bytes = 2 * n * sizeof(float)) */
					int64_t v;
					CXCursor sz = clang_Cursor_getArgument(conf, (unsigned)base + 2);
					if (cv_try_eval_int(sz, &v) || cv_host_eval(S, sz, &v))
						pl->L.dyn_smem = v;
				} else {
					pl->L.dyn_smem = 0;
				}
				cv_vec_push(S->A, &lc->launches, pl);
			}
		} else if (cfg < 0 && cv_in_converted_file(S, c) && clang_Cursor_getNumArguments(c) == 3 &&
			   !strcmp(cv_cx_str(S->A, clang_getCursorSpelling(c)), "cudaFuncSetAttribute") &&
			   !strcmp(referenced_name(S, clang_Cursor_getArgument(c, 1)),
				   "cudaFuncAttributeMaxDynamicSharedMemorySize")) {
			CXCursor fn = referenced_function(clang_Cursor_getArgument(c, 0));
			struct pending_optin *po = clang_Cursor_isNull(fn) ? NULL : sm_arena_alloc(S->A, sizeof(*po));
			if (po) {
				po->kernel = fn;
				po->at = cv_range_of(S, c);
				CXCursor v = clang_Cursor_getArgument(c, 2);
				if (!cv_try_eval_int(v, &po->value) && !cv_host_eval(S, v, &po->value))
					po->value = -1;
				cv_vec_push(S->A, &lc->optins, po);
			}
		} else if (cfg < 0 && cv_in_converted_file(S, c)) {
			walk_instantiation(lc, c);
		}
	}
	return CXChildVisit_Recurse;
}

static enum CXChildVisitResult top_visit(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	struct launch_ctx *lc = d;
	struct fe *S = lc->S;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_UnexposedDecl) {
		clang_visitChildren(c, top_visit, d);
		return CXChildVisit_Continue;
	}
	/* the main file's code, and that of the project headers converted
	 * with it (--header-filter): a kernel in a header is analyzed with
	 * the macros and launches of the file that includes it */
	if (!cv_in_converted_file(S, c))
		return CXChildVisit_Continue;
	if (k == CXCursor_VarDecl && cv_has_attr(c, CXCursor_CUDASharedAttr)) {
		if (!cv_array_of_decl(S, c))
			(void)cv_make_array(S, c, 1);
		return CXChildVisit_Continue;
	}
	/* a template of the main file only: a header's is launched by the
	 * file that instantiates it (ggml's mmq.cuh, by mmq.cu's instances),
	 * and its other includers need not */
	if (k == CXCursor_FunctionTemplate && clang_isCursorDefinition(c) && cv_has_attr(c, CXCursor_CUDAGlobalAttr) &&
	    clang_Location_isFromMainFile(clang_getCursorLocation(c))) {
		CXCursor *keep = sm_arena_alloc(S->A, sizeof(*keep));
		if (keep) {
			*keep = c;
			cv_vec_push(S->A, &lc->kernel_tmpls, keep);
		}
		return CXChildVisit_Continue;
	}
	if ((k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod) && clang_isCursorDefinition(c)) {
		CXCursor tmpl = clang_getSpecializedCursorTemplate(c);
		CXCursor *inst = clang_Cursor_isNull(tmpl) || !cv_has_attr(c, CXCursor_CUDAGlobalAttr)
					 ? NULL : sm_arena_alloc(S->A, sizeof(*inst));
		if (inst) {
			*inst = clang_getCanonicalCursor(tmpl);
			cv_vec_push(S->A, &lc->kernel_insts, inst);
		}
		if (cv_has_attr(c, CXCursor_CUDAGlobalAttr) && lc->defer) {
			CXCursor *keep = sm_arena_alloc(S->A, sizeof(*keep));
			if (keep) {
				*keep = c;
				cv_vec_push(S->A, &lc->kernel_fns, keep);
			}
		} else if (cv_has_attr(c, CXCursor_CUDAGlobalAttr)) {
			struct sm_kernel *K = convert_kept(S, c, NULL);
			if (K)
				cv_cmap_put(&S->kernels, clang_getCanonicalCursor(c), K);
		} else if (cv_has_attr(c, CXCursor_CUDADeviceAttr)) {
			/* after the kernels: only if no kernel calls it */
			CXCursor *keep = sm_arena_alloc(S->A, sizeof(*keep));
			if (keep) {
				*keep = c;
				cv_vec_push(S->A, &lc->device_fns, keep);
			}
		}
		if (!cv_has_attr(c, CXCursor_CUDAGlobalAttr) && !cv_has_attr(c, CXCursor_CUDADeviceAttr))
			clang_visitChildren(c, launch_visit, d);
		else if (cv_has_attr(c, CXCursor_CUDAHostAttr))
			clang_visitChildren(c, launch_visit, d);
		return CXChildVisit_Continue;
	}
	return CXChildVisit_Continue;
}

static const char *template_args_text(struct fe *S, CXCursor spec)
{
	int n = clang_Cursor_getNumTemplateArguments(spec);
	if (n <= 0)
		return NULL;
	char buf[256];
	size_t len = 0;
	buf[len++] = '<';
	for (int i = 0; i < n && len < sizeof(buf) - 40; i++) {
		if (i)
			buf[len++] = ',';
		enum CXTemplateArgumentKind ak = clang_Cursor_getTemplateArgumentKind(spec, (unsigned)i);
		if (ak == CXTemplateArgumentKind_Integral) {
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%lld",
						clang_Cursor_getTemplateArgumentValue(spec, (unsigned)i));
		} else if (ak == CXTemplateArgumentKind_Type) {
			CXString s = clang_getTypeSpelling(clang_Cursor_getTemplateArgumentType(spec, (unsigned)i));
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s", clang_getCString(s));
			clang_disposeString(s);
		} else {
			buf[len++] = '?';
		}
		if (len >= sizeof(buf) - 40)
			break;
	}
	if (len < sizeof(buf) - 1)
		buf[len++] = '>';
	buf[len] = 0;
	return sm_arena_strdup(S->A, buf);
}

static void collect_notes(struct fe *S)
{
	unsigned n = clang_getNumDiagnostics(S->tu);
	struct vec notes = { 0 };
	if (cv_missing_scan(S)) {
		/* the one report of the missing headers, its message written
		 * once conversion has named what it left out (cv_convert_tu) */
		struct sm_note *mn = sm_arena_alloc(S->A, sizeof(*mn));
		if (mn) {
			mn->kind = SM_NOTE_MISSING_HEADER;
			mn->level = 1;
			mn->pos = S->miss.first;
			mn->message = "partly parsed: headers not found";
			cv_vec_push(S->A, &notes, mn);
		}
	}
	for (unsigned i = 0; i < n; i++) {
		CXDiagnostic d = clang_getDiagnostic(S->tu, i);
		enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
		if (sev >= CXDiagnostic_Error) {
			struct sm_note *note = sm_arena_alloc(S->A, sizeof(*note));
			if (note) {
				CXFile f = NULL;
				unsigned line = 0, col = 0;
				clang_getExpansionLocation(clang_getDiagnosticLocation(d), &f, &line, &col, NULL);
				note->level = 2;
				if (f && clang_File_isEqual(f, S->main_file)) {
					note->pos.line = line;
					note->pos.col = col;
					note->message = cv_cx_str(S->A, clang_getDiagnosticSpelling(d));
				} else {
					/* an error inside a header: "header:line:col: message",
					 * at the #include line of the main file that brings the
					 * header in, naming the headers in between (as clang's
					 * "In file included from") */
					const char *fn = f ? cv_cx_str(S->A, clang_getFileName(f)) : NULL;
					const char *msg = cv_cx_str(S->A, clang_getDiagnosticSpelling(d));
					const char *via = f ? cv_include_site(S->tu, f, S->A, &note->pos) : NULL;
					if (!fn)
						note->message = msg;
					else if (via)
						note->message = sm_arena_printf(S->A, "%s:%u:%u: %s (included from %s)", fn, line, col,
										msg, via);
					else
						note->message = sm_arena_printf(S->A, "%s:%u:%u: %s", fn, line, col, msg);
				}
				/* an error in host-only code: a warning; what nvcc
				 * accepts: a note */
				cv_host_code_note(S->tu, d, note, S->A);
				if (cv_nvcc_accepts_note(S->tu, d, note, S->A) || !S->miss.names.n)
					cv_vec_push(S->A, &notes, note);
				else
					S->miss.folded++; /* follows from a missing header */
			}
		}
		clang_disposeDiagnostic(d);
		if (notes.n >= 50 && !S->miss.names.n)
			break;
	}
	S->F->notes = sm_arena_alloc(S->A, (notes.n + 1) * sizeof(struct sm_note));
	if (S->F->notes) {
		for (unsigned i = 0; i < notes.n; i++)
			S->F->notes[i] = *(struct sm_note *)notes.v[i];
		S->F->nnotes = notes.n;
	}
}

static void apply_optin(struct sm_kernel *K, const struct pending_optin *po)
{
	if (po->value < 0)
		K->dyn_smem_optin = -1;
	else if (K->dyn_smem_optin >= 0 && po->value > K->dyn_smem_optin)
		K->dyn_smem_optin = po->value;
	if (!K->dyn_smem_optin_at.begin.line)
		K->dyn_smem_optin_at = po->at;
}

/* ---------- streamed conversion ---------- */

/* Pending launches or opt-ins (items of `all`) grouped by the canonical
 * cursor of the kernel they name, into m: cursor -> struct vec * (FA),
 * each group in the order of `all`. */
static void group_by_kernel(struct fe *S, struct cmap *m, const struct vec *all, bool optins)
{
	for (unsigned i = 0; i < all->n; i++) {
		CXCursor k = optins ? ((struct pending_optin *)all->v[i])->kernel
				    : ((struct pending_launch *)all->v[i])->kernel;
		k = clang_getCanonicalCursor(k);
		struct vec *g = cv_cmap_get(m, k);
		if (!g && (g = sm_arena_alloc(S->FA, sizeof(*g))) != NULL && cv_cmap_put(m, k, g) < 0)
			g = NULL;
		if (g)
			cv_vec_push(S->FA, g, all->v[i]);
	}
}

struct stream {
	struct cmap launches, optins; /* canonical kernel -> struct vec * */
	struct cmap done;             /* canonical kernel -> (void *)1 */
	const struct sm_kernel_stream *ks;
};

/* One kernel: converted into an arena of its own with its launches and
 * opt-ins, handed to ks (unless only_mark: then the conversion only marks
 * the helpers it inlines), then released with everything the conversion
 * kept for it (its arrays, variables and variable nodes). A template
 * specialization (tmpl) is named with its arguments. */
static void stream_one(struct fe *S, struct stream *st, CXCursor fn, bool tmpl, bool only_mark)
{
	CXCursor canon = clang_getCanonicalCursor(fn);
	(void)cv_cmap_put(&st->done, canon, (void *)1);
	struct sm_arena KA;
	sm_arena_init(&KA, S->FA->limit);
	struct vec saved_arrays = S->all_arrays;
	S->A = &KA;
	struct sm_kernel *K = convert_function(S, fn, tmpl ? template_args_text(S, fn) : NULL);
	const struct vec *ls = cv_cmap_get(&st->launches, canon), *os = cv_cmap_get(&st->optins, canon);
	if (K && ls && ls->n && (K->launches = sm_arena_alloc(&KA, ls->n * sizeof(*K->launches))) != NULL) {
		for (unsigned i = 0; i < ls->n; i++)
			K->launches[i] = ((struct pending_launch *)ls->v[i])->L;
		K->nlaunches = ls->n;
	}
	if (K)
		cv_bind_tensor_maps(K);
	for (unsigned i = 0; K && os && i < os->n; i++)
		apply_optin(K, os->v[i]);
	if (sm_arena_failed(&KA))
		S->F->ir_partial = true;
	if (K && !only_mark)
		st->ks->kernel(st->ks->ctx, S->F, K);
	/* what pointed into KA: no file-scope array exists when streaming,
	 * so every array in S->arrays is this kernel's */
	S->A = S->FA;
	S->all_arrays = saved_arrays;
	cv_cmap_free(&S->arrays);
	cv_cmap_free(&S->vars);
	free(S->refs);
	S->refs = NULL;
	S->nrefs = S->cap_refs = 0;
	sm_arena_release(&KA);
}

/* The kernels of a file that declares no file-scope __shared__ array,
 * one at a time (stream_one), in the order the whole-file conversion
 * converts them: the kernels as the file defines them, then the launched
 * specializations of kernel templates in launch order. A file of
 * thousands of kernels then holds one kernel's IR at a time. (A
 * file-scope array is shared: a later kernel's code may mark it, sizeof
 * or address taken, and the fix for an earlier kernel depends on it; such
 * a file is converted whole.) */
static void stream_kernels(struct fe *S, struct launch_ctx *lc, const struct sm_kernel_stream *ks)
{
	struct stream st;
	memset(&st, 0, sizeof(st));
	st.ks = ks;
	group_by_kernel(S, &st.launches, &lc->launches, false);
	group_by_kernel(S, &st.optins, &lc->optins, true);
	for (unsigned i = 0; i < lc->kernel_fns.n; i++)
		stream_one(S, &st, *(CXCursor *)lc->kernel_fns.v[i], false, false);
	for (unsigned i = 0; i < lc->launches.n; i++) {
		CXCursor k = ((struct pending_launch *)lc->launches.v[i])->kernel;
		if (cv_cmap_get(&st.done, clang_getCanonicalCursor(k)))
			continue;
		CXCursor tmpl = clang_getSpecializedCursorTemplate(k);
		if (clang_Cursor_isNull(tmpl) || !cv_in_converted_file(S, tmpl) || !cv_has_attr(k, CXCursor_CUDAGlobalAttr))
			continue;
		stream_one(S, &st, k, true, false);
	}
	/* __device__ functions no kernel inlines, analyzed on their own, as
	 * the whole-file conversion picks them: each one not inlined so far
	 * is converted (marking its own helpers), and those no other one
	 * inlined either are analyzed. Streamed, that takes two passes: the
	 * first only marks (each candidate converted and released), the
	 * second converts and hands over the ones left unmarked. */
	struct vec cands = { 0 };
	for (unsigned i = 0; i < lc->device_fns.n; i++) {
		CXCursor *c = lc->device_fns.v[i];
		if (cv_cmap_get(&S->inlined, clang_getCanonicalCursor(*c)))
			continue;
		stream_one(S, &st, *c, false, true);
		cv_vec_push(S->FA, &cands, c);
	}
	for (unsigned i = 0; i < cands.n; i++) {
		CXCursor c = *(CXCursor *)cands.v[i];
		if (!cv_cmap_get(&S->inlined, clang_getCanonicalCursor(c)))
			stream_one(S, &st, c, false, false);
	}
	cv_cmap_free(&st.launches);
	cv_cmap_free(&st.optins);
	cv_cmap_free(&st.done);
}

/* A kernel template is analyzed only as the specializations the file's
 * launches name (a template's code, with its parameters unknown, is not
 * analyzed), and as its explicit instantiations and specializations
 * (`template __global__ void k<1>(float *);`). One that neither names
 * was not analyzed at all: a note
 * says so (kernel-template-not-analyzed), so that a clean run does not
 * read as a clean kernel. Its launches are typically in host code that
 * did not parse (a missing library header: the note then says so), in
 * another file, or in a host template nothing instantiates. */
static void template_not_launched(struct fe *S, const struct launch_ctx *lc)
{
	bool errors = false;
	for (unsigned i = 0; i < S->F->nnotes && !errors; i++) /* clang's (collect_notes) */
		errors = S->F->notes[i].kind == SM_NOTE_CLANG || S->F->notes[i].kind == SM_NOTE_HOST_CLANG ||
			 S->F->notes[i].kind == SM_NOTE_MISSING_HEADER;
	for (unsigned i = 0; i < lc->kernel_tmpls.n; i++) {
		CXCursor t = clang_getCanonicalCursor(*(CXCursor *)lc->kernel_tmpls.v[i]);
		bool launched = false;
		for (unsigned j = 0; j < lc->launches.n && !launched; j++) {
			CXCursor sp = clang_getSpecializedCursorTemplate(((struct pending_launch *)lc->launches.v[j])->kernel);
			launched = !clang_Cursor_isNull(sp) && clang_equalCursors(clang_getCanonicalCursor(sp), t);
		}
		for (unsigned j = 0; j < lc->kernel_insts.n && !launched; j++)
			launched = clang_equalCursors(*(CXCursor *)lc->kernel_insts.v[j], t);
		if (launched)
			continue;
		const char *name = cv_cx_str(S->A, clang_getCursorSpelling(t));
		char msg[512];
		snprintf(msg, sizeof(msg),
			 "kernel template '%s' not analyzed: no launch in this file names its template arguments%s; "
			 "lint the file that launches it, or make that launch's code parse",
			 name, errors ? " (its launches may be in code that did not parse)" : "");
		cv_note(S, SM_NOTE_TEMPLATE, 0, *(CXCursor *)lc->kernel_tmpls.v[i], msg);
	}
}

void cv_convert_tu(CXTranslationUnit tu, const char *path, const struct sm_frontend_options *opt, struct sm_file *F,
		   struct sm_arena *A, const struct sm_kernel_stream *ks)
{
	struct fe S;
	memset(&S, 0, sizeof(S));
	S.tu = tu;
	S.A = A;
	S.FA = A;
	S.F = F;
	S.header_filter = opt ? opt->header_filter : NULL;
	char toolkit_real[PATH_MAX];
	S.toolkit = opt ? opt->cuda_path : NULL;
	if (S.toolkit && realpath(S.toolkit, toolkit_real))
		S.toolkit = toolkit_real; /* /usr/local/cuda is often a link */
	S.main_file = clang_getFile(tu, path);
	S.stack_floor = sm_stack_floor((size_t)1 << 20);
	S.conv_call = cv_conv_call; /* expressions reach calls through it */
	S.on_assign = cv_local_elems_assigned; /* local array elements hear of assignments */
	collect_notes(&S);

	struct launch_ctx lc;
	memset(&lc, 0, sizeof(lc));
	lc.S = &S;
	lc.defer = ks && ks->kernel;
	clang_visitChildren(clang_getTranslationUnitCursor(tu), top_visit, &lc);
	bool stream = lc.defer && S.all_arrays.n == 0;
	for (unsigned i = 0; lc.defer && !stream && i < lc.kernel_fns.n; i++) {
		CXCursor c = *(CXCursor *)lc.kernel_fns.v[i];
		struct sm_kernel *K = convert_kept(&S, c, NULL);
		if (K)
			cv_cmap_put(&S.kernels, clang_getCanonicalCursor(c), K);
	}
	if (stream)
		stream_kernels(&S, &lc, ks);

	/* attach launches; convert template specializations that are launched */
	for (unsigned i = 0; !stream && i < lc.launches.n; i++) {
		struct pending_launch *pl = lc.launches.v[i];
		CXCursor canon = clang_getCanonicalCursor(pl->kernel);
		struct sm_kernel *K = cv_cmap_get(&S.kernels, canon);
		if (!K) {
			CXCursor tmpl = clang_getSpecializedCursorTemplate(pl->kernel);
			if (clang_Cursor_isNull(tmpl) || !cv_in_converted_file(&S, tmpl))
				continue;
			if (!cv_has_attr(pl->kernel, CXCursor_CUDAGlobalAttr))
				continue;
			K = convert_kept(&S, pl->kernel, template_args_text(&S, pl->kernel));
			if (!K)
				continue;
			cv_cmap_put(&S.kernels, canon, K);
		}
		struct sm_launch *nl = sm_arena_alloc(A, (K->nlaunches + 1) * sizeof(*nl));
		if (!nl)
			continue;
		if (K->nlaunches)
			memcpy(nl, K->launches, K->nlaunches * sizeof(*nl));
		nl[K->nlaunches] = pl->L;
		K->launches = nl;
		K->nlaunches++;
	}
	for (unsigned i = 0; !stream && i < S.all_kernels.n; i++)
		cv_bind_tensor_maps(S.all_kernels.v[i]);
	/* the dynamic shared-memory opt-ins, on the kernels they name */
	for (unsigned i = 0; i < lc.optins.n; i++) {
		struct pending_optin *po = lc.optins.v[i];
		struct sm_kernel *K = cv_cmap_get(&S.kernels, clang_getCanonicalCursor(po->kernel));
		if (K)
			apply_optin(K, po);
	}
	/* __device__ functions no kernel calls: analyzed on their own (one that
	 * another of them inlines is marked below) */
	for (unsigned i = 0; !stream && i < lc.device_fns.n; i++) {
		CXCursor c = *(CXCursor *)lc.device_fns.v[i];
		CXCursor canon = clang_getCanonicalCursor(c);
		if (cv_cmap_get(&S.inlined, canon))
			continue;
		struct sm_kernel *K = convert_kept(&S, c, NULL);
		if (K)
			cv_cmap_put(&S.kernels, canon, K);
	}
	/* a __device__ function inlined into a kernel is analyzed there */
	for (unsigned i = 0; i < S.kernels.cap; i++) {
		struct cmap_ent *e = &S.kernels.e[i];
		struct sm_kernel *K = e->used ? e->val : NULL;
		if (K && K->kind == SM_F_DEVICE && cv_cmap_get(&S.inlined, e->key))
			K->inlined = true;
	}
	template_not_launched(&S, &lc);
	/* calls not followed */
	for (unsigned i = 0; i < F->nnotes; i++)
		if (F->notes[i].kind == SM_NOTE_MISSING_HEADER) {
			const char *m = cv_missing_message(&S);
			if (m)
				F->notes[i].message = m;
		}
	if (S.notes.n) {
		struct sm_note *nn = sm_arena_alloc(A, (F->nnotes + S.notes.n) * sizeof(*nn));
		if (nn) {
			if (F->nnotes)
				memcpy(nn, F->notes, F->nnotes * sizeof(*nn));
			for (unsigned i = 0; i < S.notes.n; i++)
				nn[F->nnotes + i] = *(struct sm_note *)S.notes.v[i];
			F->notes = nn;
			F->nnotes += S.notes.n;
		}
	}
	unsigned nk = 0;
	for (unsigned i = 0; i < S.all_kernels.n; i++) {
		struct sm_kernel *K = S.all_kernels.v[i];
		if (!K->inlined)
			S.all_kernels.v[nk++] = K;
	}
	F->kernels = (struct sm_kernel **)S.all_kernels.v;
	F->nkernels = nk;
	F->arrays = (struct sm_array **)S.all_arrays.v;
	F->narrays = S.all_arrays.n;
	if (S.too_deep && F->nnotes < 50) {
		struct sm_note *nn = sm_arena_alloc(A, (F->nnotes + 1) * sizeof(*nn));
		if (nn) {
			memcpy(nn, F->notes, F->nnotes * sizeof(*nn));
			nn[F->nnotes].kind = SM_NOTE_TOO_DEEP;
			nn[F->nnotes].level = 1;
			nn[F->nnotes].message = "expression nesting too deep: the innermost part was not analyzed";
			F->notes = nn;
			F->nnotes++;
		}
	}
	cv_tokens_free(&S);
	cv_cmap_free(&S.arrays);
	cv_cmap_free(&S.vars);
	cv_cmap_free(&S.kernels);
	cv_cmap_free(&S.inlined);
	cv_cmap_free(&S.butterflies);
	cv_cmap_free(&S.consts);
	cv_cmap_free(&lc.inst_seen);
	cv_written_free(&S);
}
