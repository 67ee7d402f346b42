#!/usr/bin/env python3
"""Turn the raw GPU measurements of tools/gpu/measure.sh into committed text files.

    tools/gpu/import.py raw.tar.gz [--out corpus/measured]

raw.tar.gz (or an already unpacked folder holding raw/) contains, per corpus
file F.cu:
  raw/src/F.kernels.tsv   one row per profiled kernel (id, function, mangled,
                          demangled, csv) written by measure.sh
  raw/src/F.NAME.csv      `ncu -i --page source --csv --print-source cuda,sass`
  raw/race/F.log          racecheck of the -O0 -G build
  raw/race/F.O3.log       racecheck (--racecheck-report analysis) of the -O3 build
  raw/mem/F.log           memcheck of the -O0 -G build
  raw/env.txt             GPU, driver, nvcc and ncu versions

Writes:
  OUT/F.tsv      per CUDA source line of F.cu with shared-memory wavefronts:
                 line kernel instructions wavefronts ideal degree
                 (degree = worst SASS instruction's wavefronts/ideal)
  OUT/racecheck.tsv  file kernel line_a line_b access_a access_b severity hazards build
  OUT/memcheck.tsv   file function line access size errors threads
                     (invalid __shared__ accesses; threads as x-ranges "lo-hi/y/z")
  OUT/launches.tsv   file line status: what the runtime answered each launch
                     a corpus program reports as "launch-result LINE STATUS"
                     (the -O3 program's output, in rep/F.ncu.log: under
                     memcheck the -G build saw a 32 KB launch refused that
                     the -O3 build runs, H200, 2026-11-26)

Format of the source CSV as seen with Nsight Compute 2025.3.1 (see
tools/gpu/README.md): blocks that start with `"File Path","/abs/path/F.cu"`
and `"Function Name","demangled(args)"`, then a header row
`"Line No","Source","Address","Source",<metrics...>`; rows whose first field
is a number are CUDA lines (aggregates); rows after them with an empty first
field are SASS instructions (address, text, metrics); `...` rows are gaps.
Each SASS row is printed twice inside its line group, so instructions are
de-duplicated by address.  A kernel launched N times gives N blocks; each file
a kernel's code comes from (headers included) gets its own block.
"""
import argparse
import csv
import io
import os
import re
import sys
import tarfile

WF = 'L1 Wavefronts Shared'
IDEAL = 'L1 Wavefronts Shared Ideal'


def num(s):
    """'65,536' -> 65536.0; '-', '' or garbage -> None."""
    if s is None:
        return None
    s = s.strip().replace(',', '').replace('\u202f', '').replace(' ', '')
    if s in ('', '-', 'n/a', 'N/A'):
        return None
    try:
        return float(s)
    except ValueError:
        return None


def fmt_num(x):
    if x is None:
        return '-'
    if abs(x - round(x)) < 1e-9:
        return str(int(round(x)))
    return '%.2f' % x


def base_kernel_name(name):
    """'void ns::strided<(int)2>(int *)' -> 'strided'; 'race(int *)' -> 'race'."""
    s = name.strip()
    # drop the parameter list: the last top-level (...) group
    depth = 0
    cut = None
    for i in range(len(s) - 1, -1, -1):
        c = s[i]
        if c == ')':
            depth += 1
        elif c == '(':
            depth -= 1
            if depth == 0:
                cut = i
                break
    if cut is not None and s.endswith(')'):
        s = s[:cut]
    # drop template arguments
    out, depth = [], 0
    for c in s:
        if c == '<':
            depth += 1
        elif c == '>':
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(c)
    s = ''.join(out).strip()
    s = s.split()[-1] if s.split() else s  # drop return type
    return s.split('::')[-1]


# --------------------------------------------------------------------------
# ncu source-page CSV

def parse_source_csv(text, cu_name):
    """Return {line: {addr_key: (wavefronts, ideal, is_shared)}} for lines of
    the file whose basename is cu_name, summed over all result blocks.
    Also returns a list of warnings."""
    warnings = []
    totals = {}          # (line, addr) -> [wf, ideal, shared]
    block = -1
    cur_file = None
    hdr = None
    cols = {}
    cur_line = None
    seen = set()         # (block, line, addr) already counted in this block
    line_aggr = {}       # line -> [wf, ideal] from CUDA-line rows (fallback)
    reader = csv.reader(io.StringIO(text))
    for r in reader:
        if not r or all(not c.strip() for c in r):
            continue
        first = r[0].strip()
        if first == 'File Path':
            block += 1
            cur_file = r[1].strip() if len(r) > 1 else ''
            hdr, cur_line = None, None
            continue
        if first == 'Function Name':
            continue
        if WF in r and IDEAL in r:  # header row
            hdr = r
            cols = {'wf': r.index(WF), 'ideal': r.index(IDEAL)}
            cols['line'] = r.index('Line No') if 'Line No' in r else 0
            cols['addr'] = r.index('Address') if 'Address' in r else None
            cols['space'] = r.index('Address Space') if 'Address Space' in r else None
            if block < 0:
                block = 0
            continue
        if hdr is None:
            continue
        if len(r) < len(hdr):
            continue
        mine = cur_file is None or os.path.basename(cur_file) == cu_name
        lf = r[cols['line']].strip()
        if re.fullmatch(r'\d+', lf):
            cur_line = int(lf)
            if mine:
                wf, ideal = num(r[cols['wf']]), num(r[cols['ideal']])
                if wf:
                    a = line_aggr.setdefault((block, cur_line), [0.0, 0.0])
                    a[0] += wf
                    a[1] += ideal or 0.0
            continue
        if lf != '' or cur_line is None or not mine:
            continue
        addr = r[cols['addr']].strip() if cols['addr'] is not None else ''
        if addr in ('', '-', '...'):
            continue
        key = (block, cur_line, addr)
        if key in seen:
            continue
        seen.add(key)
        wf, ideal = num(r[cols['wf']]), num(r[cols['ideal']])
        space = r[cols['space']] if cols['space'] is not None else ''
        shared = 'Shared' in space or bool(wf)
        if not shared:
            continue
        t = totals.setdefault((cur_line, addr), [0.0, 0.0, True])
        t[0] += wf or 0.0
        t[1] += ideal or 0.0
    per_line = {}
    for (line, addr), (wf, ideal, sh) in totals.items():
        per_line.setdefault(line, {})[addr] = (wf, ideal, sh)
    # cross-check the line aggregates against the de-duplicated instructions
    agg = {}
    for (b, line), (wf, ideal) in line_aggr.items():
        a = agg.setdefault(line, [0.0, 0.0])
        a[0] += wf
        a[1] += ideal
    for line, (wf, ideal) in agg.items():
        inst = per_line.get(line)
        if not inst:
            warnings.append('line %d: %s wavefronts on the CUDA line but no SASS rows; '
                            'using the line aggregate' % (line, fmt_num(wf)))
            per_line[line] = {'(line)': (wf, ideal, True)}
            continue
        s = sum(v[0] for v in inst.values())
        if abs(s - wf) > 0.5:
            warnings.append('line %d: instructions sum to %s wavefronts, line says %s'
                            % (line, fmt_num(s), fmt_num(wf)))
    return per_line, warnings


# --------------------------------------------------------------------------
# wmma calls: their instructions sit in the toolkit's crt/mma.hpp, whose
# inline functions nvcc's line table names instead of the call

WMMA_INTRINSIC = re.compile(r'__[a-z]*mma_m\d+n\d+k\d+_(ld_a|ld_b|ld_c|st_c)')


def wmma_instructions(text, cu_name):
    """[(kind, {addr: (wf, ideal, True)})] for each line of a header block
    (not cu_name) whose source calls a wmma intrinsic (kind ld_a, ld_b,
    ld_c or st_c), its shared instructions de-duplicated by address."""
    out = {}
    cur_file, hdr, cols, kind = None, None, {}, None
    for r in csv.reader(io.StringIO(text)):
        if not r or all(not c.strip() for c in r):
            continue
        first = r[0].strip()
        if first == 'File Path':
            cur_file = r[1].strip() if len(r) > 1 else ''
            hdr, kind = None, None
            continue
        if first == 'Function Name':
            continue
        if WF in r and IDEAL in r:
            hdr = r
            cols = {'wf': r.index(WF), 'ideal': r.index(IDEAL),
                    'line': r.index('Line No') if 'Line No' in r else 0,
                    'addr': r.index('Address') if 'Address' in r else None,
                    'src': r.index('Source') if 'Source' in r else 1}
            continue
        if hdr is None or len(r) < len(hdr) or cur_file is None or os.path.basename(cur_file) == cu_name:
            continue
        lf = r[cols['line']].strip()
        if re.fullmatch(r'\d+', lf):
            m = WMMA_INTRINSIC.search(r[cols['src']])
            kind = m.group(1) if m else None
            continue
        if lf != '' or kind is None or cols['addr'] is None:
            continue
        addr = r[cols['addr']].strip()
        wf, ideal = num(r[cols['wf']]), num(r[cols['ideal']])
        if addr in ('', '-', '...') or not wf:
            continue
        out.setdefault(kind, {}).setdefault(addr, (wf, ideal or 0.0, True))
    return sorted(out.items())


def wmma_call_lines(src, kernel):
    """{kind: line} of the wmma calls in kernel's body in the source text:
    load_matrix_sync of a matrix_a / matrix_b / accumulator fragment
    (ld_a, ld_b, ld_c; the fragment's kind from its declaration in the
    kernel) and store_matrix_sync (st_c); a kind called on more than one
    line is left out (its instructions cannot be told apart)."""
    lines = src.split('\n')
    start = None
    for i, l in enumerate(lines):
        if re.search(r'__global__\s.*\b%s\s*\(' % re.escape(kernel), l):
            start = i
            break
    if start is None:
        return {}
    end = len(lines)
    for i in range(start + 1, len(lines)):
        if re.match(r'\s*(__global__|int main\b)', lines[i]):
            end = i
            break
    body = lines[start:end]
    use = {}
    for l in body:
        for m in re.finditer(r'fragment<\s*(?:wmma::|nvcuda::wmma::)?(matrix_a|matrix_b|accumulator)\b[^;]*>\s*(\w+)\s*;', l):
            use[m.group(2)] = {'matrix_a': 'ld_a', 'matrix_b': 'ld_b', 'accumulator': 'ld_c'}[m.group(1)]
    found = {}
    for n, l in enumerate(body):
        m = re.search(r'load_matrix_sync\(\s*(\w+)\s*,', l)
        kind = use.get(m.group(1)) if m else ('st_c' if 'store_matrix_sync(' in l else None)
        if kind:
            found.setdefault(kind, []).append(start + n + 1)
    return {k: v[0] for k, v in found.items() if len(v) == 1}


def line_rows(per_line):
    """{line: {addr: (wf, ideal, shared)}} -> {line: dict(instructions, wavefronts, ideal, degree)}"""
    out = {}
    for line, inst in per_line.items():
        wf = sum(v[0] for v in inst.values())
        if wf <= 0:
            continue
        ideal = sum(v[1] for v in inst.values())
        degs = [v[0] / v[1] for v in inst.values() if v[1] and v[1] > 0]
        out[line] = {
            'instructions': len(inst),
            'wavefronts': wf,
            'ideal': ideal,
            'degree': max(degs) if degs else None,
        }
    return out


# --------------------------------------------------------------------------
# racecheck logs

RACE_RE = re.compile(
    r'(?P<sev>Error|Warning):\s+Race reported between\s+(?P<acc_a>\w+) access at\s+'
    r'(?P<k_a>.+?)\+0x[0-9a-fA-F]+ in (?P<f_a>.+?):(?P<l_a>\d+)\s+and\s+'
    r'(?P<acc_b>\w+) access at\s+(?P<k_b>.+?)\+0x[0-9a-fA-F]+ in (?P<f_b>.+?):(?P<l_b>\d+)'
    r'\s*\[(?P<n>[\d,]+) hazards?\]')


# A cluster kernel's hazard, one per thread: an access to another block's
# shared memory (map_shared_rank) before that block entered or after it
# exited, i.e. with no cluster barrier ordering the two blocks.
CLUSTER_RE = re.compile(r'Potential invalid __shared__ (?P<acc>read|write) of size \d+ bytes?\s+'
                        r'at\s+(?P<k>.+?)\+0x[0-9a-fA-F]+ in (?P<f>.+?):(?P<l>\d+)\s+'
                        r'by thread .*?is located in a block that might (?:not have entered yet|have already exited)')


def parse_racecheck(text):
    """Return list of dicts from racecheck analysis output. A cluster
    hazard (one line, its threads counted as hazards) has line_a == line_b."""
    lines = [re.sub(r'^=+ ?', '', l.rstrip('\n')) for l in text.splitlines()]
    found = []
    cluster = {}
    i = 0
    while i < len(lines):
        if lines[i].startswith('Potential invalid __shared__'):
            m = CLUSTER_RE.search(' '.join(l.strip() for l in lines[i:i + 4]))
            if m:
                key = (m.group('acc'), base_kernel_name(m.group('k')), os.path.basename(m.group('f').strip()),
                       int(m.group('l')))
                cluster[key] = cluster.get(key, 0) + 1
            i += 1
        elif 'Race reported between' in lines[i]:
            chunk = lines[i]
            j = i + 1
            while 'hazard' not in chunk and j < len(lines) and j <= i + 4:
                chunk += ' ' + lines[j].strip()
                j += 1
            m = RACE_RE.search(chunk)
            if m:
                found.append({
                    'severity': m.group('sev').lower(),
                    'access_a': m.group('acc_a').lower(),
                    'access_b': m.group('acc_b').lower(),
                    'kernel': base_kernel_name(m.group('k_a')),
                    'kernel_b': base_kernel_name(m.group('k_b')),
                    'file_a': os.path.basename(m.group('f_a').strip()),
                    'file_b': os.path.basename(m.group('f_b').strip()),
                    'line_a': int(m.group('l_a')),
                    'line_b': int(m.group('l_b')),
                    'hazards': int(m.group('n').replace(',', '')),
                })
            else:
                found.append({'unparsed': chunk})
            i = j
        else:
            i += 1
    for (acc, k, f, l), n in sorted(cluster.items()):
        found.append({'severity': 'error', 'access_a': acc, 'access_b': acc, 'kernel': k, 'kernel_b': k,
                      'file_a': f, 'file_b': f, 'line_a': l, 'line_b': l, 'hazards': n})
    return found


# --------------------------------------------------------------------------

def env_info(text):
    info = {'gpu': 'unknown', 'driver': 'unknown', 'cuda': 'unknown', 'ncu': 'unknown'}
    for l in text.splitlines():
        if l.startswith('gpu_csv:'):
            parts = [p.strip() for p in l.split(':', 1)[1].split(',')]
            if parts and parts[0]:
                info['gpu'] = parts[0]
            if len(parts) > 1:
                info['driver'] = parts[1]
    m = re.search(r'release ([\d.]+), (V[\d.]+)', text)
    if m:
        info['cuda'] = '%s (%s)' % (m.group(1), m.group(2))
    m = re.search(r'ncu --version.*?Version ([\w.]+)', text, re.S)
    if m:
        info['ncu'] = m.group(1)
    return info


class Raw:
    """Read access to raw/ inside a tar.gz or a folder."""

    def __init__(self, path):
        self.files = {}
        if os.path.isdir(path):
            root = path
            if os.path.isdir(os.path.join(path, 'raw')):
                root = os.path.join(path, 'raw')
            for dp, _, fns in os.walk(root):
                for fn in fns:
                    full = os.path.join(dp, fn)
                    rel = os.path.relpath(full, root).replace(os.sep, '/')
                    with open(full, 'rb') as fh:
                        self.files[rel] = fh.read()
        else:
            with tarfile.open(path, 'r:*') as tf:
                for m in tf.getmembers():
                    if not m.isfile():
                        continue
                    name = m.name
                    if name.startswith('./'):
                        name = name[2:]
                    if name.startswith('raw/'):
                        name = name[4:]
                    self.files[name] = tf.extractfile(m).read()

    def text(self, name):
        b = self.files.get(name)
        return None if b is None else b.decode('utf-8', errors='replace')

    def glob(self, prefix, suffix):
        return sorted(n for n in self.files if n.startswith(prefix) and n.endswith(suffix))


def read_kernels_tsv(text):
    rows = []
    if not text:
        return rows
    lines = text.splitlines()
    if not lines:
        return rows
    hdr = lines[0].split('\t')
    for l in lines[1:]:
        parts = l.split('\t')
        if len(parts) == len(hdr):
            rows.append(dict(zip(hdr, parts)))
    return rows


# --------------------------------------------------------------------------
# memcheck logs: invalid __shared__ accesses

MEM_RE = re.compile(r'Invalid __shared__ (?P<acc>\w+) of size (?P<size>\d+) bytes?')
MEM_AT_RE = re.compile(r'at (?P<fn>.+?)\+0x[0-9a-fA-F]+ in (?P<file>.+?):(?P<line>\d+)')
MEM_BY_RE = re.compile(r'by thread \((?P<x>\d+),(?P<y>\d+),(?P<z>\d+)\) in block')


def parse_memcheck(text):
    """Invalid __shared__ accesses: list of dicts (access, size, function,
    file, line, thread), or {'unparsed': text} for a report it could not read."""
    lines = [re.sub(r'^=+ ?', '', l.rstrip('\n')).strip() for l in text.splitlines()]
    found = []
    for i, l in enumerate(lines):
        m = MEM_RE.search(l)
        if not m:
            continue
        chunk = ' '.join(lines[i + 1:i + 4])
        at, by = MEM_AT_RE.search(chunk), MEM_BY_RE.search(chunk)
        if not at or not by:
            found.append({'unparsed': l + ' ' + chunk})
            continue
        found.append({'access': m.group('acc').lower(), 'size': int(m.group('size')),
                      'function': base_kernel_name(at.group('fn')),
                      'file': os.path.basename(at.group('file').strip()), 'line': int(at.group('line')),
                      'thread': (int(by.group('x')), int(by.group('y')), int(by.group('z')))})
    return found


def thread_ranges(threads):
    """{(x, y, z)} -> 'lo-hi/y/z,...' (runs of consecutive x)."""
    out = []
    for y, z in sorted({(t[1], t[2]) for t in threads}):
        xs = sorted(t[0] for t in threads if (t[1], t[2]) == (y, z))
        lo = prev = xs[0]
        for x in xs[1:] + [None]:
            if x is not None and x == prev + 1:
                prev = x
                continue
            out.append(('%d' % lo if lo == prev else '%d-%d' % (lo, prev)) + '/%d/%d' % (y, z))
            if x is not None:
                lo = prev = x
    return ','.join(out)


def import_raw(path, out, log=print, corpus='corpus'):
    raw = Raw(path)
    env = env_info(raw.text('env.txt') or '')
    head = ['# gpu: %s' % env['gpu'], '# driver: %s' % env['driver'],
            '# cuda: %s' % env['cuda'], '# ncu: %s' % env['ncu']]
    os.makedirs(out, exist_ok=True)

    files = [os.path.basename(l.strip()) for l in (raw.text('files.txt') or '').splitlines() if l.strip()]
    if not files:  # older archives: derive from what is there
        names = set()
        for n in raw.glob('src/', '.kernels.tsv'):
            names.add(n[4:-len('.kernels.tsv')] + '.cu')
        for n in raw.glob('race/', '.log'):
            b = n[5:-4]
            names.add((b[:-3] if b.endswith('.O3') else b) + '.cu')
        files = sorted(names)

    summary = {'files': 0, 'lines': 0, 'failed': [], 'races': 0}
    for cu in files:
        stem = cu[:-3] if cu.endswith('.cu') else cu
        ktsv = raw.text('src/%s.kernels.tsv' % stem)
        kernels = read_kernels_tsv(ktsv)
        csvs = raw.glob('src/%s.' % stem, '.csv')
        csvs = [c for c in csvs if c[len('src/%s.' % stem):-4] in {k['csv'] for k in kernels}] if kernels else csvs
        dest = os.path.join(out, stem + '.tsv')
        if ktsv is None or not csvs:
            summary['failed'].append(cu)
            log('import: %s: no ncu export (build or profile failed?)' % cu)
            if os.path.exists(dest):
                os.remove(dest)
                log('import: removed stale %s' % dest)
            continue
        by_csv = {k['csv']: k for k in kernels}
        lines = {}  # line -> aggregated
        for c in csvs:
            name = c[len('src/%s.' % stem):-4]
            k = by_csv.get(name, {})
            kname = k.get('function') or base_kernel_name(k.get('demangled') or name)
            kname = base_kernel_name(kname) if '(' in kname or '<' in kname else kname
            per_line, warns = parse_source_csv(raw.text(c), cu)
            for w in warns:
                log('import: %s %s: %s' % (cu, kname, w))
            calls = wmma_instructions(raw.text(c), cu)
            src_path = os.path.join(corpus, cu)
            at = {}
            if calls and os.path.exists(src_path):
                with open(src_path, encoding='utf-8', errors='replace') as fh:
                    at = wmma_call_lines(fh.read(), kname)
            for kind, inst in calls:
                if kind not in at:
                    log('import: %s %s: wmma %s instructions in mma.hpp with no one call to count them at'
                        % (cu, kname, kind))
                    continue
                dst = per_line.setdefault(at[kind], {})
                for addr, v in inst.items():
                    dst.setdefault(addr, v)  # the same instruction named at the call too
            for line, row in line_rows(per_line).items():
                a = lines.setdefault(line, {'kernels': [], 'instructions': 0, 'wavefronts': 0.0,
                                            'ideal': 0.0, 'degree': None})
                if kname not in a['kernels']:
                    a['kernels'].append(kname)
                a['instructions'] += row['instructions']
                a['wavefronts'] += row['wavefronts']
                a['ideal'] += row['ideal']
                if row['degree'] is not None:
                    a['degree'] = row['degree'] if a['degree'] is None else max(a['degree'], row['degree'])
        with open(dest, 'w') as fh:
            fh.write('\n'.join(head) + '\n')
            fh.write('line\tkernel\tinstructions\twavefronts\tideal\tdegree\n')
            for line in sorted(lines):
                a = lines[line]
                deg = '-' if a['degree'] is None else '%.2f' % a['degree']
                fh.write('%d\t%s\t%d\t%s\t%s\t%s\n' % (line, ','.join(a['kernels']), a['instructions'],
                                                       fmt_num(a['wavefronts']), fmt_num(a['ideal']), deg))
        summary['files'] += 1
        summary['lines'] += len(lines)

    # races
    races = {}
    checked = []
    for cu in files:
        stem = cu[:-3] if cu.endswith('.cu') else cu
        any_log = False
        for build, logname in (('G', 'race/%s.log' % stem), ('O3', 'race/%s.O3.log' % stem)):
            t = raw.text(logname)
            if t is None:
                continue
            if 'RACECHECK SUMMARY' not in t:
                log('import: %s: %s has no RACECHECK SUMMARY (program failed or timed out?)' % (cu, logname))
            else:
                any_log = True
            for r in parse_racecheck(t):
                if 'unparsed' in r:
                    log('import: %s: unparsed racecheck line: %s' % (cu, r['unparsed']))
                    continue
                if r['file_a'] != r['file_b'] and cu in (r['file_a'], r['file_b']):
                    # one side inside a toolkit header's inline function (the
                    # cp.async of __pipeline_memcpy_async): racecheck names
                    # the header's line, not the call's, so that side is
                    # recorded as line 0, "a call in the other side's kernel"
                    a_here = r['file_a'] == cu
                    log('import: %s: race with %s:%d recorded as line 0 (a call in kernel %s)'
                        % (cu, r['file_b'] if a_here else r['file_a'], r['line_b'] if a_here else r['line_a'],
                           r['kernel'] if a_here else r['kernel_b']))
                    r = dict(r, file_a=cu, file_b=cu, line_a=r['line_a'] if a_here else 0,
                             line_b=r['line_b'] if not a_here else 0,
                             kernel=r['kernel'] if a_here else r['kernel_b'])
                if r['file_a'] != r['file_b']:
                    log('import: %s: race across files %s/%s ignored' % (cu, r['file_a'], r['file_b']))
                    continue
                if r['file_a'] != cu:
                    log('import: %s: race in %s:%d/%d (not the .cu itself) ignored'
                        % (cu, r['file_a'], r['line_a'], r['line_b']))
                    continue
                key = (cu, r['kernel'], r['line_a'], r['line_b'], r['access_a'], r['access_b'], r['severity'])
                e = races.setdefault(key, {'hazards': 0, 'builds': []})
                e['hazards'] = max(e['hazards'], r['hazards'])
                if build not in e['builds']:
                    e['builds'].append(build)
        if any_log:
            checked.append(cu)
    with open(os.path.join(out, 'racecheck.tsv'), 'w') as fh:
        fh.write('\n'.join(head) + '\n')
        fh.write('# racecheck-files: %s\n' % ','.join(checked))
        fh.write('file\tkernel\tline_a\tline_b\taccess_a\taccess_b\tseverity\thazards\tbuild\n')
        for key in sorted(races):
            e = races[key]
            fh.write('\t'.join(str(x) for x in key) + '\t%d\t%s\n' % (e['hazards'], ','.join(e['builds'])))
    summary['races'] = len(races)

    # out-of-bounds accesses
    oob, mchecked, launches = {}, [], {}
    for cu in files:
        stem = cu[:-3] if cu.endswith('.cu') else cu
        t = raw.text('mem/%s.log' % stem)
        if t is None:
            continue
        if 'ERROR SUMMARY' not in t:
            log('import: %s: mem/%s.log has no ERROR SUMMARY (program failed or timed out?)' % (cu, stem))
            continue
        mchecked.append(cu)
        for r in parse_memcheck(t):
            if 'unparsed' in r:
                log('import: %s: unparsed memcheck report: %s' % (cu, r['unparsed']))
                continue
            if r['file'] != cu:
                log('import: %s: invalid access in %s:%d (not the .cu itself) ignored' % (cu, r['file'], r['line']))
                continue
            e = oob.setdefault((cu, r['function'], r['line'], r['access'], r['size']), set())
            e.add(r['thread'])
    with open(os.path.join(out, 'memcheck.tsv'), 'w') as fh:
        fh.write('\n'.join(head) + '\n')
        fh.write('# memcheck-files: %s\n' % ','.join(mchecked))
        fh.write('file\tfunction\tline\taccess\tsize\terrors\tthreads\n')
        for key in sorted(oob):
            fh.write('\t'.join(str(x) for x in key) + '\t%d\t%s\n' % (len(oob[key]), thread_ranges(oob[key])))
    for cu in files:
        stem = cu[:-3] if cu.endswith('.cu') else cu
        for m in re.finditer(r'^launch-result (\d+) (\S+)\s*$', raw.text('rep/%s.ncu.log' % stem) or '', re.M):
            launches[(cu, int(m.group(1)))] = m.group(2)
    with open(os.path.join(out, 'launches.tsv'), 'w') as fh:
        fh.write('\n'.join(head) + '\n')
        fh.write('file\tline\tstatus\n')
        for key in sorted(launches):
            fh.write('%s\t%d\t%s\n' % (key[0], key[1], launches[key]))
    summary['oob'] = len(oob)
    log('import: %d files, %d shared-memory lines, %d race pairs, %d out-of-bounds lines, '
        '%d files without measurements%s'
        % (summary['files'], summary['lines'], summary['races'], summary['oob'], len(summary['failed']),
           (' (' + ', '.join(summary['failed']) + ')') if summary['failed'] else ''))
    return summary


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('raw', help='raw.tar.gz from tools/gpu/measure.sh (or a folder holding raw/)')
    ap.add_argument('--out', default='corpus/measured', help='output folder (default: corpus/measured)')
    ap.add_argument('--corpus', default='corpus',
                    help='the measured sources, to count wmma instructions at their calls (default: corpus)')
    a = ap.parse_args(argv)
    import_raw(a.raw, a.out, log=lambda s: print(s, file=sys.stderr), corpus=a.corpus)
    return 0


if __name__ == '__main__':
    sys.exit(main())
