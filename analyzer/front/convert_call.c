/* convert_call.c - calls: modelled device calls, and __device__ calls
 * inlined at their call sites.
 *
 * cv_conv_call is where every call expression goes (fe.conv_call). Calls
 * are modelled by name, one line each in device_calls[]: barriers
 * (__syncthreads and friends, __syncwarp, cooperative groups' sync),
 * atomics, min/max, __mul24, __brev, thread_rank, __builtin_assume. Then
 * a call of a __device__ function of the program is inlined; failing
 * that, the lines marked unless_followed apply (a class type's operator=
 * on a shared element is a store; clock, shuffles, ballots and the lane
 * id give a per-thread value; cooperative groups' ranks and sizes, and
 * the one value a tile's collective gives its threads, below); a
 * function of the toolkit's whose arguments are all values is a pure
 * function of them (pure_call); a struct's copy and assignment carry its
 * value (struct_value, convert_decl.c's struct values), and what is left
 * is an OPAQUE_CALL whose arguments are evaluated.
 *
 * Shared memory reaches helpers through pointer and reference parameters,
 * through helpers that return a shared pointer (the SharedMemory<T>
 * idiom), and through __shared__ arrays a helper declares itself. The
 * analysis follows every call of a __device__ function of the program
 * (not of the CUDA headers) by converting the callee's body again at each
 * call site, in the caller's statement tree:
 *
 *   SM_S_CALL { DECL param_i = arg_i ...; callee body; }  ASSIGN out = param
 *
 * so the engine sees the callee under the caller's bindings, guards,
 * loops and block shape, with no separate model of calls. Parameters are
 * fresh variables of the kernel. A by-value parameter takes the argument's
 * value; a pointer parameter its pointer (shared or not); a reference
 * parameter bound to a shared location (`uint &a` called with s[i])
 * becomes a reference into shared memory, whose every use is an access;
 * a reference bound to a caller's variable copies its value in and back
 * out; a method called on a shared object gets `this` pointing at it, so
 * its member accesses are shared accesses; a cooperative group passed
 * for a parameter (`void f(cg::thread_group g)` called with a tile or the
 * block) gives the parameter the argument's scope, so g.sync() in the
 * callee is a barrier of that scope (barrier_scope.c). `return v;` stores
 * v in the call's result variable and leaves the innermost SM_S_CALL. A
 * callee defined in a header is converted the same way, but its positions
 * are those of the call in the analyzed file. cv_inline_call goes through
 * the steps in order: may_follow, new_site, bind_args (in the caller),
 * enter_callee, declare_params, the body (cv_conv_block), leave_callee,
 * emit_call.
 *
 * Bounds: recursion is never followed, nor are chains deeper than
 * SM_MAX_CALL_DEPTH, nor calls once a kernel holds SM_INLINE_MAX_ACCESSES
 * accesses; each such call is left opaque with a note (call-not-followed).
 */
#include "front/convert.h"
#include "front/missing_headers.h"

#include <stdio.h>
#include <string.h>

static int param_is_ref(CXCursor p)
{
	enum CXTypeKind tk = clang_getCanonicalType(clang_getCursorType(p)).kind;
	return tk == CXType_LValueReference || tk == CXType_RValueReference;
}

/* A reference parameter bound to a variable of the caller: its value
 * flows back when the call returns. */
static struct sm_var *caller_var(struct fe *S, const struct cmap *caller_scope, CXCursor arg)
{
	CXCursor a = cv_strip(arg);
	if (clang_getCursorKind(a) != CXCursor_DeclRefExpr)
		return cv_local_elem_target(S, a); /* mad(sumf[j], x, y): an element of a local array */
	struct sm_var *v = cv_cmap_get(caller_scope, clang_getCursorReferenced(a));
	return v && !v->is_ref ? v : NULL;
}

static struct sm_stmt *mk_decl(struct fe *S, struct sm_var *v, struct sm_expr *val, CXCursor at)
{
	struct sm_stmt *s = cv_mk_stmt(S, SM_S_DECL, at);
	if (s) {
		s->var = v;
		s->value = val;
	}
	return s;
}

/* A variable of the kernel that no declaration names: a call's result
 * or a method's `this`. pointee: its type when it is a pointer. */
static struct sm_var *synthetic_var(struct fe *S, const char *name, CXType type)
{
	bool p = type.kind == CXType_Pointer;
	long long s = p ? clang_Type_getSizeOf(clang_getPointeeType(type)) : 0;
	return cv_synthetic_var(S, name, p, s > 0 ? (unsigned)s : 1);
}

static struct sm_var *result_var(struct fe *S, CXCursor def, const char *callee)
{
	CXType rt = clang_getCanonicalType(clang_getCursorResultType(def));
	if (rt.kind == CXType_Void || rt.kind == CXType_Invalid)
		return NULL;
	return synthetic_var(S, sm_arena_printf(S->A, "%s()", callee), rt);
}

static int not_followed(struct fe *S, CXCursor c, const char *callee, const char *why)
{
	char msg[512];
	snprintf(msg, sizeof(msg), "call to '%s' not followed: %s; the shared accesses inside it are not analyzed here",
		 callee, why);
	cv_note(S, SM_NOTE_CALL, 0, c, msg);
	return 0;
}

/* How a parameter is bound, worked out in the caller's scope and block. */
struct binding {
	struct sm_expr *val;  /* the argument's value (its address for a shared reference), or NULL */
	struct sm_var *back;  /* a reference to this variable of the caller: copied back after */
	bool shared_ref;      /* a reference bound to a shared location */
	bool is_group;        /* a cooperative group whose scope is known: group */
	struct cv_group group;
};

/* What the callee's conversion replaces in S, restored after it. */
struct caller_state {
	struct cmap vars, groups;
	const struct sm_callsite *call;
	struct sm_var *ret_var, *this_var, *this_obj;
	bool in_header;
	struct vec *block;
};

/* One call being inlined. */
struct inlining {
	CXCursor c, def;            /* the call, the callee's definition */
	CXCursor canon;             /* the callee's canonical cursor (recursion, S->inlined) */
	const char *callee;         /* its name */
	int depth;                  /* calls being inlined around this one */
	int nparams, nargs;         /* of the definition, of the call */
	struct sm_callsite *site;   /* what the callee's statements and accesses point at */
	struct binding *bind;       /* nparams + 1 bindings, worked out in the caller */
	struct sm_expr *this_val;   /* the shared object a method is called on, or NULL */
	struct sm_expr *this_obj;   /* the value of another object it is called on, or NULL */
	struct sm_var **params;     /* the callee's parameters as variables of the kernel */
	struct vec body;            /* the callee's statements */
};

/* 1 when the call may be followed; else 0 and a note says why not. */
static int may_follow(struct fe *S, const struct inlining *in)
{
	for (int i = 0; i < in->depth && i < SM_MAX_CALL_DEPTH; i++)
		if (clang_equalCursors(S->callee_stack[i], in->canon))
			return not_followed(S, in->c, in->callee, "it is recursive");
	if (in->depth >= SM_MAX_CALL_DEPTH)
		return not_followed(S, in->c, in->callee, "the call chain is deeper than SM_MAX_CALL_DEPTH (16)");
	if (cv_missing_taints(S, in->def)) {
		/* it rests on a missing header's declarations: so does the
		 * function being converted (missing_headers.h) */
		S->miss.tainted = true;
		return 0;
	}
	if (S->naccess >= SM_INLINE_MAX_ACCESSES)
		return not_followed(S, in->c, in->callee,
				    "the kernel already holds SM_INLINE_MAX_ACCESSES (20000) accesses");
	return 1;
}

static struct sm_callsite *new_site(struct fe *S, const struct inlining *in)
{
	struct sm_callsite *site = sm_arena_alloc(S->A, sizeof(*site));
	if (!site)
		return NULL;
	site->callee = in->callee;
	site->caller = S->call ? S->call->callee : S->K->name;
	site->range = S->in_header && S->call ? S->call->range : cv_range_of(S, in->c);
	/* a callee in the file or a converted project header is converted at
	 * its own positions; one elsewhere (toolkit, filtered out) at this call */
	site->callee_in_file = cv_in_converted_file(S, in->def);
	site->depth = in->depth + 1;
	site->parent = S->call;
	return site;
}

/* The arguments, converted in the caller's scope and block: a value, a
 * pointer, a reference to shared memory or to a caller's variable, a
 * cooperative group's scope. */
static void bind_args(struct fe *S, struct inlining *in)
{
	for (int i = 0; i < in->nparams && i < in->nargs; i++) {
		CXCursor p = clang_Cursor_getArgument(in->def, (unsigned)i);
		CXCursor a = clang_Cursor_getArgument(in->c, (unsigned)i);
		struct binding *b = &in->bind[i];
		if (cv_is_group_param(S, p) && cv_group_info(S, a, &b->group))
			b->is_group = true;
		if (param_is_ref(p)) {
			if (cv_is_shared_lvalue(S, a)) {
				b->val = cv_address_of(S, a);
				b->shared_ref = b->val != NULL;
			} else {
				b->back = caller_var(S, &S->vars, a);
				b->val = cv_conv_expr(S, a);
			}
		} else {
			b->val = cv_conv_expr(S, a); /* a struct by value: its value */
		}
	}
}

/* The object a call of a non-static method is made on: 1 with *obj the
 * object expression (o.f(), this->f()), 0 for f() inside a method (on
 * `this`), -1 when c is no such call. */
static int method_object(CXCursor c, CXCursor def, CXCursor *obj)
{
	if (clang_getCursorKind(def) != CXCursor_CXXMethod || clang_CXXMethod_isStatic(def))
		return -1;
	struct kids ck = cv_kids_of(c);
	if (ck.n < 1 || clang_getCursorKind(ck.c[0]) != CXCursor_MemberRefExpr)
		return -1;
	struct kids mk = cv_kids_of(ck.c[0]);
	if (mk.n > 1)
		return -1;
	if (mk.n == 1)
		*obj = mk.c[0];
	return mk.n;
}

/* A method called on a shared object (t.put(i, j, x) with __shared__
 * Tile t): the address `this` takes, else NULL. */
static struct sm_expr *this_object(struct fe *S, CXCursor c, CXCursor def)
{
	CXCursor o;
	if (method_object(c, def, &o) != 1)
		return NULL;
	if (cv_is_shared_lvalue(S, o))
		return cv_address_of(S, o);
	if (clang_getCursorKind(cv_strip(o)) == CXCursor_CXXThisExpr && S->this_var)
		return cv_var_ref(S, c, S->this_var); /* this->other() */
	return NULL;
}

/* A method called on an object not in shared memory (node.count() with
 * node a local, a parameter, a reference into global memory; this->f()
 * or f() inside such a method): the object's value, else NULL (its
 * members are then per-thread unknowns). Converted in the caller. */
static struct sm_expr *object_value(struct fe *S, CXCursor c, CXCursor def)
{
	CXCursor o;
	int on = method_object(c, def, &o);
	if (on < 0)
		return NULL;
	if (on == 0 || clang_getCursorKind(cv_strip(o)) == CXCursor_CXXThisExpr)
		return S->this_obj ? cv_var_ref(S, c, S->this_obj) : NULL;
	if (cv_is_shared_lvalue(S, o))
		return NULL;
	o = cv_strip(o);
	enum CXCursorKind k = clang_getCursorKind(o);
	if (clang_getCanonicalType(clang_getCursorType(o)).kind != CXType_Record ||
	    (k != CXCursor_DeclRefExpr && k != CXCursor_MemberRefExpr && k != CXCursor_ArraySubscriptExpr))
		return NULL;
	return cv_conv_expr(S, o);
}

/* Enter the callee's scope: its own variables and groups, its return
 * variable, its `this`, its statements going to in->body. */
static void enter_callee(struct fe *S, struct inlining *in, struct caller_state *saved)
{
	*saved = (struct caller_state){ S->vars, S->groups, S->call, S->ret_var, S->this_var, S->this_obj, S->in_header,
					S->block };
	memset(&S->vars, 0, sizeof(S->vars));
	memset(&S->groups, 0, sizeof(S->groups));
	for (int i = 0; i < in->nparams && i < in->nargs; i++)
		if (in->bind[i].is_group)
			(void)cv_cmap_put(&S->groups, clang_Cursor_getArgument(in->def, (unsigned)i), &in->bind[i].group);
	S->block = &in->body;
	S->callee_stack[in->depth] = in->canon;
	S->call_stack[in->depth] = in->c;
	S->call = in->site;
	S->in_header = saved->in_header || !in->site->callee_in_file;
	S->ret_var = result_var(S, in->def, in->callee);
	/* declared at the call: a loop around the call gives it its value in
	 * each iteration, never the previous iteration's (engine/resolve.c) */
	if (S->ret_var)
		cv_emit(S, mk_decl(S, S->ret_var, NULL, in->c));
	S->this_var = NULL;
	S->this_obj = NULL;
	if (in->this_obj) {
		CXType none = { .kind = CXType_Invalid };
		struct sm_var *ov = synthetic_var(S, "*this", none);
		if (ov) {
			cv_emit(S, mk_decl(S, ov, in->this_obj, in->c));
			S->this_obj = ov;
		}
	}
	if (in->this_val) {
		/* held as a byte pointer: members add their byte offsets */
		CXType none = { .kind = CXType_Invalid };
		struct sm_var *tv = synthetic_var(S, "this", none);
		if (tv) {
			tv->is_pointer = tv->points_shared = true;
			tv->pointee_size = 1;
			cv_emit(S, mk_decl(S, tv, in->this_val, in->c));
			S->this_var = tv;
		}
	}
}

static void leave_callee(struct fe *S, const struct caller_state *saved)
{
	cv_cmap_free(&S->vars);
	S->vars = saved->vars;
	cv_cmap_free(&S->groups);
	S->groups = saved->groups;
	S->call = saved->call;
	S->ret_var = saved->ret_var;
	S->this_var = saved->this_var;
	S->this_obj = saved->this_obj;
	S->in_header = saved->in_header;
	S->block = saved->block;
}

/* The parameters become variables of the kernel declared with the
 * arguments' values; a shared reference is a reference into shared
 * memory, a pointer or integer given a shared address points into it
 * (cv_var_takes), as a local variable would. */
static void declare_params(struct fe *S, struct inlining *in)
{
	in->params = sm_arena_alloc(S->A, ((size_t)in->nparams + 1) * sizeof(*in->params));
	for (int i = 0; in->params && i < in->nparams; i++) {
		CXCursor p = clang_Cursor_getArgument(in->def, (unsigned)i);
		const struct binding *b = &in->bind[i];
		struct sm_var *v = cv_make_var(S, p, SM_V_LOCAL);
		if (!v)
			continue;
		in->params[i] = v;
		if (b->shared_ref) {
			long long sz = clang_Type_getSizeOf(clang_getPointeeType(clang_getCanonicalType(clang_getCursorType(p))));
			v->is_ref = v->is_pointer = v->points_shared = true;
			v->pointee_size = sz > 0 ? (unsigned)sz : 1;
		} else if (v->is_pointer || cv_type_is_integer(clang_getCursorType(p))) {
			/* a pointer given a shared pointer, an integer given a
			 * shared address (a cvta'd operand of an asm helper),
			 * another block's pointer (map_shared_rank); a struct
			 * passed by value is a value, not a place */
			cv_var_takes(v, b->val);
		}
		cv_emit(S, mk_decl(S, v, b->val, p));
	}
}

/* SM_S_CALL { BLOCK body } in the caller's block, then the values of
 * references to the caller's variables copied back. 0 out of memory. */
static int emit_call(struct fe *S, const struct inlining *in)
{
	struct sm_stmt *blk = cv_mk_stmt(S, SM_S_BLOCK, in->c);
	struct sm_stmt *call = cv_mk_stmt(S, SM_S_CALL, in->c);
	if (!blk || !call)
		return 0;
	blk->kids = (struct sm_stmt **)in->body.v;
	blk->nkids = (int)in->body.n;
	blk->call = in->site;
	call->kids = sm_arena_alloc(S->A, sizeof(*call->kids));
	if (!call->kids)
		return 0;
	call->kids[0] = blk;
	call->nkids = 1;
	call->call = in->site;
	cv_emit(S, call);
	for (int i = 0; in->params && i < in->nparams && i < in->nargs; i++) {
		if (!in->bind[i].back || !in->params[i])
			continue;
		struct sm_stmt *s = cv_mk_stmt(S, SM_S_ASSIGN, in->c);
		if (!s)
			break;
		s->var = in->bind[i].back;
		s->op = SM_OP_ASSIGN;
		s->value = cv_var_ref(S, in->c, in->params[i]);
		cv_emit(S, s);
	}
	return 1;
}

struct sm_expr *cv_inline_call(struct fe *S, CXCursor c, CXCursor def)
{
	struct inlining in = { .c = c, .def = def, .canon = clang_getCanonicalCursor(def) };
	in.callee = cv_cx_str(S->A, clang_getCursorSpelling(def));
	in.depth = S->call ? S->call->depth : 0;
	if (!may_follow(S, &in))
		return NULL;
	in.site = new_site(S, &in);
	if (!in.site)
		return NULL;
	in.nparams = clang_Cursor_getNumArguments(def);
	in.nargs = clang_Cursor_getNumArguments(c);
	if (in.nparams < 0)
		in.nparams = 0;
	in.bind = sm_arena_alloc(S->A, ((size_t)in.nparams + 1) * sizeof(*in.bind));
	if (!in.bind)
		return NULL;
	bind_args(S, &in);
	in.this_val = this_object(S, c, def);
	in.this_obj = in.this_val ? NULL : object_value(S, c, def);
	bool ctor = clang_getCursorKind(def) == CXCursor_Constructor;
	if (!in.this_val && !in.this_obj && ctor) /* `Sched sc(n, blockIdx.x)`: built from alike bytes */
		in.this_obj = cv_opaque(S, c, "object under construction", 0);

	struct caller_state saved;
	enter_callee(S, &in, &saved);
	declare_params(S, &in);
	if (ctor)
		cv_ctor_inits(S, def);
	cv_emit(S, cv_conv_block(S, cv_body_of(def)));
	struct sm_var *ret = S->ret_var;
	struct sm_var *self = S->this_obj; /* the object after the body */
	leave_callee(S, &saved);

	if (!emit_call(S, &in))
		return NULL;
	cv_cmap_put(&S->inlined, in.canon, (void *)1);
	S->inlined_this = self;
	S->inlined_this_call = c;
	if (ret || (ctor && self)) /* its result, or the object it built */
		return cv_var_ref(S, c, ret ? ret : self);
	return cv_opaque(S, c, in.callee, 1);
}

/* ---------- the device calls smemlint models ---------- */

typedef struct sm_expr *call_conv(struct fe *S, const struct cv_call *k);

/* A modelled device call or intrinsic: one line of device_calls[]. */
struct device_call {
	const char *name;              /* the callee's spelling; "atomic*" matches a prefix */
	int nargs;                     /* the arity modelled (-1 any); another is an ordinary call */
	call_conv *conv;               /* converts the call */
	bool unless_followed;          /* only when no __device__ function of the program
	                                * is followed instead (cv_inline_call) */
	enum sm_barrier_kind barrier;  /* conv_barrier: the kind of barrier */
	enum sm_op op;                 /* conv_binary: the operator */
};

static struct sm_expr *conv_barrier(struct fe *S, const struct cv_call *k);
static struct sm_expr *conv_atomic(struct fe *S, const struct cv_call *k);
static struct sm_expr *conv_binary(struct fe *S, const struct cv_call *k);
static struct sm_expr *conv_brev(struct fe *S, const struct cv_call *k);
static struct sm_expr *conv_thread_rank(struct fe *S, const struct cv_call *k);
static struct sm_expr *conv_assume(struct fe *S, const struct cv_call *k);
static struct sm_expr *conv_operator(struct fe *S, const struct cv_call *k);
static struct sm_expr *conv_per_thread(struct fe *S, const struct cv_call *k);
static struct sm_expr *opaque_call(struct fe *S, const struct cv_call *k, int per_thread);
static struct sm_expr *conv_wmma(struct fe *S, const struct cv_call *k);
static struct sm_expr *conv_meta_group_rank(struct fe *S, const struct cv_call *k);
static struct sm_expr *conv_meta_group_size(struct fe *S, const struct cv_call *k);
static struct sm_expr *conv_group_size(struct fe *S, const struct cv_call *k);
static struct sm_expr *conv_tile_collective(struct fe *S, const struct cv_call *k);
static struct sm_expr *conv_ldg(struct fe *S, const struct cv_call *k);

#define BARRIER(n, kind) { n, -1, conv_barrier, false, kind, SM_OP_ADD }
#define BINARY(n, op) { n, 2, conv_binary, false, SM_BAR_SYNCTHREADS, op }
#define CALL(n, arity, conv) { n, arity, conv, false, SM_BAR_SYNCTHREADS, SM_OP_ADD }
#define UNLESS_FOLLOWED(n, conv) { n, -1, conv, true, SM_BAR_SYNCTHREADS, SM_OP_ADD }

/* One line per modelled call: its name, how it is converted (with its
 * barrier kind or operator), and what it models. A call is spelled by
 * its unqualified name (std::min is "min"). */
static const struct device_call device_calls[] = {
	BARRIER("__syncthreads", SM_BAR_SYNCTHREADS),          /* block barrier */
	BARRIER("__syncthreads_count", SM_BAR_SYNCTHREADS_OP), /* block barrier with a block-uniform value */
	BARRIER("__syncthreads_and", SM_BAR_SYNCTHREADS_OP),   /* the same */
	BARRIER("__syncthreads_or", SM_BAR_SYNCTHREADS_OP),    /* the same */
	BARRIER("__barrier_sync", SM_BAR_SYNCTHREADS_OP),      /* the same */
	BARRIER("barrier_sync", SM_BAR_SYNCTHREADS_OP),        /* the same */
	BARRIER("__syncwarp", SM_BAR_SYNCWARP),                /* barrier of the lanes of its mask */
	BARRIER("sync", SM_BAR_CG_SYNC),                       /* g.sync(), cg::sync(g): the group's barrier */
	BARRIER("barrier_wait", SM_BAR_CG_SYNC),               /* cluster.barrier_wait(token): the wait of the split barrier */
	CALL("atomic*", -1, conv_atomic),                      /* atomic access of its first argument */
	BINARY("min", SM_OP_MIN),                              /* integer minimum */
	BINARY("umin", SM_OP_MIN),                             /* the same, unsigned */
	BINARY("max", SM_OP_MAX),                              /* integer maximum */
	BINARY("umax", SM_OP_MAX),                             /* the same, unsigned */
	BINARY("__mul24", SM_OP_MUL),                          /* product of the low 24 bits */
	BINARY("__umul24", SM_OP_MUL),                         /* the same, unsigned */
	CALL("__brev", 1, conv_brev),                          /* bit reversal of 32 bits */
	CALL("thread_rank", -1, conv_thread_rank),             /* a block's or tile's linear thread id */
	UNLESS_FOLLOWED("meta_group_rank", conv_meta_group_rank), /* a tile's index in its parent: lin / N */
	UNLESS_FOLLOWED("meta_group_size", conv_meta_group_size), /* tiles in the parent: ceil(threads / N) */
	UNLESS_FOLLOWED("num_threads", conv_group_size),       /* a block's thread count, a tile's size N */
	UNLESS_FOLLOWED("size", conv_group_size),              /* the same */
	UNLESS_FOLLOWED("reduce", conv_tile_collective),       /* cg::reduce(tile, v, op): one value per tile */
	UNLESS_FOLLOWED("any", conv_tile_collective),          /* tile.any(p): the same */
	UNLESS_FOLLOWED("all", conv_tile_collective),          /* tile.all(p): the same */
	UNLESS_FOLLOWED("ballot", conv_tile_collective),       /* tile.ballot(p): the same */
	UNLESS_FOLLOWED("shfl", conv_tile_collective),         /* tile.shfl(v, 0): the same, for a constant lane */
	CALL("__builtin_assume", 1, conv_assume),              /* a fact: n == 2 from here on */
	CALL("__ldg", 1, conv_ldg),                            /* a global load through the read-only cache */
	CALL("__ldca", 1, conv_ldg),                           /* a global load, cached at every level */
	CALL("__ldcg", 1, conv_ldg),                           /* a global load, cached in L2 */
	CALL("__ldcs", 1, conv_ldg),                           /* a global load, streaming */
	CALL("__ldlu", 1, conv_ldg),                           /* a global load, last use */
	CALL("__ldcv", 1, conv_ldg),                           /* a global load, not cached */
	UNLESS_FOLLOWED("operator*", conv_operator),           /* s[i] = v, s[i] += v of a class type */
	UNLESS_FOLLOWED("clock", conv_per_thread),             /* a value that differs per thread */
	UNLESS_FOLLOWED("clock64", conv_per_thread),           /* the same */
	UNLESS_FOLLOWED("__shfl_sync", cv_conv_shfl_sync),     /* one value per warp: full mask, constant lane */
	UNLESS_FOLLOWED("__shfl*", conv_per_thread),           /* a value that differs per thread */
	UNLESS_FOLLOWED("__reduce_*", cv_conv_warp_collective),/* __reduce_add_sync(0xffffffff, v): one per warp */
	UNLESS_FOLLOWED("__all_sync", cv_conv_warp_collective),/* the same */
	UNLESS_FOLLOWED("__any_sync", cv_conv_warp_collective),/* the same */
	UNLESS_FOLLOWED("__ballot_sync", cv_conv_warp_collective),/* the same */
	UNLESS_FOLLOWED("__uni_sync", cv_conv_warp_collective),   /* the same */
	UNLESS_FOLLOWED("__ballot*", conv_per_thread),         /* a value that differs per thread */
	UNLESS_FOLLOWED("__activemask", conv_per_thread),      /* the same */
	UNLESS_FOLLOWED("__lane_id", conv_per_thread),         /* the same */
	UNLESS_FOLLOWED("__match_*", conv_per_thread),         /* the lanes holding the same value: per warp */
	CALL("__cvta_generic_to_shared", 1, cv_conv_cvta_shared), /* p as a byte address in the shared window */
	CALL("map_shared_rank", 2, cv_conv_map_shared_rank),  /* cluster.map_shared_rank(p, r): p in block r's shared memory */
	CALL("__pipeline_memcpy_async", -1, cv_conv_pipeline_memcpy), /* cp.async: an asynchronous store of 4/8/16 bytes */
	CALL("__pipeline_commit", 0, cv_conv_pipeline_commit), /* closes a commit group of copies */
	CALL("__pipeline_wait_prior", 1, cv_conv_pipeline_wait), /* completes all but the n newest groups */
	UNLESS_FOLLOWED("memcpy_async", cv_conv_cuda_memcpy_async), /* cuda::memcpy_async(dst, src, size, pipe|barrier) */
	UNLESS_FOLLOWED("producer_commit", cv_conv_pipe_commit), /* a thread-scope pipeline's stage is committed */
	UNLESS_FOLLOWED("consumer_wait", cv_conv_pipe_wait),   /* its oldest stage is complete */
	UNLESS_FOLLOWED("pipeline_consumer_wait_prior", cv_conv_pipe_wait_prior), /* <N>(pipe): all but its N newest stages */
	UNLESS_FOLLOWED("arrive_and_wait", cv_conv_barrier_arrive_wait), /* a block cuda::barrier: its copies, a block barrier */
	UNLESS_FOLLOWED("wait", cv_conv_barrier_wait),         /* bar.wait(token) of a block cuda::barrier: its phase, ordering as an mbarrier wait */
	UNLESS_FOLLOWED("init", cv_conv_barrier_init),          /* init(&bar, n): writes a __shared__ cuda::barrier */
	UNLESS_FOLLOWED("cp_async_bulk_shared_to_global", cv_conv_bulk_store), /* the TMA store: the issuer's read of the range */
	UNLESS_FOLLOWED("cp_async_bulk", cv_conv_bulk_store),   /* cuda::ptx: the same, in its (space_global, space_shared) form */
	UNLESS_FOLLOWED("cp_async_bulk_global_to_shared", cv_conv_bulk_load), /* the TMA load (no tensor map): the issuer's write */
	UNLESS_FOLLOWED("cp_async_bulk_tensor*", cv_conv_tensor_copy), /* a TMA tensor copy either way: the box, once the launch's map is known */
	UNLESS_FOLLOWED("cp_async_bulk_commit_group", cv_conv_bulk_commit), /* closes a bulk group */
	UNLESS_FOLLOWED("cp_async_bulk_wait_group_read", cv_conv_bulk_wait), /* <N>: all but the N newest bulk groups read */
	UNLESS_FOLLOWED("cp_async_bulk_wait_group", cv_conv_bulk_wait), /* <N>: the same, complete */
	UNLESS_FOLLOWED("fence_proxy_async_shared_cta", cv_conv_proxy_fence), /* fence.proxy.async.shared::cta */
	UNLESS_FOLLOWED("fence_proxy_async", cv_conv_proxy_fence), /* cuda::ptx: the same, () or (space_shared) */
	UNLESS_FOLLOWED("mbarrier_init", cv_conv_ptx_mbarrier), /* cuda::ptx: writes the mbarrier */
	UNLESS_FOLLOWED("mbarrier_arrive", cv_conv_ptx_mbarrier), /* cuda::ptx: reads it */
	UNLESS_FOLLOWED("mbarrier_arrive_expect_tx", cv_conv_ptx_mbarrier),
	UNLESS_FOLLOWED("mbarrier_expect_tx", cv_conv_ptx_mbarrier),
	UNLESS_FOLLOWED("mbarrier_try_wait", cv_conv_ptx_mbarrier), /* cuda::ptx: a wait, as mbarrier.try_wait */
	UNLESS_FOLLOWED("mbarrier_try_wait_parity", cv_conv_ptx_mbarrier),
	UNLESS_FOLLOWED("mbarrier_test_wait", cv_conv_ptx_mbarrier),
	UNLESS_FOLLOWED("mbarrier_test_wait_parity", cv_conv_ptx_mbarrier),
	UNLESS_FOLLOWED("load_matrix_sync", conv_wmma),        /* wmma: a fragment's ldmatrix or accumulator loads */
	UNLESS_FOLLOWED("store_matrix_sync", conv_wmma),       /* wmma: an accumulator's stores */
};

#undef BARRIER
#undef BINARY
#undef CALL
#undef UNLESS_FOLLOWED

/* The line of device_calls[] for a callee's name, or NULL. */
static const struct device_call *device_call_of(const char *name)
{
	for (size_t i = 0; i < sizeof(device_calls) / sizeof(device_calls[0]); i++) {
		const char *n = device_calls[i].name;
		size_t len = strlen(n);
		if (len && n[len - 1] == '*' ? !strncmp(name, n, len - 1) : !strcmp(name, n))
			return &device_calls[i];
	}
	return NULL;
}

/* The cooperative group a call is about: the object of g.f(), or the
 * first argument of cg::f(g). 1 and its scope, else 0. */
static int call_group(struct fe *S, const struct cv_call *k, struct cv_group *g)
{
	return cv_call_group(S, k->c, g);
}

static struct sm_expr *conv_barrier(struct fe *S, const struct cv_call *k)
{
	enum sm_barrier_kind bk = k->model->barrier;
	struct cv_group g = { SM_SCOPE_BLOCK, 0, -1, false };
	/* cooperative_groups: the group's type (or a thread_group's
	 * initializer) gives its scope; a group of unknown kind is no barrier */
	if (bk == SM_BAR_CG_SYNC && !call_group(S, k, &g))
		return cv_opaque(S, k->c, k->name, 0);
	for (int i = 0; i < k->nargs; i++)
		(void)cv_conv_expr(S, k->args[i]);
	struct sm_stmt *s = cv_mk_stmt(S, SM_S_BARRIER, k->c);
	if (s) {
		s->barrier = bk;
		s->scope = g.sc;
		s->scope_arg = g.arg;
		s->cluster = g.cluster;
		if (bk == SM_BAR_SYNCWARP)
			cv_syncwarp_scope(k->c, k->nargs, k->nargs > 0 ? k->args[0] : k->c, s);
		cv_emit_barrier(S, s);
	}
	/* _count/_and/_or return a block-uniform value */
	return cv_opaque(S, k->c, k->name, 0);
}

/* atomicAdd(&s[i], v) or atomicAdd(p, v) with p a shared pointer: an
 * atomic access, after the other arguments are evaluated. */
static struct sm_expr *conv_atomic(struct fe *S, const struct cv_call *k)
{
	struct sm_expr *last = NULL;
	for (int i = 1; i < k->nargs; i++)
		last = cv_conv_expr(S, k->args[i]);
	if (k->nargs >= 1) {
		CXCursor p = cv_strip(k->args[0]);
		if (clang_getCursorKind(p) == CXCursor_UnaryOperator &&
		    clang_getCursorUnaryOperatorKind(p) == CXUnaryOperator_AddrOf) {
			struct kids k2 = cv_kids_of(p);
			struct sm_access *a = k2.n == 1 ? cv_emit_access(S, k2.c[0], SM_ACC_ATOMIC) : NULL;
			/* atomicExch(&x, v) stores v: the race search tells one
			 * value stored twice from a race (races.c same_value) */
			if (a && k->nargs == 2 && !strcmp(k->name, "atomicExch"))
				a->value = last;
		} else if (cv_is_shared_ptr(S, p)) {
			struct sm_access *a = sm_arena_alloc(S->A, sizeof(*a));
			struct sm_stmt *s = cv_mk_stmt(S, SM_S_ACCESS, k->c);
			if (a && s) {
				a->kind = SM_ACC_ATOMIC;
				a->base = cv_conv_expr(S, p);
				a->idx[0] = cv_mk_const(S, 0);
				a->nidx = 1;
				a->width = 4;
				a->range = S->in_header && S->call ? S->call->range : cv_range_of(S, k->c);
				a->call = S->call;
				a->index = S->naccess++;
				s->access = a;
				cv_emit(S, s);
			}
		} else {
			(void)cv_conv_expr(S, k->args[0]);
		}
	}
	return cv_opaque(S, k->c, k->name, 1);
}

static struct sm_expr *conv_binary(struct fe *S, const struct cv_call *k)
{
	struct sm_expr *a = cv_conv_expr(S, k->args[0]);
	struct sm_expr *b = cv_conv_expr(S, k->args[1]);
	return cv_mk_bin(S, k->model->op, a, b, k->c);
}

static struct sm_expr *conv_brev(struct fe *S, const struct cv_call *k)
{
	struct sm_expr *e = cv_mk_expr(S, SM_E_UNARY, k->c);
	if (e) {
		e->op = SM_OP_BREV;
		e->a = cv_conv_expr(S, k->args[0]);
		e->bits = 32;
		e->is_unsigned = 1;
	}
	return e;
}

/* ---------- cooperative groups: ranks, sizes, collectives ----------
 * A thread_block's ranks and sizes are the block's (the linear thread id
 * tx + nx * (ty + ny * tz), the product of blockDim); a tile of N threads
 * partitioned from the block or from a tile of M is run N of the linear
 * ids: thread_rank lin % N, meta_group_rank lin / N (or (lin % M) / N),
 * meta_group_size ceil(threads / N) (or M / N), size N. A grid's, a
 * cluster's, a coalesced or labeled group's ranks are per thread, unknown.
 * A tile's collective (reduce, any, all, ballot, a shuffle from one
 * constant lane) and the warp intrinsics with a full mask give every
 * thread of the tile (the warp) one value: a per-thread unknown with a
 * span (ir.h), which the race search takes as alike within the tile. */

/* The block's thread ids: i 0..2 threadIdx.{x,y,z}, 3..5 blockDim. */
static struct sm_expr *block_builtin(struct fe *S, CXCursor c, int i)
{
	struct sm_expr *e = cv_mk_expr(S, SM_E_BUILTIN, c);
	if (e) {
		e->builtin = i < 3 ? SM_B_TID : SM_B_NTID;
		e->dim = i % 3;
	}
	return e;
}

/* The linear thread id in the block, tx + nx * (ty + ny * tz). */
static struct sm_expr *linear_tid(struct fe *S, CXCursor c)
{
	CXCursor none = clang_getNullCursor();
	struct sm_expr *zy = cv_mk_bin(S, SM_OP_ADD, block_builtin(S, c, 1),
				       cv_mk_bin(S, SM_OP_MUL, block_builtin(S, c, 4), block_builtin(S, c, 2), none), none);
	struct sm_expr *lin = cv_mk_bin(S, SM_OP_ADD, block_builtin(S, c, 0),
					cv_mk_bin(S, SM_OP_MUL, block_builtin(S, c, 3), zy, none), none);
	return lin && lin->a && lin->b && zy->a && zy->b ? lin : NULL;
}

/* The block's thread count, nx * ny * nz. */
static struct sm_expr *block_threads(struct fe *S, CXCursor c)
{
	CXCursor none = clang_getNullCursor();
	return cv_mk_bin(S, SM_OP_MUL, block_builtin(S, c, 3),
			 cv_mk_bin(S, SM_OP_MUL, block_builtin(S, c, 4), block_builtin(S, c, 5), none), none);
}

/* The group of a call whose ranks are modelled: the block itself, or a
 * tile of known size; else 0 (the call is left to its default). */
static int ranked_group(struct fe *S, const struct cv_call *k, struct cv_group *g)
{
	if (!call_group(S, k, g) || g->cluster)
		return 0;
	return g->sc == SM_SCOPE_BLOCK || (g->sc == SM_SCOPE_TILE && g->arg > 0);
}

/* block.thread_rank() is the linear thread id; a tile's is that modulo
 * the tile size; a grid's or a coalesced group's is per thread, unknown. */
static struct sm_expr *conv_thread_rank(struct fe *S, const struct cv_call *k)
{
	struct cv_group g = { SM_SCOPE_BLOCK, 0, -1, false };
	if (call_group(S, k, &g) && !ranked_group(S, k, &g))
		return cv_opaque(S, k->c, k->name, 1);
	struct sm_expr *lin = linear_tid(S, k->c);
	if (g.sc == SM_SCOPE_TILE && g.arg > 0)
		lin = cv_mk_bin(S, SM_OP_REM, lin, cv_mk_const(S, g.arg), k->c);
	return lin;
}

/* tile.meta_group_rank(): which tile of its parent the thread is in. */
static struct sm_expr *conv_meta_group_rank(struct fe *S, const struct cv_call *k)
{
	struct cv_group g;
	if (!ranked_group(S, k, &g) || g.sc != SM_SCOPE_TILE)
		return opaque_call(S, k, 0);
	if (g.parent < 0)
		return cv_tile_value(S, k, g.arg, -1); /* alike in the tile, unknown */
	struct sm_expr *lin = linear_tid(S, k->c);
	if (g.parent > 0)
		lin = cv_mk_bin(S, SM_OP_REM, lin, cv_mk_const(S, g.parent), k->c);
	return cv_mk_bin(S, SM_OP_DIV, lin, cv_mk_const(S, g.arg), k->c);
}

/* tile.meta_group_size(): how many tiles its parent holds. */
static struct sm_expr *conv_meta_group_size(struct fe *S, const struct cv_call *k)
{
	struct cv_group g;
	if (!ranked_group(S, k, &g) || g.sc != SM_SCOPE_TILE)
		return opaque_call(S, k, 0);
	if (g.parent < 0)
		return cv_tile_value(S, k, g.arg, -1);
	if (g.parent > 0)
		return cv_mk_const(S, g.parent / g.arg);
	CXCursor none = clang_getNullCursor();
	struct sm_expr *n = cv_mk_bin(S, SM_OP_ADD, block_threads(S, k->c), cv_mk_const(S, g.arg - 1), none);
	return cv_mk_bin(S, SM_OP_DIV, n, cv_mk_const(S, g.arg), k->c);
}

/* g.size(), g.num_threads(): the block's thread count, a tile's size. */
static struct sm_expr *conv_group_size(struct fe *S, const struct cv_call *k)
{
	struct cv_group g;
	if (!ranked_group(S, k, &g))
		return opaque_call(S, k, 0);
	return g.sc == SM_SCOPE_TILE ? cv_mk_const(S, g.arg) : block_threads(S, k->c);
}

/* cg::reduce(tile, v, op), tile.any(p), tile.all(p), tile.ballot(p), and
 * tile.shfl(v, lane) with a constant lane: one value in the tile. */
static struct sm_expr *conv_tile_collective(struct fe *S, const struct cv_call *k)
{
	struct cv_group g;
	int64_t lane;
	bool shfl = !strcmp(k->name, "shfl");
	if (!call_group(S, k, &g) || g.sc != SM_SCOPE_TILE || g.arg <= 0 ||
	    (shfl && (k->nargs < 2 || !cv_try_eval_int(k->args[1], &lane))))
		return opaque_call(S, k, 0);
	return cv_tile_value(S, k, g.arg, strcmp(k->name, "reduce") ? 0 : 1); /* reduce(tile, v, op) */
}

/* __builtin_assume(n == 2), __builtin_assume(2 == n): n is 2 from here */
static struct sm_expr *conv_assume(struct fe *S, const struct cv_call *k)
{
	cv_assume(S, k->args[0], k->c);
	return cv_opaque(S, k->c, k->name, 0);
}

/* Any other call: the arguments are evaluated (they may read shared
 * memory), the result is unknown, per thread when it has arguments or
 * per_thread says so. A class-type shared element passed by value or
 * reference (a copy constructor, an operator) is read. */
/* wmma::load_matrix_sync / store_matrix_sync: the fragments
 * convert_wmma.c models, else an opaque call as before */
static struct sm_expr *conv_wmma(struct fe *S, const struct cv_call *k)
{
	bool st = !strcmp(k->name, "store_matrix_sync");
	if (st ? cv_wmma_store(S, k) : cv_wmma_load(S, k))
		return NULL;
	return opaque_call(S, k, 0);
}

static struct sm_expr *opaque_call(struct fe *S, const struct cv_call *k, int per_thread)
{
	int dep = per_thread;
	for (int i = 0; i < k->nargs; i++) {
		CXCursor ai = cv_strip(k->args[i]);
		CXType at = clang_getCanonicalType(clang_getCursorType(ai));
		if (at.kind == CXType_Record && cv_is_shared_lvalue(S, ai))
			(void)cv_emit_access(S, ai, SM_ACC_LOAD);
		else
			(void)cv_conv_expr(S, k->args[i]);
		dep = 1;
	}
	struct sm_stmt *s = cv_mk_stmt(S, SM_S_OPAQUE_CALL, k->c);
	cv_emit(S, s);
	/* a struct passed to a non-const reference may come back changed */
	CXType ft = clang_getCursorType(clang_getCursorReferenced(k->c));
	for (int i = 0, nt = clang_getNumArgTypes(ft); i < k->nargs; i++) {
		CXType pt = clang_getCanonicalType(clang_getArgType(ft, (unsigned)i));
		bool whole, ref = pt.kind == CXType_LValueReference && !clang_isConstQualifiedType(clang_getPointeeType(pt));
		struct sm_var *rec = i < nt && ref ? cv_record_root(S, k->args[i], &whole) : NULL;
		if (rec)
			cv_record_clobber(S, rec, NULL, k->c);
		else if (i >= nt || ref)
			cv_local_elem_clobber(S, k->args[i], k->c); /* a local array's element may change */
	}
	return cv_opaque(S, k->c, k->name, dep);
}

struct sm_expr *cv_load_through(struct fe *S, CXCursor c, CXCursor ptr)
{
	CXCursor in = cv_strip(ptr);
	struct kids ks = cv_kids_of(in);
	if (clang_getCursorKind(in) == CXCursor_UnaryOperator &&
	    clang_getCursorUnaryOperatorKind(in) == CXUnaryOperator_AddrOf && ks.n == 1) {
		CXCursor sub = cv_strip(ks.c[0]);
		struct kids k2 = cv_kids_of(sub);
		if (clang_getCursorKind(sub) == CXCursor_ArraySubscriptExpr && k2.n == 2 &&
		    clang_getCursorKind(cv_strip(k2.c[0])) == CXCursor_DeclRefExpr) {
			/* &p[i]: the base has no effects, the index is converted once */
			struct sm_expr *idx = cv_conv_expr(S, k2.c[1]);
			struct sm_expr *g = idx ? cv_global_load(S, c, k2.c[0], idx, "memory load") : NULL;
			return g ? g : cv_opaque(S, c, "memory load", 1);
		}
	}
	(void)cv_conv_expr(S, ptr);
	struct sm_expr *g = clang_getCursorKind(in) == CXCursor_DeclRefExpr ? cv_global_load(S, c, in, NULL, "memory load") : NULL;
	return g ? g : cv_opaque(S, c, "memory load", 1);
}

/* __ldg(&p[i]): the load p[i] (uniform where every thread reads one
 * address) */
static struct sm_expr *conv_ldg(struct fe *S, const struct cv_call *k)
{
	return cv_load_through(S, k->c, k->args[0]);
}

static struct sm_expr *conv_per_thread(struct fe *S, const struct cv_call *k)
{
	return opaque_call(S, k, 1);
}

/* A class-type assignment s[i] = v or s[i] += v is operator= / +=: a
 * store (after a load for +=) of the shared element. */
static struct sm_expr *conv_operator(struct fe *S, const struct cv_call *k)
{
	const char *name = k->name;
	if (k->nargs < 1 || !cv_is_shared_lvalue(S, k->args[0]))
		return opaque_call(S, k, 0);
	size_t len = strlen(name);
	int is_assign = !strcmp(name, "operator=");
	int is_compound = len >= 10 && name[len - 1] == '=' && strcmp(name, "operator==") &&
			  strcmp(name, "operator!=") && strcmp(name, "operator<=") && strcmp(name, "operator>=");
	for (int i = 1; i < k->nargs; i++)
		(void)cv_conv_expr(S, k->args[i]);
	if (!is_assign && !is_compound)
		return opaque_call(S, k, 0); /* its arguments are evaluated again */
	if (is_compound)
		(void)cv_emit_access(S, k->args[0], SM_ACC_LOAD);
	cv_store_at_value(S, cv_emit_access(S, k->args[0], SM_ACC_STORE), k->args[0],
			  is_assign && k->nargs == 2 ? k->args[1] : k->c);
	return cv_opaque(S, k->c, name, 1);
}

/* A function of the CUDA headers (or another system header) that the
 * table does not name, whose arguments are all values (arithmetic, enum
 * or a struct by value; no pointer or reference it could read through or
 * write to, by the callee's signature): __umulhi, __popc, sqrtf,
 * make_uint2. Its result is a
 * function of its arguments, so it is alike in every thread that passes
 * the same ones: a load from a table of the callee's own at the place the
 * arguments make (uniform where they are). NULL for any other call. */
static struct sm_expr *pure_call(struct fe *S, const struct cv_call *k)
{
	CXCursor callee = clang_getCursorReferenced(k->c);
	if (clang_Cursor_isNull(callee) || !clang_Location_isInSystemHeader(clang_getCursorLocation(callee)) ||
	    k->nargs == 0 || k->nargs != clang_Cursor_getNumArguments(k->c))
		return NULL;
	CXType ft = clang_getCursorType(callee);
	if (clang_getNumArgTypes(ft) != k->nargs)
		return NULL;
	for (int i = 0; i < k->nargs; i++) {
		/* the parameter's type: an argument such as blockIdx.x (a
		 * property) has no type of its own in libclang */
		enum CXTypeKind tk = clang_getCanonicalType(clang_getArgType(ft, (unsigned)i)).kind;
		bool value = (tk >= CXType_Bool && tk <= CXType_LongDouble) || tk == CXType_Enum || tk == CXType_Float16 ||
			     tk == CXType_Half || (tk == CXType_Record && !cv_is_shared_lvalue(S, cv_strip(k->args[i])));
		if (!value)
			return NULL;
	}
	struct sm_access *pl = sm_arena_alloc(S->A, sizeof(*pl));
	struct sm_expr *e = cv_opaque(S, k->c, k->name, 1);
	struct sm_expr *table = cv_opaque(S, k->c, k->name, 0);
	if (!pl || !e || !table)
		return NULL;
	pl->kind = SM_ACC_LOAD;
	pl->base = table;
	for (int i = 0; i < k->nargs; i++) {
		struct sm_expr *a = cv_conv_expr(S, k->args[i]);
		int at = i < SM_MAX_DIMS ? i : SM_MAX_DIMS - 1;
		pl->idx[at] = pl->idx[at] ? cv_mk_bin(S, SM_OP_ADD, pl->idx[at], a, k->args[i]) : a;
		if (!pl->idx[at])
			return NULL;
	}
	pl->nidx = k->nargs < SM_MAX_DIMS ? k->nargs : SM_MAX_DIMS;
	e->place = pl;
	return e;
}

/* A call on a struct variable that may change it: a non-const method
 * (p.set(v), p += q: the object is the first argument of an operator,
 * else the object of the member call). The variable, else NULL. */
static struct sm_var *changed_object(struct fe *S, const struct cv_call *k, CXCursor callee)
{
	if (clang_getCursorKind(callee) != CXCursor_CXXMethod || clang_CXXMethod_isStatic(callee) ||
	    clang_CXXMethod_isConst(callee))
		return NULL;
	bool whole;
	if (!strncmp(k->name, "operator", 8))
		return k->nargs >= 1 ? cv_record_root(S, k->args[0], &whole) : NULL;
	CXCursor o;
	int on = method_object(k->c, callee, &o);
	if (on == 0)
		return S->this_obj; /* f() inside a method: this->f() */
	return on == 1 ? cv_record_root(S, o, &whole) : NULL;
}

/* Calls that give or set a struct's whole value: a copy (a constructor
 * from one value of its own type), and p = q on a struct variable (q's
 * value; into a part of one, p.a = q, a write into p). NULL otherwise. */
static struct sm_expr *struct_value(struct fe *S, const struct cv_call *k, CXCursor callee)
{
	enum CXCursorKind ck = clang_getCursorKind(callee);
	if (ck == CXCursor_Constructor && k->nargs == 1 &&
	    clang_equalTypes(clang_getUnqualifiedType(clang_getCanonicalType(clang_getCursorType(k->c))),
			     clang_getUnqualifiedType(clang_getCanonicalType(clang_getCursorType(cv_strip(k->args[0]))))))
		return cv_conv_expr(S, k->args[0]);
	bool whole;
	struct sm_var *rec = ck == CXCursor_CXXMethod && k->nargs == 2 && !strcmp(k->name, "operator=")
		? cv_record_root(S, k->args[0], &whole) : NULL;
	if (!rec)
		return NULL;
	struct sm_expr *val = cv_conv_expr(S, k->args[1]);
	if (!whole) {
		cv_record_clobber(S, rec, val, k->c);
		return val;
	}
	struct sm_stmt *s = cv_mk_stmt(S, SM_S_ASSIGN, k->c);
	if (s) {
		s->var = rec;
		s->op = SM_OP_ASSIGN;
		s->value = val;
		cv_emit(S, s);
	}
	return cv_var_ref(S, k->c, rec);
}

static struct sm_expr *conv_call_of(struct fe *S, struct cv_call *k);

struct sm_expr *cv_conv_call(struct fe *S, CXCursor c)
{
	struct cv_call k = { .c = c, .name = cv_cx_str(S->A, clang_getCursorSpelling(c)) };
	if (!k.name[0])
		k.name = cv_recovered_call_name(S, c);
	int nk = clang_Cursor_getNumArguments(c);
	for (int i = 0; i < nk && i < SM_FE_CALL_ARGS; i++)
		k.args[k.nargs++] = clang_Cursor_getArgument(c, (unsigned)i);
	CXCursor callee = clang_getCursorReferenced(c);
	struct sm_expr *v = struct_value(S, &k, callee);
	if (v)
		return v;
	struct sm_var *changed = changed_object(S, &k, callee);
	S->inlined_this = NULL;
	v = conv_call_of(S, &k);
	/* a method that may change its object leaves what its followed body
	 * left in `*this` (else an unknown per thread) */
	bool self = S->inlined_this && clang_equalCursors(S->inlined_this_call, c);
	if (changed)
		cv_record_clobber(S, changed, self ? cv_var_ref(S, c, S->inlined_this) : NULL, c);
	return v;
}

static struct sm_expr *conv_call_of(struct fe *S, struct cv_call *k0)
{
	struct cv_call k = *k0;
	CXCursor c = k.c;
	k.model = device_call_of(k.name);
	if (k.model && k.model->nargs >= 0 && k.model->nargs != k.nargs)
		k.model = NULL; /* min(a, b, c): not the modelled one */
	if (k.model && !k.model->unless_followed)
		return k.model->conv(S, &k);
	/* a __device__ function of the program: followed into its body */
	CXCursor def = cv_inline_target(S, c);
	if (!clang_Cursor_isNull(def)) {
		struct sm_expr *r = cv_inline_call(S, c, def);
		if (r)
			return r;
	}
	if (k.model)
		return k.model->conv(S, &k);
	cv_async_unmodelled_call(S, &k);
	if (cv_library_collective(S, &k))
		return cv_opaque(S, k.c, k.name, 1);
	struct sm_expr *pure = pure_call(S, &k);
	return pure ? pure : opaque_call(S, &k, 0);
}
