#!/usr/bin/env python3
"""Compare smemlint's predictions with the GPU measurements in corpus/measured.

    tools/compare.py --smemlint build/smemlint --corpus corpus \\
        --measured corpus/measured --known corpus/known-differences.txt [--markdown]

Bank conflicts: for each CUDA line with measured shared-memory wavefronts
(corpus/measured/F.tsv, from tools/gpu/import.py) the predicted degree is the
largest `ways` of smemlint's analyzed accesses on that line; a line with no
access of its own that calls an inlined __device__ helper is predicted by the
accesses made inside that call (their `call_lines`), because nvcc attributes
part of an inlined body's instructions to the call line.
  exact        |measured - predicted| <= 5% of predicted
  exact(mean)  the line's degree varies over warps/iterations (mean_ways !=
               ways) and the measured value is within 5% of the largest
               mean_ways (a non-unrolled instruction measures the mean);
               counted as exact, shown separately
  over         predicted > measured
  under        predicted < measured
  unpredicted  no analyzed access on the line
  unmeasured   smemlint has accesses on a line with no measurement (code the
               compiler removed or never ran); informational only
Races: each racecheck pair (unordered pair of lines in a file) is found when a
missing-barrier or warp-sync result has {line, related[0].line} equal to it
(a cluster hazard, one line: another block's shared memory touched before
it entered or after it exited, is found by a result naming that line);
smemlint race results matching no racecheck pair are extra.
Out of bounds: each line compute-sanitizer memcheck reports an invalid
__shared__ access on (corpus/measured/memcheck.tsv) is found when a
shared-out-of-bounds result names that line, and its witness is confirmed
when the witness thread is one memcheck reports there (oob-witness when
not); a shared-out-of-bounds result on a line memcheck ran clean is extra
(files memcheck finished only).
Launch limits: each launch a corpus program reports with its runtime status
(corpus/measured/launches.tsv) is refused (a status other than ok) or runs;
a refused launch is found when a shared-launch-limit result names its line
(limit-missed when not), and a result on a launch that ran is limit-extra.

corpus/known-differences.txt lists accepted mismatches, one per line:
    FILE:LINE  KIND  # reason
KIND is over, under, unpredicted, race-missed, race-extra, oob-missed,
oob-extra, oob-witness, limit-missed or limit-extra.  FILE is the .cu
name (a path is reduced to its basename).  For race kinds LINE is the smaller
line of the pair, or both as FILE:A,B.  Every entry needs a reason; entries
that no longer differ are stale and an error.

Exit status: 0 all mismatches known; 1 unknown mismatch, stale or malformed
known-differences entry; 2 smemlint or input failure.
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys

MISMATCH_KINDS = ('over', 'under', 'unpredicted', 'race-missed', 'race-extra', 'oob-missed', 'oob-extra',
                  'oob-witness', 'limit-missed', 'limit-extra')
LIMIT_RULE = 'shared-launch-limit'
OOB_RULE = 'shared-out-of-bounds'
RACE_RULES = ('missing-barrier', 'warp-sync')
TOL = 0.05


def base(path):
    return os.path.basename(path or '')


# ---------------------------------------------------------------- inputs

def run_smemlint(exe, corpus):
    files = sorted(glob.glob(os.path.join(corpus, '*.cu')))
    if not files:
        raise SystemExit('compare: no .cu files in %s' % corpus)
    cmd = [exe, '--format=json', '--all-accesses'] + files
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError as e:
        print('compare: cannot run %s: %s' % (exe, e), file=sys.stderr)
        sys.exit(2)
    if p.returncode not in (0, 1):
        sys.stderr.write(p.stderr.decode(errors='replace'))
        print('compare: %s exited with %d' % (' '.join(cmd[:3]) + ' ...', p.returncode), file=sys.stderr)
        sys.exit(2)
    try:
        return json.loads(p.stdout.decode(errors='replace'))
    except ValueError as e:
        sys.stderr.write(p.stderr.decode(errors='replace'))
        print('compare: smemlint output is not JSON: %s' % e, file=sys.stderr)
        sys.exit(2)


def read_tsv(path):
    """Rows of a tab-separated file with '#' comment lines; returns (comments, rows as dicts)."""
    comments, rows, hdr = [], [], None
    with open(path) as fh:
        for l in fh:
            l = l.rstrip('\n')
            if not l.strip():
                continue
            if l.startswith('#'):
                comments.append(l)
                continue
            parts = l.split('\t')
            if hdr is None:
                hdr = parts
                continue
            rows.append(dict(zip(hdr, parts)))
    return comments, rows


def parse_threads(text):
    """'256-287/0/0,320/0/0' -> {(x, y, z)}."""
    out = set()
    for part in (text or '').split(','):
        bits = part.strip().split('/')
        if len(bits) != 3:
            continue
        lo, _, hi = bits[0].partition('-')
        for x in range(int(lo), int(hi or lo) + 1):
            out.add((x, int(bits[1]), int(bits[2])))
    return out


def read_memcheck(folder):
    """{(file.cu, line): set of threads} of invalid __shared__ accesses, and
    the set of files memcheck finished (None: no memcheck.tsv)."""
    mp = os.path.join(folder, 'memcheck.tsv')
    if not os.path.exists(mp):
        return {}, None
    comments, rows = read_tsv(mp)
    checked = set()
    for c in comments:
        m = re.match(r'#\s*memcheck-files:\s*(.*)', c)
        if m:
            checked = {x.strip() for x in m.group(1).split(',') if x.strip()}
    oob = {}
    for r in rows:
        oob.setdefault((base(r['file']), int(r['line'])), set()).update(parse_threads(r.get('threads')))
    return oob, checked


def read_launches(folder):
    """{(file.cu, line): status} of the launches the corpus programs report."""
    lp = os.path.join(folder, 'launches.tsv')
    if not os.path.exists(lp):
        return {}
    return {(base(r['file']), int(r['line'])): r['status'] for r in read_tsv(lp)[1]}


def read_totals(folder):
    """{file.cu: {line: (wavefronts, ideal)}}: the line's shared wavefronts
    and their ideal, summed over its instructions and the kernel's launch."""
    out = {}
    for p in sorted(glob.glob(os.path.join(folder, '*.tsv'))):
        if os.path.basename(p) in ('racecheck.tsv', 'memcheck.tsv', 'launches.tsv'):
            continue
        _, rows = read_tsv(p)
        d = {}
        for r in rows:
            try:
                d[int(r['line'])] = (float(r['wavefronts']), float(r['ideal']))
            except (KeyError, ValueError):
                continue
        out[os.path.basename(p)[:-4] + '.cu'] = d
    return out


def totals_agree(data, totals):
    """(lines, agree): of the measured lines every access of which has a
    predicted per-launch total (smemlint's "wavefronts"), how many have
    the measured wavefronts and ideal exactly (an access counted once,
    summed over the line's accesses)."""
    pred = {}
    for a in data.get('accesses', []):
        w = a.get('wavefronts')
        k = (base(a.get('file')), int(a.get('line', 0)))
        if not w or 'per_launch' not in w or not w.get('exact', False):
            pred[k] = None
            continue
        if k in pred and pred[k] is None:
            continue
        x = pred.setdefault(k, [0, 0])
        x[0] += w['per_launch']
        x[1] += w['ideal_per_launch']
    lines = agree = 0
    for f, rows in totals.items():
        for line, (wf, ideal) in rows.items():
            p = pred.get((f, line))
            if not p:
                continue
            lines += 1
            agree += p[0] == wf and p[1] == ideal
    return lines, agree


def read_measured(folder):
    """{file.cu: {line: degree}}, races list, set of racechecked files (or None)."""
    lines = {}
    for p in sorted(glob.glob(os.path.join(folder, '*.tsv'))):
        if os.path.basename(p) in ('racecheck.tsv', 'memcheck.tsv', 'launches.tsv'):
            continue
        cu = os.path.basename(p)[:-4] + '.cu'
        _, rows = read_tsv(p)
        d = {}
        for r in rows:
            try:
                deg = float(r['degree'])
            except (KeyError, ValueError):
                continue
            d[int(r['line'])] = deg
        lines[cu] = d
    races, checked = [], None
    rp = os.path.join(folder, 'racecheck.tsv')
    if os.path.exists(rp):
        comments, rows = read_tsv(rp)
        for c in comments:
            m = re.match(r'#\s*racecheck-files:\s*(.*)', c)
            if m:
                checked = {s.strip() for s in m.group(1).split(',') if s.strip()}
        for r in rows:
            races.append((base(r['file']), int(r['line_a']), int(r['line_b']), r.get('severity', '')))
    return lines, races, checked


def read_known(path):
    """{(file, key, kind): reason}, errors.  key is an int line or a frozenset pair."""
    known, errors = {}, []
    if not path or not os.path.exists(path):
        return known, errors
    with open(path) as fh:
        for n, l in enumerate(fh, 1):
            s = l.strip()
            if not s or s.startswith('#'):
                continue
            body, _, reason = s.partition('#')
            parts = body.split()
            where = '%s:%d' % (path, n)
            if len(parts) != 2:
                errors.append('%s: expected "FILE:LINE  KIND  # reason": %s' % (where, s))
                continue
            loc, kind = parts
            if kind not in MISMATCH_KINDS:
                errors.append('%s: unknown kind %r (one of %s)' % (where, kind, ', '.join(MISMATCH_KINDS)))
                continue
            m = re.fullmatch(r'(.+):(\d+)(?:,(\d+))?', loc)
            if not m:
                errors.append('%s: bad location %r' % (where, loc))
                continue
            f = base(m.group(1))
            if m.group(3):
                if not kind.startswith('race'):
                    errors.append('%s: a line pair is only for race kinds' % where)
                    continue
                key = frozenset((int(m.group(2)), int(m.group(3))))
            else:
                key = int(m.group(2))
            if not reason.strip():
                errors.append('%s: entry without a "# reason": %s' % (where, s))
            k = (f, key, kind)
            if k in known:
                errors.append('%s: duplicate entry %s %s' % (where, loc, kind))
            known[k] = (reason.strip(), where)
    return known, errors


# ---------------------------------------------------------------- comparison

def close(a, b):
    return abs(a - b) <= TOL * b


def compare(data, measured, races, checked, oob=None, mchecked=None, launches=None):
    acc_by_line = {}
    acc_by_call = {}  # accesses of inlined helpers, by the lines of their calls
    for a in data.get('accesses', []):
        acc_by_line.setdefault((base(a.get('file')), int(a.get('line', 0))), []).append(a)
        for cl in a.get('call_lines') or []:
            acc_by_call.setdefault((base(a.get('file')), int(cl)), []).append(a)
    files = sorted(set(measured) | {f for f, _ in acc_by_line} | {r[0] for r in races}
                   | {base(r.get('file')) for r in data.get('results', []) if r.get('rule') in RACE_RULES})
    oob = oob or {}
    lint_oob = {}
    for r in data.get('results', []):
        if r.get('rule') == OOB_RULE:
            lint_oob.setdefault((base(r.get('file')), int(r.get('line', 0))), []).append(r)
    launches = launches or {}
    files = sorted(set(files) | {f for f, _ in oob} | {f for f, _ in lint_oob} | {f for f, _ in launches})
    stats = {f: dict(lines=0, exact=0, exact_mean=0, over=0, under=0, unpredicted=0, unmeasured=0,
                     race_pairs=0, race_found=0, race_missed=0, race_extra=0, oob_lines=0, oob_found=0,
                     oob_extra=0, oob_witness=0, limit_refused=0, limit_found=0, limit_extra=0,
                     measured=f in measured)
             for f in files}
    details = []  # (file, line-or-pair, kind, text)

    for f, mlines in measured.items():
        for line, m in sorted(mlines.items()):
            st = stats[f]
            st['lines'] += 1
            here = acc_by_line.get((f, line), [])
            if not here:
                # a call line: nvcc attributes part of the inlined helper's
                # accesses to the line of the call
                here = acc_by_call.get((f, line), [])
            accs = [a for a in here if a.get('analyzed', True)
                    and a.get('ways') is not None]
            if not accs:
                st['unpredicted'] += 1
                n_un = len(acc_by_line.get((f, line), []))
                details.append((f, line, 'unpredicted', 'measured %.2f, %s' % (
                    m, '%d access(es) not analyzed' % n_un if n_un else 'no access found')))
                continue
            p = max(float(a['ways']) for a in accs)
            means = [float(a['mean_ways']) for a in accs if a.get('mean_ways') is not None]
            varies = any(a.get('mean_ways') is not None and abs(float(a['mean_ways']) - float(a['ways'])) > 1e-9
                         for a in accs)
            if close(m, p):
                st['exact'] += 1
            elif varies and means and close(m, max(means)):
                st['exact_mean'] += 1
                details.append((f, line, 'exact(mean)', 'measured %.2f, ways %g, mean_ways %.2f'
                                % (m, p, max(means))))
            else:
                kind = 'over' if p > m else 'under'
                st[kind] += 1
                extra = (', mean_ways %.2f' % max(means)) if varies and means else ''
                details.append((f, line, kind, 'measured %.2f, predicted %g%s' % (m, p, extra)))

    for (f, line), accs in sorted(acc_by_line.items()):
        if f in measured and line not in measured[f]:
            stats[f]['unmeasured'] += 1
            details.append((f, line, 'unmeasured', 'predicted %s, no wavefronts measured' % (
                max((a.get('ways') or 0) for a in accs) if any(a.get('analyzed', True) for a in accs)
                else 'n/a')))

    # races
    lint_pairs = {}
    for r in data.get('results', []):
        if r.get('rule') not in RACE_RULES:
            continue
        f = base(r.get('file'))
        lines = {int(r.get('line', 0))}
        rel = r.get('related') or []
        if rel and rel[0].get('line') is not None:
            lines.add(int(rel[0]['line']))
        lint_pairs.setdefault((f, frozenset(lines)), []).append(r.get('rule'))
    rc_pairs = {}
    for f, la, lb, sev in races:
        rc_pairs.setdefault((f, frozenset((la, lb))), set()).add(sev)

    def same_race(rc, lint):
        # line 0: racecheck saw that side inside a toolkit header's inline
        # function (import.py), called from some line of the kernel; one
        # line: a cluster hazard (another block's shared memory touched
        # with no cluster barrier), found by a finding naming that line
        return rc == lint or (0 in rc and len(rc) == 2 and (rc - {0}) <= lint) or (len(rc) == 1 and rc <= lint)

    def lint_has(f, pair):
        return (f, pair) in lint_pairs or any(g == f and same_race(pair, lp) for g, lp in lint_pairs)

    for (f, pair), sevs in sorted(rc_pairs.items(), key=lambda x: (x[0][0], sorted(x[0][1]))):
        st = stats[f]
        st['race_pairs'] += 1
        if lint_has(f, pair):
            st['race_found'] += 1
        else:
            st['race_missed'] += 1
            details.append((f, pair, 'race-missed', 'racecheck %s lines %s' % (
                '/'.join(sorted(sevs)), ','.join(map(str, sorted(pair))))))
    for (f, pair), rules in sorted(lint_pairs.items(), key=lambda x: (x[0][0], sorted(x[0][1]))):
        if (f, pair) in rc_pairs or any(g == f and same_race(rp, pair) for g, rp in rc_pairs):
            continue
        if checked is not None and f not in checked:
            continue
        stats[f]['race_extra'] += 1
        details.append((f, pair, 'race-extra', '%s lines %s, racecheck saw none' % (
            '/'.join(sorted(set(rules))), ','.join(map(str, sorted(pair))))))
    # out of bounds
    for (f, line), threads in sorted(oob.items()):
        st = stats[f]
        st['oob_lines'] += 1
        found = lint_oob.get((f, line))
        if not found:
            details.append((f, line, 'oob-missed', 'memcheck: %d thread(s) out of bounds' % len(threads)))
            continue
        st['oob_found'] += 1
        wit = [tuple(r['witness']['thread']) for r in found if r.get('witness')]
        if any(w in threads for w in wit):
            st['oob_witness'] += 1
        else:
            details.append((f, line, 'oob-witness', 'witness thread %s not among memcheck\'s %d'
                            % (','.join('(%d,%d,%d)' % w for w in wit) or 'none', len(threads))))
    for (f, line), rs in sorted(lint_oob.items()):
        if (f, line) in oob or mchecked is None or f not in mchecked:
            continue
        stats[f]['oob_extra'] += 1
        details.append((f, line, 'oob-extra', 'memcheck ran the file clean'))
    # launch limits
    lint_lim = {(base(r.get('file')), int(r.get('line', 0))) for r in data.get('results', [])
                if r.get('rule') == LIMIT_RULE}
    for (f, line), status in sorted(launches.items()):
        st = stats[f]
        if status != 'ok':
            st['limit_refused'] += 1
            if (f, line) in lint_lim:
                st['limit_found'] += 1
            else:
                details.append((f, line, 'limit-missed', 'the runtime refused the launch: %s' % status))
        elif (f, line) in lint_lim:
            st['limit_extra'] += 1
            details.append((f, line, 'limit-extra', 'the launch ran'))
    details.sort(key=lambda d: (d[0], min(d[1]) if isinstance(d[1], frozenset) else d[1]))
    return files, stats, details


def match_known(details, known):
    """Mark details known/unknown; return (annotated details, unknown count, stale entries)."""
    used = set()
    out, unknown = [], 0
    for f, key, kind, text in details:
        status = ''
        if kind in MISMATCH_KINDS:
            cands = []
            if isinstance(key, frozenset):
                cands = [(f, key, kind), (f, min(key), kind)]
            else:
                cands = [(f, key, kind)]
            hit = next((c for c in cands if c in known), None)
            if hit:
                used.add(hit)
                status = 'known: ' + (known[hit][0] or '(no reason)')
            else:
                status = 'NEW'
                unknown += 1
        out.append((f, key, kind, text, status))
    stale = [(k, v) for k, v in known.items() if k not in used]
    return out, unknown, stale


def loc(f, key):
    if isinstance(key, frozenset):
        return '%s:%s' % (f, ','.join(map(str, sorted(key))))
    return '%s:%d' % (f, key)


# ---------------------------------------------------------------- output

COLS = [('file', None), ('smem lines', 'lines'), ('seen', 'seen'), ('exact', 'exact'), ('exact(mean)', 'exact_mean'),
        ('over', 'over'), ('under', 'under'), ('unpredicted', 'unpredicted'), ('unmeasured', 'unmeasured'),
        ('races found', 'race_found'), ('missed', 'race_missed'), ('extra', 'race_extra'),
        ('oob found', 'oob_found'), ('oob extra', 'oob_extra')]


def table_rows(files, stats):
    rows = []
    tot = {k: 0 for _, k in COLS if k}
    tot['race_pairs'] = 0
    tot['oob_lines'] = 0
    tot['oob_witness'] = 0
    for k in ('limit_refused', 'limit_found', 'limit_extra'):
        tot[k] = 0
    for f in files:
        st = stats[f]
        st['seen'] = st['lines'] - st['unpredicted']
        row = [f + ('' if st['measured'] else ' (not measured)')]
        for _, k in COLS[1:]:
            if k == 'race_found':
                row.append('%d/%d' % (st['race_found'], st['race_pairs']))
            elif k == 'oob_found':
                row.append('%d/%d' % (st['oob_found'], st['oob_lines']))
            else:
                row.append(str(st[k]))
        for k in tot:
            tot[k] += st[k]
        rows.append(row)
    trow = ['TOTAL'] + [('%d/%d' % (tot['race_found'], tot['race_pairs'])) if k == 'race_found'
                        else ('%d/%d' % (tot['oob_found'], tot['oob_lines'])) if k == 'oob_found'
                        else str(tot[k]) for _, k in COLS[1:]]
    return rows, trow, tot


def render(files, stats, annotated, unknown, stale, known_errors, markdown, notes, totals=(0, 0), split=False):
    """The comparison as text (Markdown with markdown). With split (the
    README): (the tables and totals, the Markdown differences table that
    doc/accuracy.md holds)."""
    rows, trow, tot = table_rows(files, stats)
    hdr = [c for c, _ in COLS]
    out = []
    dout = []
    pct = 100.0 * (tot['exact'] + tot['exact_mean']) / tot['lines'] if tot['lines'] else 0.0
    seen_pct = 100.0 * tot['seen'] / tot['lines'] if tot['lines'] else 0.0
    if markdown:
        out.append('| ' + ' | '.join(hdr) + ' |')
        out.append('|' + '|'.join(['---'] + ['---:'] * (len(hdr) - 1)) + '|')
        for r in rows + [['**TOTAL**'] + trow[1:]]:
            out.append('| ' + ' | '.join(r) + ' |')
        out.append('')
        out.append('Seen (an access evaluated on the line): %d of %d shared-memory lines (%.1f%%). '
                   'Exact: %d of %d (%.1f%%), %d of them by mean degree. '
                   'Races: %d of %d racecheck pairs found, %d extra. '
                   'Out of bounds: %d of %d memcheck lines found (witness thread confirmed on %d), %d extra. '
                   'Launch limits: %d of %d launches the runtime refused found, %d extra. '
                   'Wavefront totals: the predicted per-launch wavefronts and ideal equal the measured ones on %d of %d lines.'
                   % (tot['seen'], tot['lines'], seen_pct, tot['exact'] + tot['exact_mean'], tot['lines'], pct, tot['exact_mean'],
                      tot['race_found'], tot['race_pairs'], tot['race_extra'],
                      tot['oob_found'], tot['oob_lines'], tot['oob_witness'], tot['oob_extra'],
                      tot['limit_found'], tot['limit_refused'], tot['limit_extra'], totals[1], totals[0]))
        diffs = [d for d in annotated if d[2] != 'unmeasured']
        if diffs:
            dout.append('| where | kind | detail | status |')
            dout.append('|---|---|---|---|')
            for f, key, kind, text, status in diffs:
                dout.append('| %s | %s | %s | %s |' % (loc(f, key), kind, text, status.replace('|', '\\|')))
            if split:
                out.append('')
                out.append('%d lines and pairs differ from the GPU, each with its reason: '
                           '[doc/accuracy.md](doc/accuracy.md#differences-from-the-gpu).' % len(diffs))
            else:
                out.append('')
                out += dout
    else:
        widths = [max(len(x) for x in col) for col in zip(hdr, *rows, trow)]
        fmtrow = lambda r: '  '.join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths)))
        out.append(fmtrow(hdr))
        out.append('  '.join('-' * w for w in widths))
        out += [fmtrow(r) for r in rows]
        out.append('  '.join('-' * w for w in widths))
        out.append(fmtrow(trow))
        out.append('')
        out.append('seen: %d/%d shared-memory lines (%.1f%%); exact: %d/%d (%.1f%%), %d by mean degree; races: %d/%d found, %d extra; '
                   'out of bounds: %d/%d found (witness confirmed %d), %d extra; launch limits: %d/%d refused launches found, %d extra; '
                   'wavefront totals: %d/%d lines equal'
                   % (tot['seen'], tot['lines'], seen_pct, tot['exact'] + tot['exact_mean'], tot['lines'], pct, tot['exact_mean'],
                      tot['race_found'], tot['race_pairs'], tot['race_extra'],
                      tot['oob_found'], tot['oob_lines'], tot['oob_witness'], tot['oob_extra'],
                      tot['limit_found'], tot['limit_refused'], tot['limit_extra'], totals[1], totals[0]))
        if annotated:
            out.append('')
            for f, key, kind, text, status in annotated:
                out.append('%-28s %-12s %-48s %s' % (loc(f, key), kind, text, status))
    for n in notes:
        out.append(n)
    problems = []
    for e in known_errors:
        problems.append('error: ' + e)
    for (f, key, kind), (reason, where) in stale:
        problems.append('error: %s: stale entry %s %s (no longer differs)' % (where, loc(f, key), kind))
    if unknown:
        problems.append('error: %d mismatch(es) not listed in the known-differences file (marked NEW)' % unknown)
    if problems:
        out.append('')
        out += problems
    if split:
        return '\n'.join(out), '\n'.join(dout)
    return '\n'.join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description='Compare smemlint with GPU measurements.')
    ap.add_argument('--smemlint', help='path of the smemlint executable')
    ap.add_argument('--smemlint-json', help='read this smemlint JSON instead of running smemlint')
    ap.add_argument('--corpus', default='corpus')
    ap.add_argument('--measured', default='corpus/measured')
    ap.add_argument('--known', default='corpus/known-differences.txt')
    ap.add_argument('--markdown', action='store_true', help='print Markdown tables (for the README)')
    ap.add_argument('--readme', help='replace the table between <!-- accuracy:begin --> and '
                    '<!-- accuracy:end --> in this file (with --markdown)')
    ap.add_argument('--check-readme', help='fail if the table in this file is not the current one')
    ap.add_argument('--only-measured', action='store_true',
                    help='compare only the files that have measurements, and no races '
                         '(for re-measured subsets such as the --fix copies)')
    a = ap.parse_args(argv)
    if a.smemlint_json:
        with open(a.smemlint_json) as fh:
            data = json.load(fh)
    elif a.smemlint:
        data = run_smemlint(a.smemlint, a.corpus)
    else:
        ap.error('give --smemlint PATH (or --smemlint-json FILE)')
    if not os.path.isdir(a.measured):
        print('compare: no measurements folder %s' % a.measured, file=sys.stderr)
        return 2
    measured, races, checked = read_measured(a.measured)
    oob, mchecked = read_memcheck(a.measured)
    launches = read_launches(a.measured)
    if a.only_measured:
        keep = set(measured)
        for key in ('results', 'accesses'):
            data[key] = [r for r in data.get(key, []) if base(r.get('file', '')) in keep]
        races, checked = [], set()
        oob, mchecked, launches = {}, set(), {}
    known, known_errors = read_known(a.known)
    files, stats, details = compare(data, measured, races, checked, oob, mchecked, launches)
    annotated, unknown, stale = match_known(details, known)
    notes = []
    for n in data.get('notifications', []):
        if n.get('level') == 'error':
            notes.append('note: smemlint %s: %s: %s' % (n.get('level'), n.get('file', ''), n.get('message', '')))
    tl = totals_agree(data, read_totals(a.measured))
    text = render(files, stats, annotated, unknown, stale, known_errors, a.markdown or a.readme or a.check_readme, notes,
                  tl)
    print(text)
    if a.readme or a.check_readme:
        text, dtext = render(files, stats, annotated, unknown, stale, known_errors, True, notes, tl, split=True)
    rc = 1 if (unknown or stale or known_errors) else 0
    if a.readme or a.check_readme:
        path = a.readme or a.check_readme
        doc = open(path, encoding='utf-8').read()
        b, e = '<!-- accuracy:begin -->', '<!-- accuracy:end -->'
        if b not in doc or e not in doc:
            print('compare: %s has no %s ... %s markers' % (path, b, e), file=sys.stderr)
            return 2
        gpu = measured_header(a.measured)
        block = b + '\n' + gpu + '\n\n' + text.strip() + '\n' + e
        new = doc[:doc.index(b)] + block + doc[doc.index(e) + len(e):]
        # the differences, one per line with its reason, in doc/accuracy.md
        dpath = os.path.join(os.path.dirname(os.path.abspath(path)), 'doc', 'accuracy.md')
        ddoc = open(dpath, encoding='utf-8').read() if os.path.exists(dpath) else ''
        db, de = '<!-- differences:begin -->', '<!-- differences:end -->'
        if db not in ddoc or de not in ddoc:
            print('compare: %s has no %s ... %s markers' % (dpath, db, de), file=sys.stderr)
            return 2
        dnew = ddoc[:ddoc.index(db)] + db + '\n' + dtext.strip() + '\n' + ddoc[ddoc.index(de):]
        for p_, old_, new_ in ((path, doc, new), (dpath, ddoc, dnew)):
            if a.check_readme:
                if new_ != old_:
                    print('compare: the accuracy table in %s is out of date; run tools/compare.py ... --readme %s'
                          % (p_, path), file=sys.stderr)
                    return 1
            elif new_ != old_:
                tmp = p_ + '.tmp'
                with open(tmp, 'w', encoding='utf-8') as fh:
                    fh.write(new_)
                os.replace(tmp, p_)
    return rc


def measured_header(folder):
    """'Measured on NVIDIA H100 (driver ..., CUDA ..., Nsight Compute ...)' from the
    first TSV header, naming the files measured on another GPU."""
    info, other = {}, {}
    for f in sorted(os.listdir(folder)):
        if not f.endswith('.tsv'):
            continue
        head = {}
        for l in open(os.path.join(folder, f)):
            m = re.match(r'#\s*(gpu|driver|cuda|ncu):\s*(.*)', l)
            if m:
                head[m.group(1)] = m.group(2).strip()
        if not info:
            info = head
        elif head.get('gpu') and head['gpu'] != info.get('gpu') and \
                f not in ('launches.tsv', 'memcheck.tsv', 'racecheck.tsv'):
            other.setdefault(head['gpu'], []).append(f[:-4] + '.cu')
    text = 'Measured on %s (driver %s, CUDA %s, Nsight Compute %s)' % (
        info.get('gpu', '?'), info.get('driver', '?'), info.get('cuda', '?'), info.get('ncu', '?'))
    for gpu, files in sorted(other.items()):
        text += '; %s on %s' % (', '.join(files), gpu)
    return text + '.'


if __name__ == '__main__':
    sys.exit(main())
