#!/usr/bin/env python3
"""Self-test for tools/gpu/import.py and tools/compare.py (no GPU needed).

    python3 tools/gpu/test_tools.py

testdata/probe_raw/ is a real sample: tools/gpu/measure.sh run on
testdata/probe.cu on an H100 (ncu 2025.3.1, CUDA 13.0).
"""
import io
import json
import os
import shutil
import stat
import subprocess
import sys
import tarfile
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, TOOLS)

import importlib.util


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


imp = load('gpu_import', os.path.join(HERE, 'import.py'))
cmp_ = load('compare', os.path.join(TOOLS, 'compare.py'))

HEAD = '# gpu: X\n# driver: 1\n# cuda: 13.0\n# ncu: 2025\n'


def read_rows(path):
    _, rows = cmp_.read_tsv(path)
    return rows


class ImportRealSample(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        # pack the fixture the way measure.sh does
        cls.tar = os.path.join(cls.tmp, 'raw.tar.gz')
        with tarfile.open(cls.tar, 'w:gz') as tf:
            tf.add(os.path.join(HERE, 'testdata', 'probe_raw', 'raw'), arcname='raw')
        cls.out = os.path.join(cls.tmp, 'measured')
        cls.log = []
        imp.import_raw(cls.tar, cls.out, log=cls.log.append)
        cls.rows = {int(r['line']): r for r in read_rows(os.path.join(cls.out, 'probe.tsv'))}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_header_comments(self):
        with open(os.path.join(self.out, 'probe.tsv')) as fh:
            head = [next(fh).rstrip('\n') for _ in range(5)]
        self.assertEqual(head[0], '# gpu: NVIDIA H100 80GB HBM3')
        self.assertEqual(head[1], '# driver: 580.159.04')
        self.assertTrue(head[2].startswith('# cuda: 13.0'))
        self.assertTrue(head[3].startswith('# ncu: 2025.3.1'))
        self.assertEqual(head[4], 'line\tkernel\tinstructions\twavefronts\tideal\tdegree')

    def test_degrees(self):
        r = self.rows
        self.assertEqual(r[7]['degree'], '32.00')            # s[t*32] store, two launches summed
        self.assertEqual(r[7]['wavefronts'], '192')
        self.assertEqual(r[11]['instructions'], '4')         # unrolled loop: 4 LDS (deduplicated)
        self.assertEqual(r[11]['degree'], '32.00')
        self.assertEqual(r[12]['degree'], '1.00')            # s[t]
        self.assertEqual(r[22]['degree'], '2.00')            # stride-2 float4
        self.assertEqual(r[19]['degree'], '1.00')            # float4 v[t]
        self.assertEqual(r[20]['degree'], '2.00')            # stride-2 double
        self.assertEqual(r[31]['degree'], '32.00')           # worst of strided<2>, strided<32>
        self.assertEqual(r[31]['kernel'], 'strided')
        self.assertEqual(r[31]['instructions'], '2')

    def test_header_lines_ignored(self):
        # the store inside probe_hdr.cuh:3 (inlined into hdr) must not appear
        # as line 3 of probe.cu, and the call site line 40 has no wavefronts
        self.assertNotIn(3, self.rows)
        self.assertNotIn(40, self.rows)

    def test_no_warnings(self):
        self.assertEqual([l for l in self.log if 'instructions sum' in l or 'unparsed' in l], [])

    def test_races(self):
        rows = read_rows(os.path.join(self.out, 'racecheck.tsv'))
        got = {(r['file'], r['kernel'], r['line_a'], r['line_b'], r['severity']): r for r in rows}
        self.assertEqual(set(got), {('probe.cu', 'race', '48', '49', 'error'),
                                    ('probe.cu', 'race', '53', '53', 'warning')})
        self.assertEqual(got[('probe.cu', 'race', '48', '49', 'error')]['hazards'], '1024')
        self.assertEqual(got[('probe.cu', 'race', '48', '49', 'error')]['access_a'], 'write')
        with open(os.path.join(self.out, 'racecheck.tsv')) as fh:
            self.assertIn('# racecheck-files: probe.cu\n', fh.read())


class ImportUnits(unittest.TestCase):
    def test_num(self):
        self.assertEqual(imp.num('65,536'), 65536.0)
        self.assertIsNone(imp.num('-'))
        self.assertEqual(imp.num(' 1.5 '), 1.5)

    def test_kernel_names(self):
        self.assertEqual(imp.base_kernel_name('void ns::strided<(int)2>(int *)'), 'strided')
        self.assertEqual(imp.base_kernel_name('race(int *)'), 'race')
        self.assertEqual(imp.base_kernel_name('k'), 'k')

    def test_csv_thousands_and_columns(self):
        # columns in another order, thousands separators, one file block per header
        text = textwrap.dedent('''\
            "File Path","/x/corpus/a.cu"
            "Function Name","k(float *)"
            "Address","L1 Wavefronts Shared Ideal","Line No","L1 Wavefronts Shared","Source","Address Space"
            "-","2,048","5","65,536","s[x]","Shared"
            "0x10","1,024","","32,768","LDS R1, [R2]","Shared"
            "0x10","1,024","","32,768","LDS R1, [R2]","Shared"
            "...","-","","-","...","-"
            "0x20","1,024","","32,768","LDS R3, [R2+0x4]","Shared"
            "0x30","0","","0","FADD R1, R1, R3","-"
            "File Path","/x/corpus/h.cuh"
            "Function Name","k(float *)"
            "Address","L1 Wavefronts Shared Ideal","Line No","L1 Wavefronts Shared","Source","Address Space"
            "-","1","5","32","s[y]","Shared"
            "0x40","1","","32","STS [R1], R2","Shared"
            ''')
        per_line, warns = imp.parse_source_csv(text, 'a.cu')
        rows = imp.line_rows(per_line)
        self.assertEqual(warns, [])
        self.assertEqual(list(rows), [5])
        self.assertEqual(rows[5]['instructions'], 2)
        self.assertEqual(rows[5]['wavefronts'], 65536)
        self.assertAlmostEqual(rows[5]['degree'], 32.0)

    def test_wmma_instructions_counted_at_the_call(self):
        # a wmma call's instructions are named at crt/mma.hpp's lines
        text = textwrap.dedent('''\
            "File Path","/cuda/include/crt/mma.hpp"
            "Function Name","k(half *)"
            "Line No","Source","Address","Source","L1 Wavefronts Shared","L1 Wavefronts Shared Ideal"
            "91","__hmma_m16n16k16_ld_a((int*)&a, (const int*)p, ldm, 0);","-","-","8","4"
            "","","0x10","LDSM.16.M88.4 R4, [R4]","8","4"
            "","","0x10","LDSM.16.M88.4 R4, [R4]","8","4"
            "474","__hmma_m16n16k16_st_c_f32((float*)p, (float*)&a, ldm, 0);","-","-","8","4"
            "","","0x20","STS.64 [R2], R4","4","2"
            "","","0x30","STS.64 [R2+0x200], R6","4","2"
            "500","int x = f(y);","-","-","4","4"
            "","","0x40","LDS R1, [R2]","4","4"
            "File Path","/x/corpus/a.cu"
            "Function Name","k(half *)"
            "Line No","Source","Address","Source","L1 Wavefronts Shared","L1 Wavefronts Shared Ideal"
            "9","s[t] = 0;","-","-","1","1"
            "","","0x50","STS [R1], RZ","1","1"
            ''')
        calls = dict(imp.wmma_instructions(text, 'a.cu'))
        self.assertEqual(sorted(calls), ['ld_a', 'st_c'])
        self.assertEqual(calls['ld_a'], {'0x10': (8.0, 4.0, True)})
        self.assertEqual(len(calls['st_c']), 2)
        src = textwrap.dedent('''\
            __global__ void k(half *p)
            {
                wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
                wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
                wmma::load_matrix_sync(fa, p, 16);
                wmma::store_matrix_sync(q, fc, 16, wmma::mem_row_major);
            }
            __global__ void two(half *p)
            {
                wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
                wmma::load_matrix_sync(fb, p, 16);
                wmma::load_matrix_sync(fb, p + 256, 16);
            }
            ''')
        self.assertEqual(imp.wmma_call_lines(src, 'k'), {'ld_a': 5, 'st_c': 6})
        # two loads of one kind: their instructions cannot be told apart
        self.assertEqual(imp.wmma_call_lines(src, 'two'), {})

    def test_racecheck_parse(self):
        text = textwrap.dedent('''\
            ========= COMPUTE-SANITIZER
            ========= Error: Race reported between Write access at void ns::k<(int)4>(float *)+0x2f0 in /a/b/x.cu:48
            =========     and Read access at void ns::k<(int)4>(float *)+0x770 in /a/b/x.cu:49 [1,024 hazards]
            ========= 
            some program output
            ========= Warning: Race reported between Read access at k2()+0x150 in x.cu:53
            =========     and Write access at k2()+0x170 in x.cu:53 [64 hazards]
            ========= RACECHECK SUMMARY: 2 hazards displayed (1 error, 1 warning)
            ''')
        r = imp.parse_racecheck(text)
        self.assertEqual(len(r), 2)
        self.assertEqual((r[0]['kernel'], r[0]['line_a'], r[0]['line_b'], r[0]['hazards'], r[0]['file_a']),
                         ('k', 48, 49, 1024, 'x.cu'))
        self.assertEqual((r[1]['severity'], r[1]['access_a'], r[1]['access_b']), ('warning', 'read', 'write'))

    def test_racecheck_cluster_hazards(self):
        # another block's shared memory touched before it entered or after
        # it exited: one report per thread, one record per line
        one = textwrap.dedent('''\
            ========= Potential invalid __shared__ %s of size 4 bytes
            =========     at pull(float *)+0x120 in /a/dsmem.cu:%d
            =========     by thread (%d,0,0) in block (1,0,0)
            =========     Address 0x400 is located in a block that might %s
            =========     Saved host backtrace up to driver entry point at kernel launch time
            ========= 
            ''')
        text = (one % ('read', 33, 0, 'not have entered yet') + one % ('read', 33, 1, 'not have entered yet') +
                one % ('write', 57, 0, 'have already exited') +
                one.replace('might %s', 'is fine') % ('read', 60, 0))
        r = imp.parse_racecheck(text)
        self.assertEqual([(x['kernel'], x['line_a'], x['line_b'], x['access_a'], x['hazards'], x['file_a']) for x in r],
                         [('pull', 33, 33, 'read', 2, 'dsmem.cu'), ('pull', 57, 57, 'write', 1, 'dsmem.cu')])


FAKE_SMEMLINT = '''#!%s
import json, os, sys
assert '--format=json' in sys.argv and '--all-accesses' in sys.argv, sys.argv
print(open(os.environ['FAKE_SMEMLINT_JSON']).read())
sys.exit(1)
'''


def acc(line, ways, mean=None, analyzed=True, f='corpus/a.cu'):
    return {'file': f, 'line': line, 'column': 3, 'kernel': 'k', 'array': 's', 'access': 'load',
            'width': 4, 'ways': ways, 'mean_ways': ways if mean is None else mean, 'analyzed': analyzed}


def race(line, rel, rule='missing-barrier', f='corpus/a.cu'):
    return {'rule': rule, 'file': f, 'line': line, 'column': 1, 'end_line': line, 'end_column': 2,
            'kernel': 'k', 'array': 's', 'access': 'store', 'message': 'm',
            'related': [{'file': f, 'line': rel, 'column': 1, 'message': 'r'}]}


class CompareTests(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.corpus = os.path.join(self.tmp, 'corpus')
        self.measured = os.path.join(self.corpus, 'measured')
        os.makedirs(self.measured)
        for n in ('a.cu', 'b.cu'):
            open(os.path.join(self.corpus, n), 'w').close()
        with open(os.path.join(self.measured, 'a.tsv'), 'w') as fh:
            fh.write(HEAD + 'line\tkernel\tinstructions\twavefronts\tideal\tdegree\n')
            fh.write('10\tk\t1\t1024\t32\t32.00\n')      # exact
            fh.write('11\tk\t1\t64\t32\t2.00\n')         # exact (pred 2)
            fh.write('12\tk\t1\t560\t32\t17.50\n')       # exact(mean): ways 32, mean 17.5
            fh.write('13\tk\t1\t256\t32\t8.00\n')        # over: pred 16
            fh.write('14\tk\t1\t32\t32\t1.00\n')         # unpredicted
        with open(os.path.join(self.measured, 'b.tsv'), 'w') as fh:
            fh.write(HEAD + 'line\tkernel\tinstructions\twavefronts\tideal\tdegree\n')
            fh.write('5\tk\t1\t128\t32\t4.00\n')         # under: pred 2
        with open(os.path.join(self.measured, 'racecheck.tsv'), 'w') as fh:
            fh.write(HEAD + '# racecheck-files: a.cu,b.cu\n')
            fh.write('file\tkernel\tline_a\tline_b\taccess_a\taccess_b\tseverity\thazards\tbuild\n')
            fh.write('a.cu\tk\t20\t21\twrite\tread\terror\t64\tG\n')    # found (reversed order in lint)
            fh.write('a.cu\tk\t30\t30\tread\twrite\twarning\t8\tO3\n')  # found by warp-sync
            fh.write('b.cu\tk\t7\t9\twrite\tread\terror\t4\tG\n')       # missed
        self.json = os.path.join(self.tmp, 'lint.json')
        data = {'results': [race(21, 20), race(30, 30, 'warp-sync'), race(40, 41),  # 40/41 extra
                            {'rule': 'bank-conflict', 'file': 'corpus/a.cu', 'line': 10, 'ways': 32,
                             'related': []}],
                'accesses': [acc(10, 32), acc(11, 2), acc(12, 32, 17.5), acc(13, 16), acc(14, 4, analyzed=False),
                             acc(99, 2),                               # unmeasured
                             acc(5, 2, f='corpus/b.cu')],
                'notifications': []}
        with open(self.json, 'w') as fh:
            json.dump(data, fh)
        self.fake = os.path.join(self.tmp, 'smemlint')
        with open(self.fake, 'w') as fh:
            fh.write(FAKE_SMEMLINT % sys.executable)
        os.chmod(self.fake, os.stat(self.fake).st_mode | stat.S_IXUSR)
        self.known = os.path.join(self.corpus, 'known-differences.txt')

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def run_compare(self, known_text, *extra):
        with open(self.known, 'w') as fh:
            fh.write(known_text)
        env = dict(os.environ, FAKE_SMEMLINT_JSON=self.json)
        p = subprocess.run([sys.executable, os.path.join(TOOLS, 'compare.py'), '--smemlint', self.fake,
                            '--corpus', self.corpus, '--measured', self.measured, '--known', self.known]
                           + list(extra), stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                           universal_newlines=True)
        return p.returncode, p.stdout + p.stderr

    ALL_KNOWN = textwrap.dedent('''\
        # accepted differences
        a.cu:13  over  # fake: loop bound unknown

        corpus/a.cu:14  unpredicted  # index not analyzable
        b.cu:5  under  # fake
        b.cu:7  race-missed  # racecheck pair 7/9
        a.cu:40,41  race-extra  # fake extra
        ''')

    def test_classification(self):
        with open(self.json) as fh:
            data = json.load(fh)
        measured, races, checked = cmp_.read_measured(self.measured)
        files, stats, details = cmp_.compare(data, measured, races, checked)
        a, b = stats['a.cu'], stats['b.cu']
        self.assertEqual((a['lines'], a['exact'], a['exact_mean'], a['over'], a['under'], a['unpredicted'],
                          a['unmeasured']), (5, 2, 1, 1, 0, 1, 1))
        self.assertEqual((b['lines'], b['under']), (1, 1))
        self.assertEqual((a['race_pairs'], a['race_found'], a['race_missed'], a['race_extra']), (2, 2, 0, 1))
        self.assertEqual((b['race_pairs'], b['race_found'], b['race_missed']), (1, 0, 1))

    def test_all_known_passes(self):
        rc, out = self.run_compare(self.ALL_KNOWN)
        self.assertEqual(rc, 0, out)
        self.assertIn('TOTAL', out)
        self.assertIn('exact(mean)', out)

    def test_markdown(self):
        rc, out = self.run_compare(self.ALL_KNOWN, '--markdown')
        self.assertEqual(rc, 0, out)
        self.assertIn('| file | smem lines |', out)
        self.assertIn('| **TOTAL** |', out)

    def test_unknown_mismatch_fails(self):
        rc, out = self.run_compare(self.ALL_KNOWN.replace('b.cu:5  under  # fake\n', ''))
        self.assertEqual(rc, 1)
        self.assertIn('NEW', out)

    def test_missing_reason_fails(self):
        rc, out = self.run_compare(self.ALL_KNOWN.replace('b.cu:5  under  # fake', 'b.cu:5  under'))
        self.assertEqual(rc, 1)
        self.assertIn('without a "# reason"', out)

    def test_stale_entry_fails(self):
        rc, out = self.run_compare(self.ALL_KNOWN + 'a.cu:10  over  # was wrong once\n')
        self.assertEqual(rc, 1)
        self.assertIn('stale', out)

    def test_bad_kind_fails(self):
        rc, out = self.run_compare(self.ALL_KNOWN + 'a.cu:10  sideways  # ?\n')
        self.assertEqual(rc, 1)
        self.assertIn('unknown kind', out)

    def test_wavefront_totals(self):
        data = {'accesses': [
            {'file': 'a.cu', 'line': 5, 'wavefronts': {'per_launch': 64, 'ideal_per_launch': 8, 'exact': True}},
            {'file': 'a.cu', 'line': 5, 'wavefronts': {'per_launch': 32, 'ideal_per_launch': 8, 'exact': True}},
            {'file': 'a.cu', 'line': 6, 'wavefronts': {'per_launch': 10, 'ideal_per_launch': 10, 'exact': True}},
            # not counted: a bound's sums, a grid not known, not analyzed
            {'file': 'a.cu', 'line': 7, 'wavefronts': {'per_launch': 4, 'ideal_per_launch': 4, 'exact': False}},
            {'file': 'a.cu', 'line': 8, 'wavefronts': {'per_block': 4, 'ideal_per_block': 4, 'exact': True}},
            {'file': 'a.cu', 'line': 9}]}
        totals = {'a.cu': {5: (96.0, 16.0), 6: (12.0, 10.0), 7: (4.0, 4.0), 8: (4.0, 4.0), 9: (1.0, 1.0)}}
        self.assertEqual(cmp_.totals_agree(data, totals), (2, 1))

    def test_smemlint_crash_is_exit_2(self):
        with open(self.fake, 'w') as fh:
            fh.write('#!%s\nimport sys\nsys.exit(3)\n' % sys.executable)
        rc, out = self.run_compare(self.ALL_KNOWN)
        self.assertEqual(rc, 2, out)


class MemcheckTests(unittest.TestCase):
    """testdata/memcheck/: real compute-sanitizer memcheck logs of the
    corpus's out-of-bounds programs (H200, CUDA 13.0), one cut to its first
    reports and its end."""

    def log(self, name):
        with open(os.path.join(HERE, 'testdata', 'memcheck', name)) as fh:
            return fh.read()

    def test_device_function_report(self):
        r = imp.parse_memcheck(self.log('oob_device_fn.log'))
        self.assertEqual(r, [{'access': 'write', 'size': 4, 'function': 'put', 'file': 'oob_device_fn.cu',
                              'line': 9, 'thread': (63, 0, 0)}])

    def test_clean_log_and_launch_failure_are_not_reports(self):
        self.assertEqual(imp.parse_memcheck(self.log('oob_negative.log')), [])
        # "Program hit cudaErrorLaunchFailure" is not an invalid access
        self.assertTrue(all(x.get('line') == 39 for x in imp.parse_memcheck(self.log('oob_static_excerpt.log'))))

    def test_thread_ranges_round_trip(self):
        ts = {(x, 0, 0) for x in list(range(256, 288)) + list(range(320, 512))} | {(3, 1, 0)}
        text = imp.thread_ranges(ts)
        self.assertEqual(text, '256-287/0/0,320-511/0/0,3/1/0')
        self.assertEqual(cmp_.parse_threads(text), ts)

    def test_import_writes_memcheck_tsv(self):
        tmp = tempfile.mkdtemp()
        try:
            raw = os.path.join(tmp, 'raw')
            os.makedirs(os.path.join(raw, 'mem'))
            with open(os.path.join(raw, 'files.txt'), 'w') as fh:
                fh.write('corpus/oob_device_fn.cu\ncorpus/oob_negative.cu\n')
            for n in ('oob_device_fn.log', 'oob_negative.log'):
                shutil.copy(os.path.join(HERE, 'testdata', 'memcheck', n), os.path.join(raw, 'mem', n))
            out = os.path.join(tmp, 'measured')
            imp.import_raw(tmp, out, log=lambda s: None)
            oob, checked = cmp_.read_memcheck(out)
            self.assertEqual(checked, {'oob_device_fn.cu', 'oob_negative.cu'})
            self.assertEqual(oob, {('oob_device_fn.cu', 9): {(63, 0, 0)}})
        finally:
            shutil.rmtree(tmp)

    def test_compare_classifies_out_of_bounds(self):
        def res(f, line, thread):
            return {'rule': 'shared-out-of-bounds', 'file': f, 'line': line,
                    'witness': {'thread': list(thread), 'bytes': [0, 3], 'extent': 4}}
        data = {'accesses': [], 'results': [res('a.cu', 9, (63, 0, 0)), res('b.cu', 5, (1, 0, 0)),
                                            res('c.cu', 7, (0, 0, 0)), res('d.cu', 2, (0, 0, 0))]}
        oob = {('a.cu', 9): {(63, 0, 0)}, ('b.cu', 5): {(2, 0, 0)}, ('e.cu', 4): {(0, 0, 0)}}
        files, stats, details = cmp_.compare(data, {}, [], set(), oob, {'a.cu', 'b.cu', 'c.cu', 'e.cu'})
        kinds = {(d[0], d[1]): d[2] for d in details}
        self.assertEqual(kinds, {('b.cu', 5): 'oob-witness', ('c.cu', 7): 'oob-extra', ('e.cu', 4): 'oob-missed'})
        self.assertEqual((stats['a.cu']['oob_found'], stats['a.cu']['oob_witness']), (1, 1))
        self.assertEqual(stats['c.cu']['oob_extra'], 1)
        self.assertNotIn('d.cu', [d[0] for d in details])  # memcheck did not finish d.cu


    def test_launch_results_import_and_compare(self):
        tmp = tempfile.mkdtemp()
        try:
            raw = os.path.join(tmp, 'raw')
            os.makedirs(os.path.join(raw, 'mem'))
            with open(os.path.join(raw, 'files.txt'), 'w') as fh:
                fh.write('corpus/lim.cu\n')
            os.makedirs(os.path.join(raw, 'rep'))
            with open(os.path.join(raw, 'rep', 'lim.ncu.log'), 'w') as fh:
                fh.write('==PROF== Connected to process 1\nlaunch-result 57 ok\nlaunch-result 59 cudaErrorInvalidValue\n'
                         'launch-result 65 cudaErrorInvalidValue\n==PROF== Disconnected from process 1\n')
            out = os.path.join(tmp, 'measured')
            imp.import_raw(tmp, out, log=lambda s: None)
            launches = cmp_.read_launches(out)
            self.assertEqual(launches, {('lim.cu', 57): 'ok', ('lim.cu', 59): 'cudaErrorInvalidValue',
                                        ('lim.cu', 65): 'cudaErrorInvalidValue'})
            data = {'accesses': [], 'results': [{'rule': 'shared-launch-limit', 'file': 'lim.cu', 'line': 59},
                                                {'rule': 'shared-launch-limit', 'file': 'lim.cu', 'line': 57}]}
            files, stats, details = cmp_.compare(data, {}, [], set(), {}, set(), launches)
            self.assertEqual({(d[1], d[2]) for d in details}, {(65, 'limit-missed'), (57, 'limit-extra')})
            self.assertEqual((stats['lim.cu']['limit_found'], stats['lim.cu']['limit_refused']), (1, 2))
        finally:
            shutil.rmtree(tmp)


if __name__ == '__main__':
    unittest.main(verbosity=2)
