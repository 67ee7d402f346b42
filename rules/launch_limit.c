/* launch_limit.c - rule `shared-launch-limit`.
 *
 * Models: what the runtime checks when a launch asks for dynamic shared
 * memory (its third parameter). A block gets at most 48 KB of shared
 * memory, static and dynamic together, unless the program raised the
 * kernel's cudaFuncAttributeMaxDynamicSharedMemorySize with
 * cudaFuncSetAttribute in this file; then at most the value it set for the
 * dynamic part, and never more than the architecture's per-block maximum
 * (--arch; 227 KB on sm_90). A launch past its limit does not run: the
 * runtime returns an error at the launch (cudaErrorInvalidValue), which a
 * program that does not check it never sees. One finding per launch site
 * whose dynamic size is known (a constant or what the host code computes);
 * the static part counts the arrays the kernel declares (a lower bound).
 * Launch values come from the launch contexts (engine/launch.h).
 */
#include <string.h>

#include "engine/fix.h"
#include "rules/explain.h"
#include "rules/messages.h"
#include "rules/rules.h"

static void report(const struct sm_rule_ctx *ctx, const struct sm_kernel *k, const struct sm_launch_ctx *L,
		   const char *why, struct sm_sink *sink)
{
	struct sm_diag g;
	memset(&g, 0, sizeof(g));
	g.rule = SM_RULE_SHARED_LAUNCH_LIMIT;
	g.range = L->site->range;
	g.kernel = k->name;
	g.access = -1;
	g.block = L->block;
	sm_diag_set_launch(&g, ctx->file, L);
	g.message = why;
	g.related[0].range = k->range;
	g.related[0].message = ctx->scratch ? sm_arena_printf(ctx->scratch, "kernel '%s' defined here", k->name) : NULL;
	g.nrelated = g.related[0].message ? 1 : 0;
	if (k->dyn_smem_optin && g.nrelated < SM_MAX_RELATED) {
		g.related[g.nrelated].range = k->dyn_smem_optin_at;
		g.related[g.nrelated].message = "cudaFuncSetAttribute(..., cudaFuncAttributeMaxDynamicSharedMemorySize, ...) here";
		g.nrelated++;
	}
	g.note = "the launch fails (cudaErrorInvalidValue) and the kernel does not run: ask for less, or raise the "
		 "kernel's limit with cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes) "
		 "before launching";
	sm_sink_report(sink, &g);
}

void sm_rule_shared_launch_limit(const struct sm_rule_ctx *ctx, struct sm_sink *sink)
{
	struct sm_arena *A = ctx->scratch;
	int64_t arch_max = sm_arch_block_smem(ctx->opt->arch);
	for (unsigned i = 0; i < ctx->file->nkernels; i++) {
		const struct sm_kernel *k = ctx->file->kernels[i];
		const struct sm_kernel_launches *K = &ctx->facts[i].launch;
		int64_t stat = sm_kernel_static_smem(k);
		for (unsigned s = 0; s < K->nsites; s++) {
			const struct sm_launch_ctx *L = &K->site[s];
			if (!L->site || L->dyn_smem <= 0)
				continue;
			int64_t dyn = L->dyn_smem, total = stat + dyn;
			const char *asks = stat ? sm_arena_printf(A, "%lld bytes of dynamic shared memory (%lld with the "
								 "kernel's %lld static)",
								 (long long)dyn, (long long)total, (long long)stat)
						: sm_arena_printf(A, "%lld bytes of dynamic shared memory", (long long)dyn);
			const char *why = NULL;
			const char *head = sm_arena_printf(A, "launch refused: '%s' at the launch on line %u", k->name,
							   L->site->range.begin.line);
			if (arch_max > 0 && total > arch_max)
				why = sm_arena_printf(A, "%s asks for %s, more than the %lld bytes a block may use on %s", head,
						      asks, (long long)arch_max, ctx->opt->arch);
			else if (k->dyn_smem_optin == 0 && total > SM_SMEM_DEFAULT_LIMIT)
				why = sm_arena_printf(A, "%s asks for %s, more than the %d bytes a block gets without "
							 "cudaFuncSetAttribute(%s, cudaFuncAttributeMaxDynamicSharedMemorySize, ...) "
							 "in this file",
						      head, asks, SM_SMEM_DEFAULT_LIMIT, k->name);
			else if (k->dyn_smem_optin > 0 && dyn > k->dyn_smem_optin)
				why = sm_arena_printf(A, "%s asks for %s, more than the %lld its cudaFuncSetAttribute on line "
							 "%u allows",
						      head, asks, (long long)k->dyn_smem_optin, k->dyn_smem_optin_at.begin.line);
			if (why && A)
				report(ctx, k, L, why, sink);
		}
	}
}

/* What --explain, SARIF and doc/rules.md say about this rule. */
const struct sm_rule_doc sm_doc_shared_launch_limit = {
	"SharedLaunchLimit",
	"A launch asks for more dynamic shared memory (its third parameter) than a block may get: "
	"more than 48 KB, static and dynamic together, when the program does not raise the kernel's "
	"cudaFuncAttributeMaxDynamicSharedMemorySize with cudaFuncSetAttribute; more than the value it "
	"set; or more than the architecture's per-block maximum (--arch; 227 KB on sm_90). The runtime "
	"refuses such a launch with cudaErrorInvalidValue and the kernel does not run, which a program "
	"that does not check the launch's error never notices.",
	"extern __shared__ float buf[];\n"
	"...\n"
	"k<<<grid, 256, 64 * 1024>>>(...);   // 64 KB without cudaFuncSetAttribute: the launch fails\n",
	"Call cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024) before "
	"the launch (on architectures that have that much), or ask for less.",
};
