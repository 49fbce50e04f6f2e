#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause
"""Compares the user stacks of `sframe perf FILE` with `perf script`'s.

Usage: compare.py [--show N] [--min-percent P] [--converted] PERF_SCRIPT_OUT SFRAME_PERF_OUT [...]

Each pair of files holds one recording printed twice in perf script's layout
(perf script -F comm,tid,time,period,event,ip,sym,symoff,dso --no-inline):
a header line per sample ("comm tid time: ..."), its frames one a line (a
tab, the address, "sym+0xoff" or "[unknown]", " (dso)"), a blank line.  A
line of sframe perf's starting with a tab and "#" annotates its sample:
"# stop: REASON" when the SFrame walk ended early.

Samples are matched by thread id and time.  Their kernel frames (the
recorded callchain, named from kallsyms) are compared one by one, the same
on both sides; an entry perf prints as "ffffffffffffffff [unknown]
([unknown])" (an address of -1 it resolved to nothing, seen on a sample
taken in the dynamic loader right after an exec) is no frame of either
kind: it is counted and shown, not compared.  Of perf's user frames the ones compared are those up to and
including the first frame whose module has no SFrame (no non-empty .sframe
section in its ELF file on disk; with --converted, neither .sframe nor
.eh_frame, since sframe perf converts .eh_frame): the PC of that frame is still the return
address the SFrame-described frame below it gives; above it only perf's DWARF
can go.  Each is compared (address, symbol, offset, module) with sframe
perf's frame at the same position.  A frame sframe perf lacks is charged to
the reason its walk gave for stopping.  Frames sframe perf finds beyond the
end of perf's own walk are counted but not judged.

Exits 0 when at least one frame was compared, no sample is missing on
either side and at least --min-percent (99.9) of the user frames, and of the
kernel frames, are identical;
1 otherwise; 2 on unreadable input.  The last line is
"perf-compare: N/M frames identical (X%)".
"""

import argparse
from fractions import Fraction
import re
import struct
import sys

# Greedy comm: a thread's name may hold spaces and digits; the tid and the
# time (the only field with a decimal point) are the last such pair.
HEADER_RE = re.compile(r'^(?P<comm>.*\S)\s+(?P<tid>-?\d+)\s+(?P<time>\d+\.\d+):(?P<rest>.*)$')
# The module is the last parenthesised field: a symbol may hold parentheses.
FRAME_RE = re.compile(r'^\t\s*(?P<addr>[0-9a-f]+) (?P<sym>.*) \((?P<dso>[^()]*)\)$')

KERNEL_DSOS = ('[kernel.kallsyms]', '[guest.kernel.kallsyms]')

# Classes of differences, in the order the summary prints them.
C_MISMATCH = 'mismatch'
C_KERNEL = 'kernel frame differs'
C_COPY = 'stopped: stack copy too short'
C_NO_SFRAME = 'stopped: no SFrame'
C_ERROR = 'stopped: error'
C_OTHER_STOP = 'stopped: other reason'
C_SILENT = 'ended without a reason'
C_MISSING_SFRAME = 'sample missing in sframe perf'
C_MISSING_PERF = 'sample missing in perf script'
CLASSES = (C_MISMATCH, C_KERNEL, C_COPY, C_NO_SFRAME, C_ERROR, C_OTHER_STOP, C_SILENT,
           C_MISSING_SFRAME, C_MISSING_PERF)


class InputError(Exception):
    pass


class Frame:
    __slots__ = ('addr', 'sym', 'off', 'dso', 'line')

    def __init__(self, addr, sym, off, dso, line):
        self.addr, self.sym, self.off, self.dso, self.line = addr, sym, off, dso, line

    def key(self):
        return (self.addr, self.sym, self.off, self.dso)

    def is_kernel(self):
        # Kernel addresses have the top bit set on x86_64 and aarch64;
        # elsewhere (s390x) only the module name tells.
        return (self.dso in KERNEL_DSOS or self.addr >= 1 << 63) and not self.is_unresolved()

    def is_unresolved(self):
        return self.addr == (1 << 64) - 1 and self.sym == '[unknown]' and self.dso == '[unknown]'


class Sample:
    __slots__ = ('key', 'header', 'frames', 'stop', 'lineno')

    def __init__(self, key, header, lineno):
        self.key, self.header, self.lineno = key, header, lineno
        self.frames = []
        self.stop = None

    def user_frames(self):
        return [f for f in self.frames if not f.is_kernel() and not f.is_unresolved()]

    def kernel_frames(self):
        return [f for f in self.frames if f.is_kernel()]


def parse_frame(line):
    m = FRAME_RE.match(line)
    if not m:
        return None
    sym, off = m.group('sym'), None
    if sym != '[unknown]' and '+0x' in sym:
        name, hexoff = sym.rsplit('+0x', 1)
        if re.fullmatch(r'[0-9a-f]+', hexoff):
            sym, off = name, int(hexoff, 16)
    return Frame(int(m.group('addr'), 16), sym, off, m.group('dso'), line)


def parse(path):
    """The samples of one output file, in file order."""
    samples = []
    cur = None
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            lines = f.read().split('\n')
    except OSError as e:
        raise InputError('%s: %s' % (path, e.strerror))
    if lines and lines[-1] == '':
        lines.pop()
    for n, line in enumerate(lines, 1):
        where = '%s:%d' % (path, n)
        if line == '':
            cur = None
        elif line.startswith('\t#'):
            if cur is None:
                raise InputError('%s: an annotation outside a sample: %r' % (where, line))
            text = line[2:].strip()
            if text.startswith('stop:'):
                cur.stop = text[len('stop:'):].strip()
        elif line.startswith('\t'):
            fr = parse_frame(line)
            if cur is None or fr is None:
                raise InputError('%s: not a frame of a sample: %r' % (where, line))
            cur.frames.append(fr)
        else:
            m = HEADER_RE.match(line)
            if cur is not None or m is None:
                raise InputError('%s: not a sample header: %r' % (where, line))
            cur = Sample((int(m.group('tid')), m.group('time')), line, n)
            samples.append(cur)
    return samples


SHT_NOBITS = 8


def elf_has_sframe(path, names=(b'.sframe',)):
    """True if PATH is an ELF file with a non-empty section of one of NAMES."""
    try:
        with open(path, 'rb') as f:
            ident = f.read(64)
            if len(ident) < 52 or ident[:4] != b'\x7fELF' or ident[4] not in (1, 2) \
                    or ident[5] not in (1, 2):
                return False
            e = '<' if ident[5] == 1 else '>'
            if ident[4] == 2:
                shoff, = struct.unpack_from(e + 'Q', ident, 0x28)
                shentsize, shnum, shstrndx = struct.unpack_from(e + 'HHH', ident, 0x3a)
                shfmt, shmin = e + 'IIQQQQIIQQ', 64
            else:
                shoff, = struct.unpack_from(e + 'I', ident, 0x20)
                shentsize, shnum, shstrndx = struct.unpack_from(e + 'HHH', ident, 0x2e)
                shfmt, shmin = e + 'IIIIIIIIII', 40
            if shoff == 0 or shentsize < shmin:
                return False

            def section(i):
                f.seek(shoff + i * shentsize)
                raw = f.read(shmin)
                if len(raw) < shmin:
                    raise ValueError('section header past the end')
                # name, type, flags, addr, offset, size, link, ...
                return struct.unpack(shfmt, raw)

            # Many sections: the counts live in section 0 (ELF gABI).
            if shnum == 0 or shstrndx == 0xffff:
                s0 = section(0)
                shnum = shnum or s0[5]
                if shstrndx == 0xffff:
                    shstrndx = s0[6]
            if shstrndx >= shnum or shnum > 1 << 20:
                return False
            strtab = section(shstrndx)
            for i in range(shnum):
                sh = section(i)
                f.seek(strtab[4] + sh[0])
                if f.read(16).split(b'\0')[0] not in names:
                    continue
                if sh[1] != SHT_NOBITS and sh[5] > 0:
                    return True
    except (OSError, ValueError, struct.error):
        return False
    return False


class SframeModules:
    """Which modules carry SFrame, each file read once.  With CONVERTED, a
    module with .eh_frame counts too: sframe perf converts it."""

    def __init__(self, converted=False):
        self.known = {}
        self.names = (b'.sframe', b'.eh_frame') if converted else (b'.sframe',)

    def __call__(self, dso):
        if dso not in self.known:
            # "[vdso]", "[unknown]" and the like are no files.
            self.known[dso] = not dso.startswith('[') and elf_has_sframe(dso, self.names)
        return self.known[dso]


def compared_frames(perf_user, described):
    """Perf's user frames up to the first one outside SFrame, and whether
    that cut anything off."""
    for i, fr in enumerate(perf_user):
        if not described(fr.dso):
            return perf_user[:i + 1], True
    return perf_user, False


def stop_class(reason):
    if reason is None:
        return C_SILENT
    if 'stack copy' in reason or 'outside the copy' in reason:
        return C_COPY
    if 'no SFrame' in reason:
        return C_NO_SFRAME
    if reason.startswith('error'):
        return C_ERROR
    return C_OTHER_STOP


class Tally:
    def __init__(self):
        self.compared = 0
        self.identical = 0
        self.kcompared = 0
        self.kidentical = 0
        self.unresolved = 0
        self.beyond = 0
        self.samples = 0
        self.frames = dict.fromkeys(CLASSES, 0)
        self.sample_classes = dict.fromkeys(CLASSES, 0)
        self.stops = {}

    def add(self, other):
        self.compared += other.compared
        self.identical += other.identical
        self.kcompared += other.kcompared
        self.kidentical += other.kidentical
        self.unresolved += other.unresolved
        self.beyond += other.beyond
        self.samples += other.samples
        for c in CLASSES:
            self.frames[c] += other.frames[c]
            self.sample_classes[c] += other.sample_classes[c]
        for r, k in other.stops.items():
            self.stops[r] = self.stops.get(r, 0) + k

    def missing(self):
        return self.sample_classes[C_MISSING_SFRAME] + self.sample_classes[C_MISSING_PERF]


def frame_text(fr):
    return fr.line.strip('\t') if fr is not None else '(none)'


def show_sample(out, name, perf_s, sf_s, cmp, classes):
    """Both sides of a sample that differs, its compared frames marked."""
    s = perf_s or sf_s
    print('--- %s: %s (%s)' % (name, s.header.strip(), ', '.join(
        sorted(set(classes)))), file=out)
    pu = perf_s.kernel_frames() + cmp if perf_s else []
    su = sf_s.kernel_frames() + sf_s.user_frames() if sf_s else []
    for i in range(max(len(pu), len(su))):
        p = pu[i] if i < len(pu) else None
        q = su[i] if i < len(su) else None
        mark = '  ' if p is not None and q is not None and p.key() == q.key() else '!='
        print('  %s perf:   %s' % (mark, frame_text(p)), file=out)
        print('     sframe: %s' % frame_text(q), file=out)
    if sf_s is not None and sf_s.stop is not None:
        print('     sframe stop: %s' % sf_s.stop, file=out)


def compare_pair(perf_path, sframe_path, described, show, out):
    perf = parse(perf_path)
    sfr = parse(sframe_path)
    t = Tally()
    by_key = {}
    for s in sfr:
        by_key.setdefault(s.key, []).append(s)
    shown = 0
    name = sframe_path

    def note(perf_s, sf_s, cmp, classes):
        nonlocal shown
        for c in set(classes):
            t.sample_classes[c] += 1
        if classes and shown < show:
            show_sample(out, name, perf_s, sf_s, cmp, classes)
            shown += 1

    for ps in perf:
        cands = by_key.get(ps.key)
        ss = cands.pop(0) if cands else None
        cmp, cut = compared_frames(ps.user_frames(), described)
        t.compared += len(cmp)
        t.samples += 1
        if ss is None:
            t.frames[C_MISSING_SFRAME] += len(cmp)
            note(ps, None, cmp, [C_MISSING_SFRAME])
            continue
        if ss.stop is not None:
            t.stops[stop_class(ss.stop)] = t.stops.get(stop_class(ss.stop), 0) + 1
        su = ss.user_frames()
        classes = []
        pk, sk = ps.kernel_frames(), ss.kernel_frames()
        t.unresolved += sum(1 for f in ps.frames if f.is_unresolved())
        t.kcompared += max(len(pk), len(sk))
        for i in range(max(len(pk), len(sk))):
            if i < len(pk) and i < len(sk) and pk[i].key() == sk[i].key():
                t.kidentical += 1
            else:
                t.frames[C_KERNEL] += 1
                classes.append(C_KERNEL)
        for i, pf in enumerate(cmp):
            if i >= len(su):
                c = stop_class(ss.stop)
            elif pf.key() == su[i].key():
                t.identical += 1
                continue
            else:
                c = C_MISMATCH
            t.frames[c] += 1
            classes.append(c)
        if not cut and len(su) > len(cmp):
            t.beyond += len(su) - len(cmp)
        note(ps, ss, cmp, classes)
    for cands in by_key.values():
        for ss in cands:
            note(None, ss, [], [C_MISSING_PERF])
    return t


def percent(n, m):
    # Rounded down: 99.999% must not print as 100.00%.
    return (n * 10000 // m) / 100 if m else 0.0


def print_tally(out, label, t):
    print('%s: %d samples, %d/%d frames identical (%.2f%%), %d frames beyond perf\'s walk; '
          'kernel frames %d/%d identical'
          % (label, t.samples, t.identical, t.compared, percent(t.identical, t.compared),
             t.beyond, t.kidentical, t.kcompared), file=out)


def main(argv=None, out=sys.stdout):
    ap = argparse.ArgumentParser(description='Compares sframe perf with perf script.')
    ap.add_argument('--show', type=int, default=10,
                    help='print both sides of the first N differing samples of each pair')
    ap.add_argument('--min-percent', type=Fraction, default=Fraction('99.9'),
                    help='the share of identical frames that passes (default 99.9)')
    ap.add_argument('--converted', action='store_true',
                    help='modules with .eh_frame but no .sframe are described too '
                         '(sframe perf ran without --no-convert)')
    ap.add_argument('files', nargs='+', metavar='PERF_SCRIPT_OUT SFRAME_PERF_OUT')
    args = ap.parse_args(argv)
    if len(args.files) % 2:
        ap.error('the outputs come in pairs: perf script\'s, then sframe perf\'s')
    described = SframeModules(args.converted)
    total = Tally()
    try:
        for i in range(0, len(args.files), 2):
            t = compare_pair(args.files[i], args.files[i + 1], described, args.show, out)
            print_tally(out, args.files[i + 1], t)
            total.add(t)
    except InputError as e:
        print('perf-compare: %s' % e, file=out)
        return 2
    print('modules with SFrame: %s' % (', '.join(
        sorted(d for d, yes in described.known.items() if yes)) or 'none'), file=out)
    print('differences by class (frames / samples):', file=out)
    for c in CLASSES:
        print('  %-32s %7d / %d' % (c, total.frames[c], total.sample_classes[c]), file=out)
    print('walks that stopped (any frame position), by reason:', file=out)
    for c in CLASSES:
        if c in total.stops:
            print('  %-32s %7d' % (c, total.stops[c]), file=out)
    print_tally(out, 'total', total)
    print("perf's unresolved entries (ffffffffffffffff [unknown]), not compared: %d"
          % total.unresolved, file=out)
    print('kernel frames: %d/%d frames identical (%.2f%%)'
          % (total.kidentical, total.kcompared, percent(total.kidentical, total.kcompared)),
          file=out)
    print('perf-compare: %d/%d frames identical (%.2f%%)'
          % (total.identical, total.compared, percent(total.identical, total.compared)),
          file=out)
    ok = (total.compared > 0 and total.missing() == 0 and
          total.identical * 100 >= args.min_percent * total.compared and
          total.kidentical * 100 >= args.min_percent * total.kcompared)
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
