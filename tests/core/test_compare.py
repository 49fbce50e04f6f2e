#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause
"""tests/core/compare.py on handmade outputs, so that it cannot pass everything.

Usage: test_compare.py FIXTURES_DIR

The modules gdb's "info files" names are fixture files: v1-x86_64/exe and
lib.so carry .sframe sections (readelf -S), lld-x86_64/empty an empty one
(fixtures/lld-x86_64/README.md) and so counts as a module without SFrame,
like the C library of a real core.  The gdb lines are in the layout gdb 13
prints with "set print frame-info location-and-address" (tests/core/run.sh).
"""

import io
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare  # noqa: E402

EXE = LIB = EMPTY = None

# (PC, function, module) of one thread: the program, a library, the program,
# then the C library (no SFrame: the last compared frame) and one more.
CHAIN = [(0x1130, 'leaf', 'exe'), (0x7f0000001187, 'outer', 'lib'),
         (0x1521, 'main', 'exe'), (0x7f0000027249, '__libc_start_call_main', 'libc'),
         (0x7f0000027304, '__libc_start_main', 'libc')]


def gdb_out(threads, static=None):
    """gdb's output: THREADS maps a TID to its frames (PC, name, module);
    a frame of PC None is a signal frame, a string is printed as it is."""
    paths = {'exe': static or EXE, 'lib': LIB, 'libc': EMPTY}
    lines = ['[New LWP %d]' % tid for tid in threads]
    lines += ['#0  0x0000000000400010 in ?? ()',
              'Symbols from "%s".' % paths['exe'],
              'Local core dump file:',
              "\t`/nowhere/core', file type elf64-x86-64.",
              '\t0x0000000000400000 - 0x0000000000401000 is load1',
              'Local exec file:',
              "\t`%s', file type elf64-x86-64." % paths['exe'],
              '\tEntry point: 0x1040',
              '\t0x0000000000001000 - 0x0000000000002000 is .text']
    if static is None:
        lines += ['\t0x00007f0000001000 - 0x00007f0000002000 is .text in ' + LIB,
                  '\t0x00007f0000027000 - 0x00007f0000028000 is .text in ' + EMPTY,
                  '\t0x00007fff00000000 - 0x00007fff00001000 is .text in '
                  'system-supplied DSO at 0x7fff00000000']
    for n, (tid, frames) in enumerate(threads.items()):
        lines += ['', 'Thread %d (Thread 0x7f00000%05x (LWP %d)):' % (len(threads) - n,
                                                                       tid, tid)]
        for i, fr in enumerate(frames):
            if isinstance(fr, str):
                lines.append(fr)
            elif fr[0] is None:
                lines.append('#%-2d <signal handler called>' % i)
            else:
                lib = ' from ' + paths[fr[2]] if fr[2] != 'exe' else ''
                lines.append('#%-2d 0x%016x in %s ()%s' % (i, fr[0], fr[1], lib))
    return '\n'.join(lines) + '\n'


def sframe_out(threads, stops=None):
    """sframe stack --core's output: THREADS as for gdb_out; STOPS the stop
    reason of a TID (default: no SFrame for its last frame)."""
    paths = {'exe': EXE, 'lib': LIB, 'libc': EMPTY}
    lines = ['PID %d - core' % next(iter(threads), 1)]
    for tid, frames in threads.items():
        lines.append('TID %d:' % tid)
        for i, (pc, name, mod) in enumerate(frames):
            mark = ' [no sframe]' if mod == 'libc' else ''
            sym = '??' if name == '??' else '%s+0x%x' % (name, pc & 0xff)
            lines.append('#%-2d 0x%016x %s - %s%s' % (i, pc, sym, paths[mod], mark))
        stop = (stops or {}).get(tid)
        if stop is None and frames:
            stop = 'no SFrame for 0x%x (--fp-fallback follows frame pointers)' % frames[-1][0]
        lines.append('stop: ' + stop)
    return '\n'.join(lines) + '\n'


def described(frames):
    """What an SFrame walk finds of gdb's frames: up to the C library."""
    return frames[:4]


class CompareTest(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.tmp = tmp.name

    def path(self, name, text):
        p = os.path.join(self.tmp, name)
        with open(p, 'w') as f:
            f.write(text)
        return p

    def check(self, gdb_text, sframe_text, *options):
        out = io.StringIO()
        rc = compare.main(list(options) + [self.path('gdb.txt', gdb_text),
                                           self.path('sframe.txt', sframe_text)], out=out)
        return rc, out.getvalue()

    def summary(self, out, cls):
        """(frames, threads) of a class in the summary."""
        for line in out.splitlines():
            if line.startswith('  %s ' % cls):
                a, b = line[len(cls) + 2:].split('/')
                return int(a), int(b)
        self.fail('class %r not in:\n%s' % (cls, out))

    def verdict(self, out):
        return out.splitlines()[-1]

    def test_identical(self):
        # Frames past the first module without SFrame are not compared; the
        # core's own sections ("load1", 0x400000) are no module of gdb's.
        rc, out = self.check(gdb_out({11: CHAIN, 12: CHAIN[2:]}),
                             sframe_out({11: described(CHAIN), 12: CHAIN[2:4]}))
        self.assertEqual(rc, 0, out)
        self.assertEqual(self.verdict(out), 'core-compare: 6/6 frames identical (100.00%)')
        for cls in compare.CLASSES:
            self.assertEqual(self.summary(out, cls), (0, 0), cls)
        self.assertIn('modules with SFrame: %s, %s' % tuple(sorted([EXE, LIB])), out)

    def test_pc_mismatch(self):
        other = list(CHAIN)
        other[2] = (0x1522, 'main', 'exe')
        rc, out = self.check(gdb_out({11: CHAIN, 12: CHAIN}),
                             sframe_out({11: described(CHAIN), 12: described(other)}))
        self.assertEqual(rc, 1, out)
        self.assertEqual(self.summary(out, compare.C_PC), (1, 1))
        self.assertEqual(self.verdict(out), 'core-compare: 7/8 frames identical (87.50%)')
        self.assertIn('gdb:    #2  0x0000000000001521 in main ()', out)
        self.assertIn('sframe: #2  0x0000000000001522 main+0x22', out)

    def test_name_mismatch_only_where_sframe(self):
        # A function named otherwise in the library with SFrame counts; in the
        # C library (no SFrame, another symbol source) only the PC counts.
        other = list(CHAIN)
        other[1] = (0x7f0000001187, 'outer2', 'lib')
        rc, out = self.check(gdb_out({11: CHAIN}), sframe_out({11: described(other)}))
        self.assertEqual(rc, 1, out)
        self.assertEqual(self.summary(out, compare.C_NAME), (1, 1))
        other = list(CHAIN)
        other[3] = (0x7f0000027249, '??', 'libc')
        rc, out = self.check(gdb_out({11: CHAIN}), sframe_out({11: described(other)}))
        self.assertEqual(rc, 0, out)
        self.assertEqual(self.verdict(out), 'core-compare: 4/4 frames identical (100.00%)')

    def test_stopped_early(self):
        # Frames sframe lacks are charged to the reason its walk gave.
        gdb = gdb_out({11: CHAIN, 12: CHAIN, 13: CHAIN})
        sfr = sframe_out({11: described(CHAIN), 12: CHAIN[:1], 13: CHAIN[:2]},
                         stops={12: 'no SFrame for 0x1130: not in a mapped file',
                                13: 'cannot read the stack: Input/output error'})
        rc, out = self.check(gdb, sfr)
        self.assertEqual(rc, 1, out)
        self.assertEqual(self.summary(out, compare.C_NO_SFRAME), (3, 1))
        self.assertEqual(self.summary(out, compare.C_READ), (2, 1))
        self.assertEqual(self.verdict(out), 'core-compare: 7/12 frames identical (58.33%)')
        rc, out = self.check(gdb_out({11: CHAIN}), sframe_out(
            {11: CHAIN[:2]}, stops={11: 'Corrupt section (SFRAME_ERR_CORRUPT)'}))
        self.assertEqual(self.summary(out, compare.C_ERROR), (2, 1))
        # Without a stop line: the walk ended without a reason.
        rc, out = self.check(gdb_out({11: CHAIN}),
                             'PID 11 - core\nTID 11:\n#0  0x0000000000001130 leaf+0x30\n')
        self.assertEqual(rc, 1, out)
        self.assertEqual(self.summary(out, compare.C_SILENT), (3, 1))

    def test_threads_missing(self):
        # A missing thread fails the run whatever the share of frames.
        many = {tid: CHAIN for tid in range(20, 60)}
        sfr = {tid: described(CHAIN) for tid in range(20, 60)}
        rc, out = self.check(gdb_out({**many, 11: CHAIN}), sframe_out(sfr),
                             '--min-percent', '95')
        self.assertEqual(rc, 1, out)
        self.assertEqual(self.summary(out, compare.C_MISSING_SFRAME), (4, 1))
        self.assertEqual(self.verdict(out),
                         'core-compare: 160/164 frames identical (97.56%)')
        rc, out = self.check(gdb_out(many), sframe_out({**sfr, 11: described(CHAIN)}))
        self.assertEqual(rc, 1, out)
        self.assertEqual(self.summary(out, compare.C_MISSING_GDB), (0, 1))
        self.assertEqual(self.verdict(out),
                         'core-compare: 160/160 frames identical (100.00%)')

    def test_threshold(self):
        # 250 threads of 4 compared frames: one wrong frame is 99.90%, two 99.80%.
        gdb = gdb_out({tid: CHAIN for tid in range(100, 350)})
        for wrong, rc_want in ((1, 0), (2, 1)):
            sfr = {tid: described(CHAIN) for tid in range(100, 350)}
            for tid in range(100, 100 + wrong):
                sfr[tid] = [CHAIN[0], (0x7f0000001188, 'outer', 'lib')] + CHAIN[2:4]
            rc, out = self.check(gdb, sframe_out(sfr))
            self.assertEqual(rc, rc_want, out)
            self.assertEqual(self.verdict(out), 'core-compare: %d/1000 frames identical '
                             '(%s%%)' % (1000 - wrong, '99.90' if wrong == 1 else '99.80'))

    def test_recursion(self):
        # A recursive call returns to the same PC on every level: each level
        # is a frame of its own on both sides, none merged.
        rec = [CHAIN[0]] + [(0x1190, 'rec', 'exe')] * 3 + CHAIN[2:]
        rc, out = self.check(gdb_out({11: rec}), sframe_out({11: rec[:6]}))
        self.assertEqual(rc, 0, out)
        self.assertEqual(self.verdict(out), 'core-compare: 6/6 frames identical (100.00%)')
        rc, out = self.check(gdb_out({11: rec}), sframe_out({11: rec[:1] + rec[3:6]}))
        self.assertEqual(rc, 1, out)
        self.assertEqual(self.summary(out, compare.C_PC), (2, 1))

    def test_signal_frame(self):
        # No PC for gdb's signal frame: sframe's must be marked [signal];
        # the comparison ends there.
        chain = [CHAIN[0], (None, None, None), CHAIN[2], CHAIN[3]]
        sfr = sframe_out({11: [CHAIN[0], (0x7f0000027000, '__restore_rt', 'libc')]},
                         stops={11: 'no SFrame for 0x7f0000027000'})
        rc, out = self.check(gdb_out({11: chain}), sfr)
        self.assertEqual(rc, 1, out)
        self.assertEqual(self.summary(out, compare.C_PC), (1, 1))
        sfr = sfr.replace('[no sframe]', '[no sframe] [signal]')
        rc, out = self.check(gdb_out({11: chain}), sfr)
        self.assertEqual(rc, 0, out)
        self.assertEqual(self.verdict(out), 'core-compare: 2/2 frames identical (100.00%)')

    def test_beyond_gdb(self):
        # gdb could not go on: sframe's further frames are counted, not judged.
        gdb = gdb_out({11: CHAIN[:2] + ['#2  <unavailable> in ?? ()',
                                        'Backtrace stopped: not enough registers']})
        rc, out = self.check(gdb, sframe_out({11: described(CHAIN)}))
        self.assertEqual(rc, 0, out)
        self.assertIn('1 threads, 2/2 frames identical (100.00%), 2 frames beyond', out)

    def test_static_functions(self):
        # A static executable: only the listed functions have SFrame; the
        # first frame outside them ends the comparison (its PC compared).
        chain = [(0x1130, 'leaf', 'exe'), (0x1521, 'main', 'exe'),
                 (0x1700, '__libc_start_call_main', 'exe'), (0x1800, '_start', 'exe')]
        funcs = self.path('functions', '# start size name\n0x1100 0x40 leaf\n0x1500 0x80 main\n')
        gdb = gdb_out({11: chain}, static=EMPTY)
        sfr = sframe_out({11: chain[:3]}, stops={11: 'no SFrame for 0x1700'})
        rc, out = self.check(gdb, sfr.replace(EXE, EMPTY), '--functions', EMPTY, funcs)
        self.assertEqual(rc, 0, out)
        self.assertEqual(self.verdict(out), 'core-compare: 3/3 frames identical (100.00%)')
        self.assertIn('%s: SFrame in 2 functions only' % EMPTY, out)
        # Without the list the module has no SFrame at all: one frame.
        rc, out = self.check(gdb, sfr.replace(EXE, EMPTY))
        self.assertEqual(self.verdict(out), 'core-compare: 1/1 frames identical (100.00%)')

    def test_nothing_compared_fails(self):
        rc, out = self.check(gdb_out({}), sframe_out({}))
        self.assertEqual(rc, 1, out)
        self.assertEqual(self.verdict(out), 'core-compare: 0/0 frames identical (0.00%)')

    def test_unreadable_input(self):
        rc, out = self.check(gdb_out({11: CHAIN}), 'TID 11:\nnot a frame\n')
        self.assertEqual(rc, 2, out)
        rc, out = self.check('Thread 1 (LWP 11):\n#0  0x1 in f ()\n', sframe_out({}))
        self.assertEqual(rc, 2, out)
        self.assertIn('no "Local exec file:"', out)

    def test_command_line(self):
        g = self.path('g.txt', gdb_out({11: CHAIN}))
        for sfr, rc_want in ((described(CHAIN), 0), (CHAIN[:1], 1)):
            s = self.path('s.txt', sframe_out({11: sfr}))
            r = subprocess.run([sys.executable, os.path.join(HERE, 'compare.py'), g, s],
                               stdout=subprocess.PIPE, universal_newlines=True)
            self.assertEqual(r.returncode, rc_want, r.stdout)
            self.assertTrue(self.verdict(r.stdout).startswith('core-compare: '))


def main():
    global EXE, LIB, EMPTY
    if len(sys.argv) != 2:
        print('usage: test_compare.py FIXTURES_DIR', file=sys.stderr)
        return 2
    fixtures = os.path.abspath(sys.argv.pop())
    EXE, LIB, EMPTY = (os.path.join(fixtures, *p) for p in (
        ('v1-x86_64', 'exe'), ('v1-x86_64', 'lib.so'), ('lld-x86_64', 'empty')))
    unittest.main(verbosity=2)
    return 0


if __name__ == '__main__':
    sys.exit(main())
