/* limits.h - every cap smemlint puts on its input and its work, in one
 * place (as SQLite's sqliteLimit.h): the value, why that value, and what
 * happens past it. The README's Limits table is checked against this file
 * by a test (tests/test_limits.py): each macro here is a row there with the
 * same value, and each row there is a macro here.
 *
 * Design: a cap is a macro here, never a literal at its use, so that the
 * README, the tests and the code agree on one number. Shapes of public
 * structs stay with the structs (SM_MAX_DIMS in smemlint/ir.h,
 * SM_MAX_RELATED in smemlint/diag.h), and facts about the hardware are not
 * caps (SM_WARP, SM_BANKS). A change of value here changes behaviour: the
 * golden tests say where. */
#ifndef SMEMLINT_BASE_LIMITS_H
#define SMEMLINT_BASE_LIMITS_H

#include <stddef.h>
#include <stdint.h>

/* ---- input ---- */

/* Largest source file read, in bytes. 16 MiB is far above any hand-written
 * CUDA file (generated ones reach a few MiB) and keeps a stray binary or
 * log from being parsed. Past it: the file gets input problem
 * file-too-large and is not analyzed; the others still are. */
#define SM_MAX_FILE_BYTES (16u * 1024 * 1024)

/* Largest main file whose tokens the front end lexes once and keeps
 * (32 bytes a token: a 16 MiB file of small kernels holds 5 million, as
 * much memory again as a third of clang's whole AST). A larger main file
 * is lexed range by range where a token is read, as clang_tokenize does
 * for any range; its results are the same. 1 MiB is past every
 * hand-written CUDA file. */
#define SM_MAX_LEXED_MAIN_BYTES (1u * 1024 * 1024)

/* Bytes at the start of a file searched for a NUL byte, the sign of a
 * binary file. 64 KiB finds the NULs of any object file or image early
 * and costs nothing on sources. Past it: a NUL further in is not looked
 * for; the file goes to clang, which skips NUL characters. */
#define SM_BINARY_SNIFF_BYTES 65536

/* Size of a .smemlint.yaml. A config is a few lines; 1 MiB is far above
 * any written by hand and keeps a stray or planted file from costing
 * memory. Past it: the config is an error naming it (exit 2). */
#define SM_CONFIG_MAX_BYTES (1u << 20)

/* YAML aliases (*name) in a .smemlint.yaml, and the bytes of the strings
 * its settings take with every alias expanded (billion laughs: 810 KB of
 * aliases once took 2 GB). No real config needs more than a few aliases;
 * 1 MiB of flags and globs is far above any. Past them: the config is an
 * error naming it and the line (exit 2). */
#define SM_CONFIG_MAX_ALIASES 1000
#define SM_CONFIG_MAX_EXPANDED (1u << 20)

/* Bytes of a source line quoted under a finding (text and HTML reports).
 * Lines of code are far shorter; generated or minified code can put 70 KB
 * on one line, and quoting all of it under each of its findings made the
 * report quadratic (89 MB of text for a 70 KB file). Past it: a window of
 * this many bytes around the caret is quoted, with "..." on each side that
 * was cut. */
#define SM_QUOTE_BYTES 200

/* Threads of one block: CUDA's limit on every GPU smemlint models. Past it:
 * --block-dim and block-dim: in .smemlint.yaml are errors; a larger
 * __launch_bounds__ is ignored (the shape is assumed); accesses under a
 * larger launch shape are not analyzed ("the block shape is not valid")
 * and no race is searched for. */
#define SM_MAX_BLOCK_THREADS 1024

/* Directories one walk descends through (its recursion). 256 is far
 * deeper than any source tree. Past it: the deeper directories are not
 * walked and each is named (input problem cannot-walk, exit 2). */
#define SM_MAX_DIR_DEPTH 256

/* clang diagnostics (errors) kept per file. 50 shows the first errors,
 * which explain the rest. Past it: the others are dropped (clang itself
 * stops at 20 errors unless told otherwise); the expression-nesting note
 * is not added past it either. */
#define SM_MAX_PARSE_NOTES 50

/* Response files (nvcc --options-file/-optf, @file) expanded inside one
 * another: CMake writes one level (includes_CUDA.rsp), and a file that
 * names itself must not loop. Past it: the deeper file is not read and the
 * file gets input problem compile-flags-incomplete. */
#define SM_MAX_RSP_DEPTH 8

/* Bytes read from one response file. CMake's include lists are a few KiB;
 * 1 MiB keeps a wrong path (a binary) from being split into flags. Past
 * it: the file is not read (compile-flags-incomplete). */
#define SM_MAX_RSP_BYTES (1u << 20)

/* A header-filter regular expression (--header-filter, or a checkout's
 * header-filter: key), before regcomp: its bytes, and the size of the
 * automaton its bounded repetitions expand to (atoms, each {m,n} counting
 * n copies). A real filter is tens of bytes and states; glibc's regcomp of
 * the 30-byte `a{1,255}{1,255}{1,255}` (16 million states) took 14.5 GB.
 * 10,000 states compile in well under a millisecond. Past either, and for
 * a back-reference (exponential matching): an error naming the pattern. */
#define SM_REGEX_MAX_BYTES 1024
#define SM_REGEX_MAX_STATES 10000
/* Repeating a part that can match empty (`a?+`, `(x*){1,900}`) costs the
 * square of the repeated size in epsilon closures, compounded when such
 * repeats stack: the 4,096-state `a?+++++++++++` compiled in 2.6 s (20 s
 * under ASan, a fuzzer's timeout). The guard sums those squares; 4 million
 * (`a?+++++++++`: 0.15 s) is far past any real filter (`.*` adds 1). */
#define SM_REGEX_MAX_WORK 4000000

/* Bytes of a --baseline file read. A fingerprint entry is about 150
 * bytes: 256 MiB holds 1.7 million findings, far above any real baseline,
 * and bounds what a checkout's baseline makes smemlint allocate. Past it:
 * an error naming the file (exit 2). */
#define SM_MAX_BASELINE_BYTES ((size_t)256 << 20)

/* Bytes of an Nsight Compute source export read (--compare-ncu). One
 * kernel's export is tens of KB; a whole program's with every launch a few
 * MB; 1 GiB bounds what a wrong path makes smemlint allocate. Past it: an
 * error naming the file. */
#define SM_MAX_NCU_EXPORT_BYTES 1073741824ull

/* Bytes of compile_commands.json read (-p). A large project's database is
 * tens of MB (a 30,000-file tree with long flag lists, about 60 MB); 1 GiB
 * bounds what a hostile checkout's file can make smemlint allocate. Past
 * it: an error naming the file. */
#define SM_MAX_COMPDB_BYTES 1073741824ull

/* Bytes of the file list read from standard input (PATH "-"). A path a
 * line, 64 MiB holds a million long paths, far above any source tree, and
 * keeps a stray binary piped in from filling memory. Past it: a usage
 * error naming standard input (exit 2); nothing is analyzed. */
#define SM_MAX_STDIN_LIST_BYTES (64u * 1024 * 1024)

/* ---- memory ---- */

/* The per-file memory budget: bytes of smemlint's own memory for one
 * file's analysis, in the arena of its translation unit (what outlives a
 * kernel: launches, notes, headers; and the whole IR of a file converted
 * whole) and, again, in each kernel's arenas (its IR when the file is
 * streamed kernel by kernel, its facts, the rules' scratch), which are
 * released after the kernel. 1 GiB leaves room for kernels of thousands
 * of statements on a 2-core, 8 GiB CI runner with two workers; a file
 * converted whole (one with a file-scope __shared__ array) holds some
 * 80,000 trivial kernels.
 * Not in it: clang's own syntax tree (as large as clang -fsyntax-only's),
 * and what is kept of the file's results, bounded by
 * SM_MAX_FILE_FINDINGS and SM_MAX_FILE_ACCESSES below (a run's report is
 * streamed as files finish, so files do not add up). Past it: the file's
 * results are partial (input problem partial-results, a warning: what
 * was found before is reported), or, when the parse itself did not fit,
 * the file is not analyzed (out-of-memory); the other files go on. */
#define SM_IR_ARENA_LIMIT ((size_t)1 << 30)

/* Bytes of thread addresses the race search keeps per kernel and block
 * shape (the same iteration vectors are asked for over and over). 64 MiB
 * holds 8 million addresses: every iteration of the corpus's kernels.
 * Past it: addresses are computed again each time, slower, same result.
 * The same amount again holds their copies sorted by address (each sorted
 * once, not once per pair); past it they are sorted per pair. */
#define SM_RACE_MEMO_BYTES ((size_t)64 << 20)

/* Distinct barrier scopes smaller than the block (a tile size, a
 * __syncwarp mask, a bar.sync count) the race search tells apart in one
 * kernel: each is one bit of a pair of threads' ordering. A kernel uses
 * one to three; 16 leaves room. Past it: a barrier of a further scope
 * orders no thread in the race search (races it does order may be
 * reported); its divergence is still judged. */
#define SM_MAX_BARRIER_SCOPES 16

/* Stack of each worker thread: libclang's parser and the front end recurse
 * once per nesting level (up to a few KiB each, more under AddressSanitizer);
 * 256 MiB of address space holds 70,000 nested unary operators. Past it:
 * clang's parser overflows the stack (SIGSEGV: the file is reported as an
 * internal-error and the others go on). Used by the workers
 * (driver/session_pool.c) and each file's child (driver/session_fork.c). */
#define SM_WORKER_STACK ((size_t)256 << 20)

/* Address space of the child process that analyzes one file (RLIMIT_AS;
 * not under AddressSanitizer, whose shadow needs terabytes of it). A
 * hostile checkout's `#include "/dev/zero"` makes libclang read without
 * end: 16 GB in 62 s before this bound; with it libclang fails its
 * allocation and the file is reported, the machine keeps its memory. The
 * heaviest real files measured take about 1.1 GB of RSS (a 2^20-leaf
 * macro), plus the stack above and libclang's mappings. */
#define SM_FILE_ADDRESS_SPACE ((size_t)8 << 30)

/* Stack the front end leaves unused below its recursion: it stops
 * descending where less than this is left (and at SM_FE_MAX_DEPTH). 1 MiB
 * is room for libclang's calls from the deepest level. Past it: the rest
 * of the expression is opaque (input problem nesting-too-deep). */
#define SM_STACK_RESERVE ((size_t)1 << 20)

/* Stack a recursive walk may use when its thread's stack bounds are
 * unknown (no pthread_getattr_np answer): the floor is this far below the
 * caller. 1 MiB is a small part of the 8 MiB of a default thread. Past
 * it: as SM_STACK_RESERVE. */
#define SM_STACK_FALLBACK ((size_t)1 << 20)

/* Free space (and `ulimit -f` room) required to build a precompiled
 * header. A PCH is ~10 MiB and is built in a child process, so a write
 * that fails costs only that build; the margin keeps the cache from
 * filling a nearly full disk. Below it: no PCH is built (a note says
 * why); files parse without one. */
#define SM_PCH_ROOM ((uint64_t)256 << 20)

/* Time a child process gets to build one precompiled header. A build
 * takes a few seconds; a child forked while another thread held a lock it
 * needs would wait forever. Past it: the child is killed, its temporary
 * directory removed, and files parse without a PCH (a note says why). */
#define SM_PCH_BUILD_SECONDS 120

/* Size of the header cache directory: a PCH is ~10 MiB and one is made
 * per distinct flag set (one per CMake target with its own include
 * directories), so a tree of many targets grew it without bound (1.2 GB
 * seen). 512 MiB holds ~50 keys. Past it: after each new PCH, the least
 * recently used ones (by mtime, which every run that uses a file renews)
 * are deleted until the directory fits; SMEMLINT_CACHE_MAX_MIB sets
 * another size. */
#define SM_PCH_CACHE_BYTES ((uint64_t)512 << 20)

/* Findings kept for one file. A finding with its bank map is about 500
 * bytes, so 10,000 is ~5 MiB; hand-written files give at most a few
 * hundred, and a generated one with more is better fixed at its generator.
 * Past it: the rest are left out and the file gets input problem
 * too-many-results (a warning). */
#define SM_MAX_FILE_FINDINGS 10000

/* Findings reported for one cause (one rule, level, kernel, array and
 * access kind) in one file; the rest are folded into the last one shown,
 * which says how many more and on which lines (--all-findings shows them).
 * A hand-written kernel gives a few per cause; a generated one (2,000
 * fall-through switch cases, each racing with the next) gives thousands of
 * one mistake, a report 25x its input. The counts and the exit code still
 * count every finding; a baseline written with --write-baseline holds them
 * all. */
#define SM_MAX_CAUSE_FINDINGS 50

/* Access records kept for one file (--all-accesses), about 100 bytes
 * each: 100,000 is ~10 MiB. Past it: the rest are left out and the file
 * gets input problem too-many-results (a warning). */
#define SM_MAX_FILE_ACCESSES 100000

/* Age after which a temporary directory of an unfinished PCH build of
 * another host (or an old-style temporary file) is deleted: an hour is far
 * longer than any build (a few seconds). Those of this host are deleted
 * as soon as the process that made them is gone. */
#define SM_PCH_TMP_AGE_S 3600

/* ---- work ---- */

/* Distinct block shapes a kernel is analyzed with (launch sites with
 * different constant shapes). Eight covers every kernel of the corpus and
 * of the public collections tried; more costs a full evaluation each. Past
 * it: the first eight launch shapes in source order are used. */
#define SM_MAX_BLOCK_SHAPES 8

/* Block shapes, besides the assumed one, that a barrier finding of a kernel
 * whose shape nothing gives is checked under (engine/launch.c lists them:
 * at most 8 by the dimensions the kernel reads). Each costs one race search
 * of the kernel, only when it has a barrier finding. Past it: the list in
 * launch.c is cut (a static assertion there keeps it within). */
#define SM_MAX_ASSUMED_SHAPES 8

/* Nested loops around an access whose iterations are enumerated (the IR
 * keeps one iteration counter per level). 8 is deeper than any kernel
 * seen. Past it: the deeper loops' counters are unknown values, and
 * accesses indexed by them are reported as not analyzed. */
#define SM_MAX_LOOPS 8

/* Loop-iteration tuples evaluated per warp for one access (the product of
 * the iterations of its loops). 2048 samples nested loops well at a few
 * milliseconds per access. Past it: the degree is that of the tuples
 * evaluated. */
#define SM_MAX_TUPLES 2048

/* Iterations of one loop with a decidable bound enumerated for the bank
 * model. 1024 iterations show the pattern of an affine index many times
 * over (its bank pattern repeats within 32). Past it: later iterations are
 * not evaluated. */
#define SM_MAX_ITER 1024

/* Iterations tried when a loop's bound is unknown (a parameter): 2 for an
 * additive counter (the pattern is the same each iteration), 12 for a
 * multiplicative one (strides grow: i *= 2 reaches 2^11). Past them: the
 * loop is assumed to have stopped. */
#define SM_UNKNOWN_ITER_ADD 2
#define SM_UNKNOWN_ITER_MUL 12

/* Iterations run to find a uniform loop's exit value (a counter read after
 * its loop). 4096 covers loops over a shared tile. Past it: the value is
 * unknown, and what depends on it is not analyzed. */
#define SM_LOOP_EXIT_MAX_ITER 4096

/* Testing whether a condition at the end of a loop body holds exactly when
 * the loop goes on (`if (j < n - 1) __syncthreads();`, engine/threads.c
 * sm_cond_continues_loop): the values tried for the uniform unknowns (the
 * evaluator's seeds: 1, 32, per-unknown, 2, 4, 3) and the iterations
 * followed for each. Six seeds reject the conditions that agree with the
 * loop for one size only; loops over a tile run far fewer than 256 times
 * under those values. Past the iterations: not known, and the barrier
 * under the condition is taken as skippable in any iteration. */
#define SM_CONTINUES_SEEDS 6
#define SM_CONTINUES_MAX_ITER 256

/* Expression nodes the lane evaluator visits for one condition (a guard,
 * a loop condition) and for one access address. Enough for the 10,000-
 * node trees of generated code, small enough that a pathological tree
 * costs milliseconds. Past them: the value is unknown (a condition is
 * undecidable, an address not analyzed). */
#define SM_EVAL_BUDGET_COND 100000
#define SM_EVAL_BUDGET_ACCESS 200000

/* Thread evaluations spent deciding, from the launches, whether the threads
 * of each block agree on one condition (or a loop's trip count): every
 * thread of every block of each launch that fixes its shape (and grid, when
 * the condition reads blockIdx; for a loop, every iteration of every
 * thread counts). A 512-block grid of 256 threads fits, and one condition
 * costs at most about 60 ms; past it the condition is judged by its syntax
 * (thread dependent means divergent), as when a launch is unknown. Only
 * conditions that hold a barrier or a jump are judged. */
#define SM_LAUNCH_VERDICT_EVALS (1 << 17)

/* Comparisons of shared elements with constants collected from one guard
 * condition to find two that no value satisfies together (correlate.c).
 * Real conditions have a handful; past it the rest are not compared, and
 * the guard is taken as true (as any undecidable guard). */
#define SM_CORRELATE_ATOMS 16
/* The work budget of one file (--analysis-budget sets another; 0 there
 * means none): expression nodes the lane evaluator visits, over every
 * kernel, block shape and rule of the file. A count rather than a clock,
 * so a file gets the same results on a loaded CI runner as on a laptop;
 * --timeout is the wall-clock backstop. A node costs about 10 ns with
 * the work around it (measured on the corpus), so 1e9 is about 10 seconds
 * of analysis, 23 times what the costliest file of the corpus uses
 * (idiom_sortnet.cu, 43 million), while a kernel that would run for
 * minutes (the cubic cases of issue 14 before their fixes took 20 s to 4
 * min) stops. Past it:
 * the accesses not yet reached are not analyzed, the race search stops
 * where it is (races found are kept), and the file gets input problem
 * analysis-budget-exceeded (a warning). */
#define SM_ANALYSIS_BUDGET 1000000000ull

/* The race search, per pair of accesses and search mode: iterations of a
 * loop with a known bound, iterations tried when the bound is unknown,
 * iteration tuples, thread evaluations, and candidate partner threads
 * verified per thread. Sized so a kernel's search takes well under a
 * second. Past them: the search stops; a race found is reported with
 * "(search capped)", and none found means none reported. */
#define SM_RACE_ITER_CAP 256
#define SM_RACE_UNKNOWN_ITER 3
#define SM_RACE_LEAVES 4096
#define SM_RACE_EVALS 4000000ul
#define SM_RACE_TRIES 64

/* Guards walked in each of two accesses' chains to find the one `if` whose
 * opposite arms they sit in (guards.c sm_arms_exclusive), per pair of
 * threads verified. Past it: the arms are not seen as exclusive, and the
 * race search may pair threads that take opposite arms of a condition
 * alike for both, as before. */
#define SM_ARMS_GUARD_WALK 64

/* Distinct (byte interval, thread) touches the race search's index keeps
 * per kernel and block shape (engine/raceindex.h): 24 bytes each, so 1M
 * is 24 MiB. Accesses with the same addresses share their touches, so
 * only a kernel of over ~4,000 accesses of different addresses (at 256
 * threads) fills it. Past it: the accesses left out pair as before the
 * index (every pair is tried), slower, same result. */
#define SM_RACE_INDEX_TOUCHES ((size_t)1 << 20)

/* Guard values kept per kernel (analyzer/engine/bank.c): whether the
 * chain of guards from one guard on holds, for one thread. Accesses share
 * the tails of their chains, so a kernel whose n-th access lies under n
 * guards (an `if (...) goto` or early return per statement) evaluates each
 * guard once per thread instead of once per access. 24 bytes an entry:
 * 1M entries is 24 MiB at most, room for 1,000 guards of a 1,024-thread
 * block. Past it: new values are computed each time (slower, same
 * result). */
#define SM_GUARD_MEMO_ENTRIES ((size_t)1 << 20)

/* Padding amounts (elements added to the last dimension) the --fix search
 * tries: 1 to 32, one full turn of the 32 banks. Past it: larger paddings
 * are not tried (the other fixes, such as the offset index form, still
 * are). */
#define SM_MAX_PAD 32

/* ---- recursion: depth of the walks over the IR and clang's tree ----
 * Each walk recurses once per level on the worker's stack
 * (SM_WORKER_STACK); the caps keep deep generated code (10,000-deep
 * expressions and statement chains in tests/test_hostile.py) from
 * exhausting it. Each comment says what happens past the cap. */

/* Front end, clang's tree to IR (analyzer/front/frontend.c). Past it: the
 * rest of the expression is opaque (input problem nesting-too-deep). */
#define SM_FE_MAX_DEPTH 2000
/* Front end: casts and parentheses stripped around one operand, and
 * subscripts or member accesses followed to find an access's array. Past
 * them: the operand is taken as it is (not recognized as a shared array). */
#define SM_FE_STRIP_CHAIN 64
#define SM_FE_PLACE_CHAIN 16
/* Front end: the arguments of one call looked at (analyzer/front/
 * convert_call.c). Every modelled device call takes at most 4 (atomicCAS
 * 3); past it, the further arguments of an opaque call are not evaluated
 * (their shared accesses are not analyzed). */
#define SM_FE_CALL_ARGS 8
/* Front end: the arguments of a call in a __launch_bounds__ expression
 * (analyzer/front/launch_bounds.c), each matched by value with a call in
 * the kernel's body. Past it: no bound is read. */
#define SM_LB_CALL_ARGS 8

/* Asynchronous copies (cp.async) the front end keeps in flight at once in
 * one kernel, to repeat after each barrier until their wait: a pipeline
 * issues a few per stage and waits each iteration. Past it a copy is taken
 * as complete at once (a race on it may be missed; no false one). */
#define SM_FE_ASYNC_PENDING 64

/* Bytes of one bulk copy (cp.async.bulk) the front end models as one
 * thread's store: a block's shared memory is at most 227 KiB on sm_90, so
 * a larger size is no real copy. Past it the copy is not modelled (a race
 * on it may be missed; no false one). */
#define SM_FE_BULK_BYTES (256 * 1024)

/* clang's -ferror-limit for a parse: errors before clang stops parsing
 * the file. Code nvcc accepts and clang rejects (a __shared__ cuda::barrier,
 * '%clusterid' in inline asm) is one error per use, read as a note: 20,
 * clang's default, cut real files short. Past it: the rest of the file is
 * not parsed (the parse-error says so). */
#define SM_FE_ERROR_LIMIT 1000

/* Commits, waits and shared loads of one loop body the front end notes
 * to follow the copies in flight at its end into the next iteration
 * (convert_async.c cv_async_loop_end): a pipeline's body has a few. Past
 * it the loop's copies are not followed over its back edge (a read before
 * their wait may be missed; no false finding). */
#define SM_FE_LOOP_EVENTS 4096

/* Passes of a loop body followed to find when its waits complete a copy
 * issued before the loop (convert_async_flow.c, sm_access.pending_until):
 * a pipeline of N stages completes its prologue's last copy after N - 2
 * iterations. Past it the copy counts as pending at every iteration (a
 * read of its bytes at a later stage may be reported). */
#define SM_FE_PENDING_PASSES 8

/* Elements of local arrays the front end follows as variables at once in
 * one kernel (`sumf[j] = warp_sum(sumf[j]); buf[w] = sumf[j];`), and the
 * local arrays whose uses it has checked: a kernel keeps a handful of
 * accumulator arrays. Past them a store leaves its element unknown per
 * thread, as before they were followed (no false race; a uniform value
 * may be taken as per thread). */
#define SM_FE_LOCAL_ELEMS 32
#define SM_FE_LOCAL_ARRAYS 32
/* ...and the bytes of an element's index written as words (`sumf[j]`:
 * "j "); a longer index is not followed. */
#define SM_FE_LOCAL_KEY 256

/* Nodes one walk of uniform.c visits to tell how far a value is alike
 * between threads (its span): a closed expression shares subtrees, which
 * a walk meets once per path, and the divergence rule asks it of every
 * thread-dependent condition. Past it the value is taken as per thread
 * (the walk's answer then is what it was before spans existed). */
#define SM_SPAN_NODES 4096

/* How far back (bytes) the nvcc-dialect table looks from a clang error for
 * the asm keyword of the statement it sits in (front/nvcc_dialect.c): an
 * asm statement's operand list is far shorter. Past it the error stays a
 * parse error. */
#define SM_DIALECT_LOOKBACK 4096

/* How far (bytes) a spaced launch's opening `<< <` is followed to the
 * `>> >` that closes it (front/nvcc_dialect.c, sm_dialect_launch_brackets):
 * a launch's configuration is a few expressions. Past it the brackets are
 * left as written (clang's parse error then names the line), and a file of
 * many `<< <` is scanned in time linear in its size times this bound. */
#define SM_DIALECT_LAUNCH_SPAN 4096

/* The missing-header report (front/missing_headers.c) names at most this
 * many headers and functions not analyzed ("and N more" after), in a
 * message of at most this many bytes each: a torch extension misses a
 * handful of headers, and a file of 200 instantiations should not give a
 * 20 KB line. */
#define SM_MISSING_LIST_NAMES 8
#define SM_MISSING_LIST_BYTES 1024

/* Nodes walked to list the uniform unknowns an address or a loop bound
 * reads (guards.c, sm_access_unknowns): a race witness whose loop bound and
 * address read one parameter must hold at one value of it. Past it the
 * walk answers "every unknown", so a witness that needs such a loop to run
 * is refused where its bound is false at the seed's values (a race on it
 * may be missed; no false one). */
#define SM_UNKNOWN_WALK_NODES 4096

/* Front end, inlining __device__ calls (analyzer/front/convert_call.c):
 * calls followed inside one another. Helper chains in real kernels are 2
 * to 4 deep; 16 leaves room for template layers (CUB-style) and stops
 * recursion unrolled by hand. Past it, and for any recursive call: the
 * call is not followed (its accesses are not analyzed there) and input
 * problem call-not-followed says so. */
#define SM_MAX_CALL_DEPTH 16
/* Front end, cooperative groups (analyzer/front/barrier_scope.c): tile
 * variables followed back to the tiled_partition that made them (a tile
 * copied from a tile copied from ...). Real code copies a tile once, if
 * at all. Past it the tile's parent is unknown: its meta_group_rank() is
 * an unknown alike in the tile. */
#define SM_FE_TILE_CHAIN 4
/* Front end: project headers whose code is converted with one file
 * (--header-filter). A project's own headers number in the tens; 256
 * bounds the header table of one file. Past it: a further header's kernels
 * are not analyzed in that file, and a call into it is reported at the
 * call, as for a header the filter leaves out. */
#define SM_MAX_CONVERTED_HEADERS 256
/* Front end: shared accesses one kernel may hold once its calls are
 * inlined (each call site gets its own copy of the callee). 20,000 is 50
 * times the largest kernel of the corpus and keeps a helper called from
 * nested loops of helpers from growing exponentially. Past it: further
 * calls are not followed (call-not-followed). */
#define SM_INLINE_MAX_ACCESSES 20000

/* Front end, host values at a launch (analyzer/front/convert_host.c):
 * nested operators and locals followed to compute an argument, block or
 * grid size. Real launch expressions are 1 to 5 deep. Past it: the value
 * is unknown at that launch. */
#define SM_HOST_EVAL_DEPTH 32

/* Front end: host function template specializations walked for launches
 * inside one another (convert_kernel.c walk_instantiation: `dispatch(f,
 * n)` calling a generic lambda that launches). Past it: a launch deeper
 * down is not found, and its kernel's block shape is assumed, as before. */
#define SM_HOST_INST_DEPTH 8
/* Kernel arguments recorded per launch. Kernels take a handful; 64 covers
 * generated ones. Past it: none of that launch's arguments are used. */
#define SM_MAX_LAUNCH_ARGS 64

/* Bank engine: values tried for the uniform unknowns of an index
 * (parameters, blockIdx; see opaque_value in analyzer/engine/bank.c).
 * Six tries (1, 32, a value per unknown, 2, 4, 3) tell an index whose
 * degree depends on the value from one that does not, and leave small
 * in-bounds tries where large ones fall outside the array. Past them: the
 * access is not analyzed ("depends on a value known only at run time"). */
#define SM_UNKNOWN_TRIES 6

/* Bank engine: a cp.async whose global source reads values the analysis
 * does not know (a row stride K, blockIdx): the values tried for them,
 * large multiples of 128 (1024, 4096, one per unknown), the row strides
 * of whole 128-byte lines a tiled GEMM's K, N or lda give. Three tell a
 * count of wavefronts that depends on the value (then only the shared
 * side is predicted) from one that does not. The seeds start at
 * SM_SEED_STRIDE, past SM_UNKNOWN_TRIES's. */
#define SM_STRIDE_TRIES 3
#define SM_SEED_STRIDE 100

/* Bank engine: iterations a loop-carried recurrence (pos = (pos + 4) &
 * 63, an update under a guard) is stepped to reach one iteration's value.
 * Each evaluation costs as many steps as the iteration, so this bounds the
 * quadratic cost; 256 covers tile loops. Past it: the value is unknown and
 * the access is not analyzed. */
#define SM_RECURRENCE_MAX_ITER 256

/* Bank engine, fused accesses (analyzer/engine/merge.c): loop iterations
 * at which a candidate group's addresses are checked to be consecutive
 * and aligned for every thread. Group members share their loop, so the
 * relation is a fact of the index expressions; two iterations catch an
 * induction variable that breaks it. Past them: not checked (a relation
 * that holds for the first two iterations is taken to hold). */
#define SM_MERGE_CHECK_ITERS 2

/* Launch contexts per kernel (analyzer/engine/facts.c): launches that fix
 * different values of a parameter each get a model of their own. Real
 * programs launch one kernel with a few configurations; 8 matches
 * SM_MAX_BLOCK_SHAPES. Past it: further launches are not analyzed. */
#define SM_MAX_LAUNCH_CONTEXTS 8

/* Resolver: substituting variable values into an index. Past it: that part
 * of the index is unknown (the access is not analyzed). */
#define SM_RESOLVE_MAX_DEPTH 4000
/* Resolver: statement depth searched for the variables a loop assigns.
 * Past it: deeper assignments are not seen. */
#define SM_RESOLVE_STMT_DEPTH 2000
/* Resolver: statements searched for thread-dependent assignments. Past it:
 * deeper ones are not marked. */
#define SM_RESOLVE_DEP_DEPTH 1000
/* Resolver: expression searched for references to assigned variables.
 * Past it: assumed to refer to one (the safe answer). */
#define SM_RESOLVE_REFS_DEPTH 500
/* Resolver: pointers followed back to the array they point into. Past it:
 * the pointer's array is unknown (its accesses are not analyzed). */
#define SM_RESOLVE_PLACE_DEPTH 64
/* Resolver: the explicit stack and the node budget of the thread
 * dependence test. Past them: the value is taken as thread dependent (the
 * safe answer). */
#define SM_THREAD_DEP_STACK 256
#define SM_THREAD_DEP_BUDGET 200000

/* Lane evaluator: expression depth. Past it: the value is unknown. */
#define SM_EVAL_MAX_DEPTH 3000

/* Scans of one expression (uses of a threadIdx dimension, uniform
 * unknowns, loop counters) and of a statement tree (uses of a threadIdx
 * dimension, to pick the assumed block shape). Past them: the deeper part
 * is not searched; a loop counter is assumed to be there (the safe
 * answer), a dimension or uniform unknown is not. */
#define SM_SCAN_EXPR_DEPTH 200
#define SM_SCAN_STMT_DEPTH 500

/* Barrier divergence and the race search's control-flow graph: statement
 * depth. Past it: deeper statements are left out of the graph. */
#define SM_CFG_MAX_DEPTH 2000

/* The race graph's path variables (engine/cfg.h): conditions and loop
 * iterations a walk keeps, each tripling the contexts a node is walked
 * in (3^4 = 81). A kernel has few conditions repeated on one uniform
 * value (flash attention's `if (tile == 0)`); past it the further ones
 * are not kept, and a walk may follow a path no thread runs (a race
 * reported that a second look shows is not one), never the reverse. */
#define SM_CFG_PATH_VARS 4

/* Node, phase and context states one walk may mark (two int arrays of
 * this size, 16 MB): fewer path variables are kept on a graph too large
 * for all of them. */
#define SM_CFG_PATH_STATES (1 << 21)

/* Header cache: directory depth of a toolkit's include tree hashed for its
 * identity (guards against symlink loops). Past it: deeper files do not
 * count towards the identity. */
#define SM_PCH_TREE_DEPTH 16

/* ---- TMA swizzle check (engine/tma.c) ---- */

/* XORs in one access's index whose readings are each tried (2^N
 * readings). A swizzled index has one or two; an index with more is not
 * judged (no finding). */
#define SM_TMA_XORS 3

/* Iterations of the enclosing loops tried per thread (all at the same
 * count): a box read in a loop shows its layout in the first few. */
#define SM_TMA_ITERS 4

/* Threads per block the check walks; 1024 is the most a block has. */
#define SM_TMA_THREADS 1024

/* Expression depth walked when undoing an index's XORs; deeper nodes are
 * kept as they are. */
#define SM_TMA_EXPR_DEPTH 64

/* ---- command line (tools/smemlint.c) ---- */

/* -j: worker threads (or child processes with --timeout). 256 is more
 * cores than a build machine has. Past it: a usage error. */
#define SM_MAX_JOBS 256

/* --shard K/N: the largest N. 100,000 shards of one file each is more
 * than any CI matrix. Past it: a usage error. */
#define SM_MAX_SHARDS 100000

/* --timeout: the longest limit, in seconds. 1e6 s (11.6 days) is no
 * limit for any real run; a larger value is taken for a mistake. Past it:
 * a usage error. */
#define SM_MAX_TIMEOUT_S 1e6

#endif
