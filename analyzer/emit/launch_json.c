/* launch_json.c - a finding's launch context as JSON (see launch_json.h). */
#include "emit/launch_json.h"

#include <stdint.h>

static json_t *dim_json(struct sm_dim3 d)
{
	json_t *a = json_array();
	json_array_append_new(a, json_integer(d.x));
	json_array_append_new(a, json_integer(d.y));
	json_array_append_new(a, json_integer(d.z));
	return a;
}

/* The path of range file index k of r (0: r's own file). */
static const char *file_of(const struct sm_result *r, unsigned k)
{
	if (k && k <= r->nheaders && r->headers[k - 1].path)
		return r->headers[k - 1].path;
	return r->path;
}

json_t *sm_emit_launch_json(const struct sm_result *r, const struct sm_diag_launch *l, bool camel)
{
	if (l->from.kind == SM_LAUNCH_NONE)
		return NULL;
	json_t *j = json_object();
	if (l->from.kind != SM_LAUNCH_ANY)
		json_object_set_new(j, "block", dim_json(l->block));
	if (l->grid.x)
		json_object_set_new(j, "grid", dim_json(l->grid));
	if (l->dyn_smem >= 0)
		json_object_set_new(j, camel ? "dynSmem" : "dyn_smem", json_integer(l->dyn_smem));
	if (l->cluster.x)
		json_object_set_new(j, "cluster", dim_json(l->cluster));
	json_t *s = json_object();
	json_object_set_new(s, "kind", json_string(sm_launch_source_name(l->from.kind)));
	switch (l->from.kind) {
	case SM_LAUNCH_SITE: {
		const char *f = l->from.file ? l->from.file : file_of(r, l->from.site.file);
		json_object_set_new(s, "file", f ? json_string(f) : json_null());
		json_object_set_new(s, "line", json_integer(l->from.site.begin.line));
		break;
	}
	case SM_LAUNCH_BOUNDS:
		json_object_set_new(s, "bound", json_integer(l->from.bound));
		break;
	case SM_LAUNCH_CONFIG:
		if (l->from.config)
			json_object_set_new(s, "file", json_string(l->from.config));
		break;
	case SM_LAUNCH_ASSUMED:
		if (l->from.bound > 0) /* the bound the assumption was kept within */
			json_object_set_new(s, "bound", json_integer(l->from.bound));
		if (l->from.runtime_site) /* a launch exists; its shape is computed at run time */
			json_object_set_new(s, "runtime_launch", json_true());
		if (l->from.fixed) { /* the dimensions the launches fix */
			json_t *fx = json_array();
			for (int d = 0; d < 3; d++)
				if (l->from.fixed >> d & 1)
					json_array_append_new(fx, json_string(d == 0 ? "x" : d == 1 ? "y" : "z"));
			json_object_set_new(s, "fixed", fx);
		}
		if (l->from.fitted) /* shapes that overflow an array were left out */
			json_object_set_new(s, "fitted", json_true());
		break;
	case SM_LAUNCH_NONE:
	case SM_LAUNCH_CLUSTER:
	case SM_LAUNCH_OPTION:
	case SM_LAUNCH_ANY:
		break;
	}
	json_object_set_new(j, "source", s);
	return j;
}

json_t *sm_emit_witness_json(const struct sm_diag *d)
{
	if (!d->witness.set)
		return NULL;
	json_t *w = json_object(), *t = json_array(), *b = json_array();
	for (int i = 0; i < 3; i++)
		json_array_append_new(t, json_integer(d->witness.thread[i]));
	json_array_append_new(b, json_integer(d->witness.offset));
	json_array_append_new(b, json_integer(d->witness.offset + (json_int_t)d->width - 1));
	json_object_set_new(w, "thread", t);
	json_object_set_new(w, "bytes", b);
	json_object_set_new(w, "extent", json_integer(d->witness.extent));
	return w;
}

json_t *sm_emit_wavefronts_json(uint64_t w, uint64_t ideal, bool exact, int64_t blocks, bool camel)
{
	if (!w)
		return NULL;
	json_t *j = json_object();
	json_object_set_new(j, camel ? "perBlock" : "per_block", json_integer((json_int_t)w));
	json_object_set_new(j, camel ? "idealPerBlock" : "ideal_per_block", json_integer((json_int_t)ideal));
	if (blocks > 0 && w <= (uint64_t)INT64_MAX / (uint64_t)blocks) {
		json_object_set_new(j, camel ? "perLaunch" : "per_launch", json_integer((json_int_t)(w * (uint64_t)blocks)));
		json_object_set_new(j, camel ? "idealPerLaunch" : "ideal_per_launch",
				    json_integer((json_int_t)(ideal * (uint64_t)blocks)));
	}
	json_object_set_new(j, "exact", json_boolean(exact));
	return j;
}

int64_t sm_emit_grid_blocks(struct sm_dim3 g)
{
	if (g.x <= 0 || g.y <= 0 || g.z <= 0 || g.x > INT32_MAX || g.y > INT32_MAX || g.z > INT32_MAX)
		return 0;
	return g.x * g.y * g.z;
}
