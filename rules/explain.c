/* explain.c - the rule documentation table (see explain.h). Keep one entry
 * per rule of registry.def (tests/test_ci.py checks that every rule has one). */
#include "rules/explain.h"

#include <string.h>

#include "base/text.h"

static const struct sm_rule_doc docs[SM_RULE__COUNT] = {
	[SM_RULE_BANK_CONFLICT] = {
		"BankConflict",
		"Shared memory is split into 32 banks of 4 bytes. When lanes of one warp touch different "
		"4-byte words in the same bank, the hardware serializes the request into several wavefronts. "
		"The finding gives the degree (2 to 32 ways) of the worst warp request of the access, for the "
		"block shape the kernel is launched with, and names two lanes that collide.",
		"__shared__ float tile[32][32];\n"
		"tile[threadIdx.y][threadIdx.x] = in[i];   // row-wise: conflict-free\n"
		"__syncthreads();\n"
		"out[i] = tile[threadIdx.x][threadIdx.y];  // column-wise: 32-way conflict\n",
		"Change the layout so that the lanes of a warp fall into different banks: pad the row "
		"(float tile[32][33]), store element e at e + (e >> 5), or XOR-swizzle the column with the row. "
		"smemlint verifies the smallest padding that removes every conflict of the array and offers it "
		"as a fix-it (--fix applies it).",
	},
	[SM_RULE_DIVERGENT_BARRIER] = {
		"DivergentBarrier",
		"Every thread of a block must reach each block barrier (__syncthreads(), its _count/_and/_or "
		"forms, cooperative_groups block sync(), bar.sync). A barrier under a condition that depends on "
		"the thread, in a loop whose trip count depends on the thread, or after a thread-dependent "
		"return is undefined behaviour: the block can hang or synchronize the wrong threads.",
		"if (threadIdx.x < 16) {\n"
		"    buf[threadIdx.x] = x;\n"
		"    __syncthreads();   // only half of the block gets here\n"
		"}\n",
		"Move the barrier out of the thread-dependent branch so that every thread executes it, and keep "
		"only the work inside the condition: if (threadIdx.x < 16) buf[threadIdx.x] = x; __syncthreads();",
	},
	[SM_RULE_MISSING_BARRIER] = {
		"MissingBarrier",
		"Two accesses to the same shared memory, at least one a write, are not separated by a block "
		"barrier, and a thread writes bytes that a thread of another warp reads or writes: a data race. "
		"The finding names both accesses, the two threads and the element they share.",
		"buf[threadIdx.x] = in[i];\n"
		"// missing __syncthreads()\n"
		"out[i] = buf[blockDim.x - 1 - threadIdx.x];  // reads another warp's write\n",
		"Put __syncthreads() between the write and the read (and before the buffer is overwritten in the "
		"next loop iteration).",
	},
	[SM_RULE_WARP_SYNC] = {
		"WarpSync",
		"Since Volta the lanes of a warp are scheduled independently, so lanes of one warp that exchange "
		"data through shared memory need __syncwarp() (or a block barrier) between the write and the "
		"read, whether or not the memory is volatile.",
		"if (tid < 32) {\n"
		"    sdata[tid] += sdata[tid + 16];\n"
		"    sdata[tid] += sdata[tid + 8];   // reads lane tid+8's write: no __syncwarp()\n"
		"}\n",
		"Insert __syncwarp() between the dependent steps, or use warp shuffles (__shfl_down_sync) "
		"instead of shared memory for the exchange.",
	},
	[SM_RULE_UNUSED_SUPPRESSION] = {
		"UnusedSuppression",
		"An inline suppression (// smemlint: ignore[...], NOLINT(smemlint-...) or "
		"NOLINTNEXTLINE(smemlint-...)) suppressed no finding. Reported only with "
		"--report-unused-suppressions (or report-unused-suppressions: true in .smemlint.yaml).",
		"float v = tile[threadIdx.y][threadIdx.x]; // smemlint: ignore[bank-conflict]\n",
		"Remove the suppression, or name the rule it is meant for.",
	},
};

const struct sm_rule_doc *sm_rule_doc(int r)
{
	static const struct sm_rule_doc none = { "Unknown", "", "", "" };
	if (r < 0 || r >= SM_RULE__COUNT || !docs[r].name)
		return &none;
	return &docs[r];
}

int sm_rule_explain(FILE *out, int r, int markdown)
{
	const struct sm_rule_doc *d = sm_rule_doc(r);
	if (markdown) {
		fprintf(out, "**%s** (default: %s): %s\n\n%s\n\n**Example**\n\n```cuda\n%s```\n\n**Fix**\n\n%s\n",
			sm_rules[r].id, sm_level_name(sm_rules[r].level), sm_rules[r].summary, d->meaning, d->example,
			d->fix);
	} else {
		fprintf(out, "%s (default: %s): %s\n\n%s\n\nExample:\n\n", sm_rules[r].id,
			sm_level_name(sm_rules[r].level), sm_rules[r].summary, d->meaning);
		size_t pos = 0, n, len = strlen(d->example);
		for (const char *l; (l = sm_text_next_line(d->example, len, &pos, &n));)
			fprintf(out, "    %.*s\n", (int)n, l);
		fprintf(out, "\nFix: %s\n", d->fix);
	}
	return ferror(out) ? -1 : 0;
}
