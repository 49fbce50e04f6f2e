#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause
"""Compares `sframe stack --core CORE` with gdb's backtrace of the same core.

Usage: compare.py [--show N] [--min-percent P] [--functions MODULE FILE]...
                  [--converted] GDB_OUT SFRAME_OUT [...]

GDB_OUT is what gdb printed of one core with
  gdb -batch -nx -ex 'set backtrace past-main on'
      -ex 'set print frame-info location-and-address'
      -ex 'info files' -ex 'thread apply all bt' EXE CORE
("info files": the address ranges of the sections of the executable and of
every shared library, which tell the module of a frame; "thread apply all
bt": per thread a line "Thread N (... LWP TID ...):", then its frames
"#N  0xPC in NAME (...) ...").  SFRAME_OUT is sframe stack's output of the
same core: "TID N:", frames "#N  0xPC SYM+0xOFF - MODULE [marks]", then
"stop: REASON".

Threads are matched by thread id. gdb prints the PC of frame 0 and the
return address of every caller, as sframe stack does. gdb's output must come
without inlined frames (programs built without debug information, gdb run
without separate debug files, as run.sh does): gdb would print an inlined
call as a frame of its own, with the PC of the frame it is in, and no line
of its output tells such a frame from a recursive call's, which has the same
return address as its caller's too.

Of gdb's frames the ones compared are those up to and including the first
one whose module has no SFrame (no non-empty .sframe section in its ELF
file: tests/perf/compare.py's check; with --converted, neither .sframe nor
.eh_frame, since sframe stack converts .eh_frame; the vDSO and addresses in no module of
"info files" count as without SFrame): the PC of that frame is still the
return address the SFrame-described frame below it gives, above it only
gdb's DWARF CFI can go. A static executable holds code with SFrame (the
program's) and code without (the C library's, not assembled with --gsframe):
--functions MODULE FILE names the functions of MODULE that have SFrame FDEs,
one "0xSTART 0xSIZE [NAME]" a line (# comments), at the addresses the module
runs at (a static, non-PIE executable's own); every other address of MODULE
counts as without SFrame. Each compared gdb frame is set against sframe's
frame at the same position: the PC always, the function name where its code
has SFrame of its own (elsewhere, the two tools name addresses from
different symbol sources). A
"<signal handler called>" frame (gdb prints no PC for it) is identical when
sframe's frame is marked [signal]; gdb knows no module for it, so the
comparison ends there. A frame sframe lacks is charged to the reason its
walk gave for stopping; frames sframe finds beyond the end of gdb's walk are
counted, not judged.

Exits 0 when at least one frame was compared, no thread is missing on either
side and at least --min-percent (99.9) of the compared frames are identical;
1 otherwise; 2 on unreadable input.  The last line is
"core-compare: N/M frames identical (X%)".
"""

import argparse
from collections import Counter
from fractions import Fraction
import importlib.util
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def _load_perf_compare():
    # tests/perf/compare.py under another name: both files are "compare".
    spec = importlib.util.spec_from_file_location(
        'perf_compare', os.path.join(HERE, '..', 'perf', 'compare.py'))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


perf_compare = _load_perf_compare()
elf_has_sframe = perf_compare.elf_has_sframe
percent = perf_compare.percent

# A live process's threads carry their names: 'Thread 1 (Thread 0x... (LWP 7) "prog"):'.
GDB_THREAD_RE = re.compile(
    r'^Thread \d+ \(.*\b(?:LWP|process) (?P<tid>\d+)\)(?: "[^"]*")?\)*:$')
GDB_FRAME_RE = re.compile(r'^#(?P<idx>\d+)\s+(?:0x(?P<pc>[0-9a-f]+) in )?(?P<rest>.*)$')
GDB_SECTION_RE = re.compile(
    r'^\s+0x(?P<lo>[0-9a-f]+) - 0x(?P<hi>[0-9a-f]+) is \S+(?: in (?P<file>.*))?$')
GDB_EXEC_RE = re.compile(r"^\s+`(?P<path>.*)', file type ")
SIGNAL_NAME = '<signal handler called>'

SF_THREAD_RE = re.compile(r'^TID (?P<tid>\d+):$')
SF_FRAME_RE = re.compile(
    r'^#(?P<idx>\d+)\s+0x(?P<pc>[0-9a-f]+) (?P<sym>\S+)(?: - (?P<module>.*?))?'
    r'(?P<marks>(?: \[(?:no sframe|converted|fp|signal|pac)\])*)$')

# Classes of differences, in the order the summary prints them.
C_PC = 'mismatch: PC'
C_NAME = 'mismatch: function name'
C_NO_SFRAME = 'stopped: no SFrame'
C_READ = 'stopped: stack not readable'
C_ERROR = 'stopped: error'
C_DEPTH = 'stopped: frame limit'
C_OTHER_STOP = 'stopped: other reason'
C_SILENT = 'ended without a reason'
C_MISSING_SFRAME = 'thread missing in sframe'
C_MISSING_GDB = 'thread missing in gdb'
CLASSES = (C_PC, C_NAME, C_NO_SFRAME, C_READ, C_ERROR, C_DEPTH, C_OTHER_STOP, C_SILENT,
           C_MISSING_SFRAME, C_MISSING_GDB)


class InputError(Exception):
    pass


class Frame:
    __slots__ = ('pc', 'name', 'signal', 'line')

    def __init__(self, pc, name, signal, line):
        self.pc, self.name, self.signal, self.line = pc, name, signal, line


class Thread:
    __slots__ = ('tid', 'frames', 'stop', 'lineno')

    def __init__(self, tid, lineno):
        self.tid, self.lineno = tid, lineno
        self.frames = []
        self.stop = None


def read_lines(path):
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            return f.read().split('\n')
    except OSError as e:
        raise InputError('%s: %s' % (path, e.strerror))


def gdb_name(rest):
    """The function of a gdb frame line's tail: "NAME (ARGS) at/from ..."."""
    if rest.startswith(SIGNAL_NAME):
        return SIGNAL_NAME
    i = rest.find(' (')
    return rest[:i] if i > 0 else rest.split(' ', 1)[0]


def parse_gdb(path):
    """The threads of gdb's output (in file order) and its module ranges:
    a list of (lo, hi, module), module a path or "[vdso]"."""
    threads = []
    ranges = []
    cur = None
    exec_path = None
    in_exec = False
    for n, line in enumerate(read_lines(path), 1):
        m = GDB_THREAD_RE.match(line)
        if m:
            cur = Thread(int(m.group('tid')), n)
            threads.append(cur)
            continue
        if cur is not None:
            if line == '':
                cur = None
                continue
            m = GDB_FRAME_RE.match(line)
            if not m:
                # "Backtrace stopped: ..." and the like end gdb's walk.
                if line.startswith('Backtrace stopped'):
                    cur.stop = line
                continue
            rest = m.group('rest')
            if rest.startswith('<unavailable>'):
                # gdb could not find this frame's PC: its walk ends here.
                cur.stop = line
                cur = None
                continue
            pc = int(m.group('pc'), 16) if m.group('pc') else None
            name = gdb_name(rest)
            if pc is None and name != SIGNAL_NAME:
                raise InputError('%s:%d: a frame without an address: %r' % (path, n, line))
            cur.frames.append(Frame(pc, name, name == SIGNAL_NAME, line))
            continue
        if line.startswith('Local exec file:'):
            in_exec = True
            continue
        if line.startswith('Local ') or line.startswith('Symbols from'):
            in_exec = False
            continue
        m = GDB_EXEC_RE.match(line)
        if in_exec and m and exec_path is None:
            exec_path = m.group('path')
            continue
        m = GDB_SECTION_RE.match(line)
        if m and (in_exec or m.group('file')):
            mod = m.group('file')
            if mod is None:
                mod = exec_path
            elif mod.startswith('system-supplied DSO'):
                mod = '[vdso]'
            ranges.append((int(m.group('lo'), 16), int(m.group('hi'), 16), mod))
    if exec_path is None:
        raise InputError('%s: no "Local exec file:" (gdb\'s "info files")' % path)
    return threads, ranges


def parse_sframe(path):
    threads = []
    cur = None
    for n, line in enumerate(read_lines(path), 1):
        if line == '' or line.startswith('PID '):
            continue
        m = SF_THREAD_RE.match(line)
        if m:
            cur = Thread(int(m.group('tid')), n)
            threads.append(cur)
            continue
        if cur is None:
            raise InputError('%s:%d: not in a thread: %r' % (path, n, line))
        if line.startswith('stop: '):
            cur.stop = line[len('stop: '):]
            continue
        m = SF_FRAME_RE.match(line)
        if not m:
            raise InputError('%s:%d: not a frame: %r' % (path, n, line))
        sym = m.group('sym')
        if '+0x' in sym:
            sym = sym.rsplit('+0x', 1)[0]
        cur.frames.append(Frame(int(m.group('pc'), 16), sym, '[signal]' in m.group('marks'),
                                line))
    return threads


class Modules:
    """The module of an address (gdb's "info files"), and whether it carries
    SFrame, each file read once."""

    def __init__(self, ranges, described, functions, converted=False):
        self.ranges = ranges
        self.described = described
        self.functions = functions
        self.converted = converted

    def module(self, addr):
        for lo, hi, mod in self.ranges:
            if lo <= addr < hi:
                return mod
        return None

    def has_sframe(self, addr):
        mod = self.module(addr)
        if mod is None:
            return False
        if mod in self.functions:
            return any(lo <= addr < hi for lo, hi in self.functions[mod])
        if mod not in self.described:
            # True: the file's own SFrame; 'converted': its .eh_frame's.
            kind = False
            if not mod.startswith('['):
                if elf_has_sframe(mod):
                    kind = True
                elif self.converted and elf_has_sframe(mod, (b'.eh_frame',)):
                    kind = 'converted'
            self.described[mod] = kind
        return self.described[mod]


def compared_frames(frames, modules):
    """gdb's frames up to the first one outside SFrame (a signal frame is
    one: gdb gives it no PC), each with whether its module has SFrame, and
    whether that cut anything off."""
    out = []
    after_signal = True	# frame 0's PC is no return address
    for i, fr in enumerate(frames):
        if fr.signal:
            out.append((fr, False))
            return out, i + 1 < len(frames)
        # A caller's PC is a return address: its call is the byte before.
        at = fr.pc if after_signal else fr.pc - 1
        described = modules.has_sframe(at)
        out.append((fr, described))
        if not described:
            return out, i + 1 < len(frames)
        after_signal = False
    return out, False


def stop_class(reason):
    if reason is None:
        return C_SILENT
    if reason.startswith('no SFrame'):
        return C_NO_SFRAME
    if reason.startswith('cannot read'):
        return C_READ
    if 'frames shown' in reason:
        return C_DEPTH
    if '(SFRAME_ERR_' in reason:
        return C_ERROR
    return C_OTHER_STOP


class Tally:
    """The counts of one pair of outputs, or of all: n['compared'],
    n['identical'], n['beyond'] (frames), n['threads']; the frames and the
    threads of each class of difference; the walks that stopped, by class."""

    def __init__(self):
        self.n = Counter()
        self.frames = Counter()
        self.thread_classes = Counter()
        self.stops = Counter()

    def add(self, other):
        for mine, theirs in zip(self.counters(), other.counters()):
            mine.update(theirs)

    def counters(self):
        return self.n, self.frames, self.thread_classes, self.stops

    def missing(self):
        return self.thread_classes[C_MISSING_SFRAME] + self.thread_classes[C_MISSING_GDB]


def same(gf, sf, described):
    """None if gdb's frame GF and sframe's SF agree, else the class."""
    if gf.signal:
        return None if sf.signal else C_PC
    if gf.pc != sf.pc:
        return C_PC
    # Names only where the code has SFrame of its own: a converted file is
    # named by its separate debug file's symbols, which gdb is run without.
    if described is True and gf.name != sf.name:
        return C_NAME
    return None


def show_thread(out, name, tid, gdb_t, sf_t, cmp, classes):
    print('--- %s: TID %d (%s)' % (name, tid, ', '.join(sorted(set(classes)))), file=out)
    g = [fr for fr, _ in cmp]
    s = sf_t.frames if sf_t else []
    for i in range(max(len(g), len(s))):
        p = g[i].line if i < len(g) else '(none)'
        q = s[i].line if i < len(s) else '(none)'
        print('     gdb:    %s' % p, file=out)
        print('     sframe: %s' % q, file=out)
    if sf_t is not None and sf_t.stop is not None:
        print('     sframe stop: %s' % sf_t.stop, file=out)


def read_functions(path):
    """The [start, end) ranges of a --functions file."""
    ranges = []
    for n, line in enumerate(read_lines(path), 1):
        f = line.split('#', 1)[0].split()
        if not f:
            continue
        try:
            lo, size = int(f[0], 16), int(f[1], 16)
        except (IndexError, ValueError):
            raise InputError('%s:%d: not "0xSTART 0xSIZE [NAME]": %r' % (path, n, line))
        ranges.append((lo, lo + size))
    return ranges


def compare_pair(gdb_path, sframe_path, described, functions, show, out, converted=False):
    gdb_threads, ranges = parse_gdb(gdb_path)
    sf_threads = parse_sframe(sframe_path)
    modules = Modules(ranges, described, functions, converted)
    t = Tally()
    by_tid = {}
    for st in sf_threads:
        by_tid.setdefault(st.tid, []).append(st)
    shown = 0

    def note(tid, gt, st, cmp, classes):
        nonlocal shown
        for c in set(classes):
            t.thread_classes[c] += 1
        if classes and shown < show:
            show_thread(out, sframe_path, tid, gt, st, cmp, classes)
            shown += 1

    for gt in gdb_threads:
        cands = by_tid.get(gt.tid)
        st = cands.pop(0) if cands else None
        cmp, cut = compared_frames(gt.frames, modules)
        t.n['compared'] += len(cmp)
        t.n['threads'] += 1
        if st is None:
            t.frames[C_MISSING_SFRAME] += len(cmp)
            note(gt.tid, gt, None, cmp, [C_MISSING_SFRAME])
            continue
        if st.stop is not None:
            t.stops[stop_class(st.stop)] += 1
        classes = []
        for i, (gf, desc) in enumerate(cmp):
            if i >= len(st.frames):
                c = stop_class(st.stop)
            else:
                c = same(gf, st.frames[i], desc)
                if c is None:
                    t.n['identical'] += 1
                    continue
            t.frames[c] += 1
            classes.append(c)
        if not cut and len(st.frames) > len(cmp):
            t.n['beyond'] += len(st.frames) - len(cmp)
        note(gt.tid, gt, st, cmp, classes)
    for cands in by_tid.values():
        for st in cands:
            note(st.tid, None, st, [], [C_MISSING_GDB])
    return t


def identical_text(t):
    n = t.n
    return '%d/%d frames identical (%.2f%%)' % (n['identical'], n['compared'],
                                                 percent(n['identical'], n['compared']))


def print_tally(out, label, t):
    print('%s: %d threads, %s, %d frames beyond gdb\'s walk'
          % (label, t.n['threads'], identical_text(t), t.n['beyond']), file=out)


def main(argv=None, out=sys.stdout):
    ap = argparse.ArgumentParser(description='Compares sframe stack --core with gdb.')
    ap.add_argument('--show', type=int, default=10,
                    help='print both sides of the first N differing threads of each pair')
    ap.add_argument('--min-percent', type=Fraction, default=Fraction('99.9'),
                    help='the share of identical frames that passes (default 99.9)')
    ap.add_argument('--functions', nargs=2, action='append', default=[],
                    metavar=('MODULE', 'FILE'),
                    help='the functions of MODULE with SFrame FDEs (a static executable)')
    ap.add_argument('--converted', action='store_true',
                    help='modules with .eh_frame but no .sframe are described too '
                         '(sframe stack ran without --no-convert)')
    ap.add_argument('files', nargs='+', metavar='GDB_OUT SFRAME_OUT')
    args = ap.parse_args(argv)
    if len(args.files) % 2:
        ap.error('the outputs come in pairs: gdb\'s, then sframe stack\'s')
    described = {}
    total = Tally()
    try:
        functions = {mod: read_functions(path) for mod, path in args.functions}
        for i in range(0, len(args.files), 2):
            t = compare_pair(args.files[i], args.files[i + 1], described, functions,
                             args.show, out, args.converted)
            print_tally(out, args.files[i + 1], t)
            total.add(t)
    except InputError as e:
        print('core-compare: %s' % e, file=out)
        return 2
    print('modules with SFrame: %s' % (', '.join(
        sorted(d for d, yes in described.items() if yes)) or 'none'), file=out)
    for mod, ranges in sorted(functions.items()):
        print('  %s: SFrame in %d functions only' % (mod, len(ranges)), file=out)
    print('differences by class (frames / threads):', file=out)
    print(''.join('  %-32s %7d / %d\n' % (c, total.frames[c], total.thread_classes[c])
                  for c in CLASSES), end='', file=out)
    print('walks that stopped (any frame position), by reason:', file=out)
    print(''.join('  %-32s %7d\n' % (c, total.stops[c]) for c in CLASSES if total.stops[c]),
          end='', file=out)
    print_tally(out, 'total', total)
    print('core-compare: ' + identical_text(total), file=out)
    n = total.n
    ok = (n['compared'] > 0 and total.missing() == 0 and
          n['identical'] * 100 >= args.min_percent * n['compared'])
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
