/* visit.c - the one walk over a closed expression (see visit.h). */
#include "engine/visit.h"

static bool any(const struct sm_expr *e, const struct sm_expr_walk *w, int depth)
{
	if (!e)
		return false;
	if (depth > w->max_depth)
		return w->deep_answer;
	switch (w->node(e, w->arg)) {
	case SM_SEEN_HIT:
		return true;
	case SM_SEEN_SKIP:
		return false;
	case SM_SEEN_GO:
		break;
	}
	if ((w->edges & SM_WALK_IVS) && (e->kind == SM_E_LOOPVAR || e->kind == SM_E_LOOPEXIT) && e->loop &&
	    e->ival < e->loop->niv) {
		const struct sm_iv *iv = &e->loop->ivs[e->ival];
		if (any(iv->init, w, depth + 1) || any(iv->step, w, depth + 1))
			return true;
	}
	const struct sm_access *p = sm_expr_is_collective(e) ? NULL : e->place; /* its input: uniform.c */
	if (p && (((w->edges & SM_WALK_ADDR_PLACE) && e->kind == SM_E_ADDR) ||
		  ((w->edges & SM_WALK_LOAD_PLACE) && e->kind == SM_E_OPAQUE))) {
		for (int i = 0; i < p->nidx; i++)
			if (any(p->idx[i], w, depth + 1))
				return true;
		if (any(p->extra, w, depth + 1) || any(p->base, w, depth + 1))
			return true;
	}
	return any(e->a, w, depth + 1) || any(e->b, w, depth + 1) || any(e->c, w, depth + 1);
}

bool sm_expr_any(const struct sm_expr *e, const struct sm_expr_walk *w)
{
	return any(e, w, 0);
}
