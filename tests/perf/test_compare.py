#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause
"""compare.py on handmade outputs, so that it cannot pass everything.

Usage: test_compare.py FIXTURES_DIR

The modules the samples name are fixture files: v1-x86_64/exe and lib.so
carry .sframe sections (readelf -S), lld-x86_64/empty an empty one (GNU ld's
output for a static link, fixtures/lld-x86_64/README.md) and so counts as a
module without SFrame, like the C library of a real recording.
"""

import io
import os
import subprocess
import sys
import tempfile
import unittest
import unittest.mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare  # noqa: E402

FIXTURES = None
EXE = LIB = EMPTY = None

KERNEL = ['\tffffffff81379a60 getrusage+0x360 ([kernel.kallsyms])',
          '\tffffffff81000130 entry_SYSCALL_64_after_hwframe+0x76 ([kernel.kallsyms])']


def frame(addr, sym, off, dso):
    if sym is None:
        return '\t%16x [unknown] (%s)' % (addr, dso)
    return '\t%16x %s+0x%x (%s)' % (addr, sym, off, dso)


def header(tid, usec, comm='prog'):
    return '%s %5d %d.%06d:    1001001 cpu-clock: ' % (comm, tid, 100 + usec // 1000000,
                                                         usec % 1000000)


def chain():
    """A sample's user frames: the program, a library, the program, then
    a module without SFrame (where the SFrame walk ends) and one more."""
    return [frame(0x1130, 'leaf', 0x30, EXE),
            frame(0x1187, 'outer', 0x47, LIB),
            frame(0x1521, 'main', 0x41, EXE),
            frame(0x27249, '__libc_start_call_main', 0x79, EMPTY),
            frame(0x27304, '__libc_start_main@@GLIBC_2.34', 0x84, EMPTY)]


def sample(tid, usec, frames, stop=None, kernel=()):
    lines = [header(tid, usec)] + list(kernel) + frames
    if stop is not None:
        lines.append('\t# stop: ' + stop)
    return '\n'.join(lines) + '\n\n'


def sframe_side(frames):
    """What an SFrame walk prints of chain(): up to the module without SFrame."""
    return frames[:4], 'no SFrame for 0x7f0000027249'


class CompareTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def write(self, name, text):
        path = os.path.join(self.dir.name, name)
        with open(path, 'w') as f:
            f.write(text)
        return path

    def run_compare(self, perf_text, sframe_text, *extra):
        p = self.write('perf.txt', perf_text)
        s = self.write('sframe.txt', sframe_text)
        out = io.StringIO()
        rc = compare.main(list(extra) + [p, s], out=out)
        return rc, out.getvalue()

    def class_count(self, out, cls):
        """The frames and samples the summary gives a class."""
        for line in out.splitlines():
            if line.startswith('  ' + cls + ' '):
                frames, samples = line[len(cls) + 2:].split('/')
                return int(frames), int(samples)
        self.fail('no line for %r in:\n%s' % (cls, out))

    def last(self, out):
        return out.rstrip('\n').splitlines()[-1]

    def test_identical_pair(self):
        # perf's frames past the module without SFrame are not compared.
        perf = sample(11, 1, chain(), kernel=KERNEL) + sample(12, 2, chain())
        sfr = (sample(11, 1, *sframe_side(chain()), kernel=KERNEL) +
               sample(12, 2, *sframe_side(chain())))
        rc, out = self.run_compare(perf, sfr)
        self.assertEqual(rc, 0, out)
        self.assertEqual(self.last(out), 'perf-compare: 8/8 frames identical (100.00%)')
        self.assertIn('kernel frames: 2/2 frames identical (100.00%)', out)
        for cls in compare.CLASSES:
            self.assertEqual(self.class_count(out, cls), (0, 0), cls)
        self.assertIn('modules with SFrame: %s, %s' % tuple(sorted([EXE, LIB])), out)
        self.assertIn('stopped: no SFrame', out.split('walks that stopped')[1])

    def test_kernel_frames_by_module(self):
        # s390x's kernel lives at low addresses: its module name tells.
        low = ['\t          3a1b2c __do_syscall+0x10 ([kernel.kallsyms])']
        rc, out = self.run_compare(sample(11, 1, chain(), kernel=low),
                                   sample(11, 1, *sframe_side(chain()), kernel=low))
        self.assertEqual(rc, 0, out)
        self.assertEqual(self.last(out), 'perf-compare: 4/4 frames identical (100.00%)')
        self.assertIn('kernel frames: 1/1 frames identical (100.00%)', out)

    def test_unresolved_entry_not_compared(self):
        # perf's "ffffffffffffffff [unknown] ([unknown])" (a -1 it resolved
        # to nothing) is neither a kernel nor a user frame: counted only.
        bad = ['\tffffffffffffffff [unknown] ([unknown])']
        rc, out = self.run_compare(sample(11, 1, chain(), kernel=bad),
                                   sample(11, 1, *sframe_side(chain())))
        self.assertEqual(rc, 0, out)
        self.assertIn("perf's unresolved entries (ffffffffffffffff [unknown]), not compared: 1",
                      out)
        self.assertIn('kernel frames: 0/0 frames identical', out)
        self.assertEqual(self.last(out), 'perf-compare: 4/4 frames identical (100.00%)')

    def test_kernel_frame_differs(self):
        # A kernel frame named otherwise, and one missing: both counted
        # against the kernel frames, which then fail the run on their own.
        other = [KERNEL[0].replace('getrusage+0x360', '[unknown]')]
        perf = sample(11, 1, chain(), kernel=KERNEL) + sample(11, 2, chain(), kernel=KERNEL)
        sfr = (sample(11, 1, *sframe_side(chain()), kernel=KERNEL) +
               sample(11, 2, *sframe_side(chain()), kernel=other))
        rc, out = self.run_compare(perf, sfr)
        self.assertEqual(rc, 1, out)
        self.assertEqual(self.class_count(out, compare.C_KERNEL), (2, 1))
        self.assertIn('kernel frames: 2/4 frames identical (50.00%)', out)
        self.assertEqual(self.last(out), 'perf-compare: 8/8 frames identical (100.00%)')
        self.assertIn('!= perf:   %s' % KERNEL[0].strip('\t'), out)

    def test_mismatch(self):
        other = chain()
        other[1] = frame(0x1187, 'outer', 0x48, LIB)
        perf = sample(11, 1, chain()) + sample(11, 2, chain())
        sfr = sample(11, 1, *sframe_side(chain())) + sample(11, 2, *sframe_side(other))
        rc, out = self.run_compare(perf, sfr)
        self.assertEqual(rc, 1, out)
        self.assertEqual(self.class_count(out, compare.C_MISMATCH), (1, 1))
        self.assertEqual(self.last(out), 'perf-compare: 7/8 frames identical (87.50%)')
        # Both sides printed, the differing frame marked.
        self.assertIn('!= perf:   %s' % chain()[1].strip('\t'), out)
        self.assertIn('sframe: %s' % other[1].strip('\t'), out)

    def test_address_alone_differs(self):
        other = chain()
        other[2] = frame(0x1522, 'main', 0x41, EXE)
        rc, out = self.run_compare(sample(11, 1, chain()), sample(11, 1, *sframe_side(other)))
        self.assertEqual(rc, 1, out)
        self.assertEqual(self.class_count(out, compare.C_MISMATCH), (1, 1))

    def test_stop_reasons(self):
        # One sample per reason, each walk ending after the first frame: the
        # three frames it lacks go to the reason's class.
        reasons = [('stack copy ends at 0x7ffd1000', compare.C_COPY),
                   ('CFA 0x7ffd2000 outside the copy', compare.C_COPY),
                   ('no SFrame for 0x401000', compare.C_NO_SFRAME),
                   ('error: the section is corrupt', compare.C_ERROR),
                   ('the walk went round in a loop', compare.C_OTHER_STOP),
                   (None, compare.C_SILENT)]
        perf = sfr = ''
        for i, (reason, _) in enumerate(reasons):
            perf += sample(20, i, chain())
            sfr += sample(20, i, chain()[:1], reason)
        rc, out = self.run_compare(perf, sfr)
        self.assertEqual(rc, 1, out)
        self.assertEqual(self.class_count(out, compare.C_COPY), (6, 2))
        for cls in (compare.C_NO_SFRAME, compare.C_ERROR, compare.C_OTHER_STOP,
                    compare.C_SILENT):
            self.assertEqual(self.class_count(out, cls), (3, 1), cls)
        self.assertEqual(self.class_count(out, compare.C_MISMATCH), (0, 0))
        self.assertEqual(self.last(out), 'perf-compare: 6/24 frames identical (25.00%)')

    def test_sample_missing_in_sframe_perf(self):
        perf = sample(11, 1, chain()) + sample(11, 2, chain())
        rc, out = self.run_compare(perf, sample(11, 1, *sframe_side(chain())),
                                   '--min-percent', '0')
        self.assertEqual(rc, 1, out)
        self.assertEqual(self.class_count(out, compare.C_MISSING_SFRAME), (4, 1))
        self.assertEqual(self.last(out), 'perf-compare: 4/8 frames identical (50.00%)')

    def test_sample_missing_in_perf_script(self):
        # All perf's frames are found, yet a sample perf does not have fails.
        sfr = sample(11, 1, *sframe_side(chain())) + sample(11, 3, *sframe_side(chain()))
        rc, out = self.run_compare(sample(11, 1, chain()), sfr)
        self.assertEqual(rc, 1, out)
        self.assertEqual(self.class_count(out, compare.C_MISSING_PERF), (0, 1))
        self.assertEqual(self.last(out), 'perf-compare: 4/4 frames identical (100.00%)')

    def test_same_time_other_thread_is_missing(self):
        rc, out = self.run_compare(sample(11, 1, chain()), sample(12, 1, *sframe_side(chain())))
        self.assertEqual(rc, 1, out)
        self.assertEqual(self.class_count(out, compare.C_MISSING_SFRAME), (4, 1))
        self.assertEqual(self.class_count(out, compare.C_MISSING_PERF), (0, 1))

    def test_threshold(self):
        # 100 samples of 10 program frames each: one differing frame in
        # 1000 is 99.9% and passes, two are 99.8% and fail.
        frames = [frame(0x1000 + i, 'f%d' % i, i, EXE) for i in range(10)]
        bad = frames[:9] + [frame(0x2000, 'g', 0, EXE)]
        perf = ''.join(sample(30, i, frames) for i in range(100))
        one = ''.join(sample(30, i, bad if i == 50 else frames) for i in range(100))
        two = ''.join(sample(30, i, bad if i in (5, 50) else frames) for i in range(100))
        rc, out = self.run_compare(perf, one)
        self.assertEqual(rc, 0, out)
        self.assertEqual(self.last(out), 'perf-compare: 999/1000 frames identical (99.90%)')
        rc, out = self.run_compare(perf, two)
        self.assertEqual(rc, 1, out)
        self.assertEqual(self.last(out), 'perf-compare: 998/1000 frames identical (99.80%)')

    def test_percent_rounds_down(self):
        self.assertEqual(compare.percent(99999, 100000), 99.99)
        self.assertEqual(compare.percent(0, 0), 0.0)

    def test_nothing_compared_fails(self):
        rc, out = self.run_compare('', '')
        self.assertEqual(rc, 1, out)
        self.assertEqual(self.last(out), 'perf-compare: 0/0 frames identical (0.00%)')

    def test_frames_beyond_perf_counted_not_judged(self):
        # perf's walk ends inside SFrame-described code; sframe perf goes on.
        perf = sample(11, 1, chain()[:2])
        rc, out = self.run_compare(perf, sample(11, 1, chain()[:4]))
        self.assertEqual(rc, 0, out)
        self.assertIn('2/2 frames identical (100.00%), 2 frames beyond perf\'s walk', out)

    def test_first_frame_outside_sframe(self):
        # A sample in a module without SFrame: only its PC is compared.
        frames = chain()[3:]
        rc, out = self.run_compare(sample(11, 1, frames, kernel=KERNEL),
                                   sample(11, 1, frames[:1], 'no SFrame for 0x7f0000027249',
                                          kernel=KERNEL))
        self.assertEqual(rc, 0, out)
        self.assertEqual(self.last(out), 'perf-compare: 1/1 frames identical (100.00%)')

    def test_repeated_key_matched_in_order(self):
        other = chain()
        other[0] = frame(0x1131, 'leaf', 0x31, EXE)
        perf = sample(11, 1, chain()) + sample(11, 1, other)
        sfr = sample(11, 1, *sframe_side(chain())) + sample(11, 1, *sframe_side(other))
        rc, out = self.run_compare(perf, sfr)
        self.assertEqual(rc, 0, out)

    def test_unknown_symbol_and_module(self):
        frames = [frame(0x1130, 'leaf', 0x30, EXE), frame(0x7f0000001234, None, 0, '[unknown]')]
        rc, out = self.run_compare(sample(11, 1, frames), sample(11, 1, frames))
        self.assertEqual(rc, 0, out)
        self.assertEqual(self.last(out), 'perf-compare: 2/2 frames identical (100.00%)')

    def test_unreadable_input(self):
        for bad in ('prog 11 100.000001: 1 cpu-clock: \n\tnot a frame\n\n',
                    '\t            1130 leaf+0x30 (%s)\n' % EXE,
                    'no header here\n',
                    '\t# stop: no sample above\n'):
            rc, out = self.run_compare(bad, '')
            self.assertEqual(rc, 2, bad)
            self.assertIn('perf.txt:', self.last(out))
        out = io.StringIO()
        rc = compare.main([os.path.join(self.dir.name, 'absent'), self.write('s.txt', '')],
                          out=out)
        self.assertEqual(rc, 2, out.getvalue())

    def test_outputs_come_in_pairs(self):
        with self.assertRaises(SystemExit) as e, \
                open(os.devnull, 'w') as null, \
                unittest.mock.patch('sys.stderr', null):
            compare.main([self.write('one.txt', '')])
        self.assertEqual(e.exception.code, 2)

    def test_header(self):
        path = self.write('h.txt', 'my thread 2 3  4077 25759.535710:   10101010 cpu-clock: \n'
                          + frame(0x11ee, 'leaf', 0x1e, EXE) + '\n\n')
        (s,) = compare.parse(path)
        self.assertEqual(s.key, (4077, '25759.535710'))
        (f,) = s.frames
        self.assertEqual(f.key(), (0x11ee, 'leaf', 0x1e, EXE))

    def test_symbol_with_plus_and_parentheses(self):
        f = compare.parse_frame('\t            11ee operator+(int)+0x1e (/x/lib (old).so)')
        # Refused (compare.py then stops with exit 2): the module is the
        # last parenthesised field, and holds no parentheses itself.
        self.assertIsNone(f)
        f = compare.parse_frame('\t            11ee operator+(int)+0x1e (/x/lib.so)')
        self.assertEqual(f.key(), (0x11ee, 'operator+(int)', 0x1e, '/x/lib.so'))

    def test_elf_has_sframe(self):
        self.assertTrue(compare.elf_has_sframe(EXE))
        self.assertTrue(compare.elf_has_sframe(LIB))
        # Big-endian ELF (s390x).
        self.assertTrue(compare.elf_has_sframe(os.path.join(FIXTURES, 'v3-s390x', 'exe')))
        self.assertFalse(compare.elf_has_sframe(EMPTY))
        self.assertFalse(compare.elf_has_sframe(os.path.join(FIXTURES, 'README.md')))
        self.assertFalse(compare.elf_has_sframe(os.path.join(FIXTURES, 'absent')))
        # Truncated copies: section headers past the end.
        with open(EXE, 'rb') as f:
            head = f.read(4096)
        self.assertFalse(compare.elf_has_sframe(self.write_bytes('cut', head)))
        described = compare.SframeModules()
        self.assertFalse(described('[vdso]'))
        self.assertTrue(described(EXE))

    def write_bytes(self, name, data):
        path = os.path.join(self.dir.name, name)
        with open(path, 'wb') as f:
            f.write(data)
        return path

    def test_command_line(self):
        p = self.write('perf.txt', sample(11, 1, chain()))
        s = self.write('sframe.txt', sample(11, 1, *sframe_side(chain())))
        r = subprocess.run([sys.executable, os.path.join(HERE, 'compare.py'), p, s],
                           stdout=subprocess.PIPE, universal_newlines=True)
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertEqual(self.last(r.stdout), 'perf-compare: 4/4 frames identical (100.00%)')
        s = self.write('sframe.txt', sample(11, 1, chain()[:1], 'error: bad'))
        r = subprocess.run([sys.executable, os.path.join(HERE, 'compare.py'), p, s],
                           stdout=subprocess.PIPE, universal_newlines=True)
        self.assertEqual(r.returncode, 1, r.stdout)


if __name__ == '__main__':
    if len(sys.argv) != 2:
        print('usage: test_compare.py FIXTURES_DIR', file=sys.stderr)
        sys.exit(2)
    FIXTURES = os.path.abspath(sys.argv.pop())
    EXE = os.path.join(FIXTURES, 'v1-x86_64', 'exe')
    LIB = os.path.join(FIXTURES, 'v1-x86_64', 'lib.so')
    EMPTY = os.path.join(FIXTURES, 'lld-x86_64', 'empty')
    unittest.main(verbosity=2)
