#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause
"""sframe perf on the bundled recording fixtures/perf/loop.data.

Usage: test_command.py SFRAME FIXTURES_DIR

What is checked, and where the expected values come from:
  - every sample's header line and the address and file of every frame in
    the recorded program are those perf script printed for the same file
    (fixtures/perf/loop.script, perf 6.1: make-perf-fixtures.sh);
  - every symbol+offset is the one nm's symbol table gives for the address
    (the greatest function symbol at or below it);
  - a stripped copy of the program is named through its separate debug file
    under --symfs (DIR/usr/lib/debug/.build-id/NN/REST.debug), made with
    strip and objcopy --only-keep-debug; without it the frames are [unknown];
  - another file at the recorded path is refused by its build id, and the
    recorded file is read from perf's build-id cache when that holds it
    (the cache made by perf buildid-cache -a when perf is installed, else
    laid out as perf lays it out: DIR/.build-id/NN/REST/elf), the cache
    named by --buildid-dir, PERF_BUILDID_DIR or buildid.dir of
    ~/.perfconfig; every other run is given an empty cache;
  - the same output from standard input (a pipe) as from the file;
  - a recording of two events with fixed periods (fixtures/perf/events.data
    and its pipe layout events-pipe.data): every header line (the events'
    names from the recording, "cpu-clock:u", right-aligned as perf aligns
    them; the period the samples do not carry) and every frame address in
    the program are perf script's (events.script);
  - --folded: one line per distinct stack, COMM;outermost;...;leaf COUNT,
    counts from the default output's samples; --flamegraph writes an SVG
    that parses as XML and whose root counts every sample;
  - src/tool/README.md's flame graph (fixtures/perf/libs/libs.svg) is what the
    tool draws from fixtures/perf/libs/libs.data;
  - --max-stack cuts walks and says so; errors: a missing file (exit 2), a
    file cut short inside its attributes (exit 1, the offset named), an
    unknown option (exit 2).
"""
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

SFRAME, FIX = sys.argv[1], sys.argv[2]
PERF = os.path.join(FIX, 'perf')
DATA = os.path.join(PERF, 'loop.data')
PROG = '/tmp/perf-fixture/loop'  # the path the recording names
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print('FAIL: ' + what)


# SFRAME_TEST_WRAPPER (words separated by spaces, such as qemu-s390x-static)
# runs the tool, as for the other tests.
WRAPPER = os.environ.get('SFRAME_TEST_WRAPPER', '').split()


def run(args, stdin=None, input_bytes=None, cwd=None, env=None):
    p = subprocess.run(WRAPPER + [SFRAME, 'perf'] + args, stdin=stdin, input=input_bytes,
                       cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode('utf-8', 'replace'), p.stderr.decode('utf-8', 'replace')


def samples(text):
    """[(header, [frame lines], [other lines])] of perf script's layout."""
    out = []
    for block in text.split('\n\n'):
        lines = [l for l in block.split('\n') if l]
        if not lines:
            continue
        frames = [l for l in lines[1:] if l.startswith('\t') and not l.startswith('\t#')]
        notes = [l for l in lines[1:] if l.startswith('\t#')]
        out.append((lines[0], frames, notes))
    return out


def frame(line):
    """(address, symbol or None, offset, dso) of a frame line."""
    addr, rest = line.strip().split(' ', 1)
    sym, dso = rest.rsplit(' (', 1)
    dso = dso[:-1]
    if sym == '[unknown]':
        return int(addr, 16), None, None, dso
    name, off = sym.rsplit('+0x', 1)
    return int(addr, 16), name, int(off, 16), dso


def nm_symbol(path, addr):
    best = None
    for line in subprocess.run(['nm', path], stdout=subprocess.PIPE,
                               check=True).stdout.decode().splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in 'tTwW':
            a = int(parts[0], 16)
            if a <= addr and (best is None or a > best[0]):
                best = (a, parts[2])
    return best[1], addr - best[0]


def make_cache(cache, path):
    """perf's build-id cache in CACHE holding the file at PATH."""
    if shutil.which('perf'):
        subprocess.run(['perf', '--buildid-dir', cache, 'buildid-cache', '-a', path],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return
    notes = subprocess.run(['readelf', '-n', path], stdout=subprocess.PIPE,
                           check=True).stdout.decode()
    bid = notes.split('Build ID: ')[1].split()[0]
    leaf = os.path.join(cache, '.build-id', bid[:2], bid[2:])
    os.makedirs(leaf)
    shutil.copy(path, os.path.join(leaf, 'elf'))


def main():
    with tempfile.TemporaryDirectory() as tmp:
        # No run finds files in a build-id cache of this machine.
        empty = os.path.join(tmp, 'empty-cache')
        os.makedirs(empty)
        os.environ['PERF_BUILDID_DIR'] = empty
        # The default output against perf script's.
        rc, out, err = run(['--symfs', PERF, DATA])
        check(rc == 0, 'exit status %d: %s' % (rc, err))
        ours = samples(out)
        with open(os.path.join(PERF, 'loop.script')) as f:
            theirs = samples(f.read())
        check(len(ours) == len(theirs) == 24, '24 samples: %d, perf %d' % (len(ours), len(theirs)))
        compared = 0
        for (h1, f1, n1), (h2, f2, _) in zip(ours, theirs):
            check(h1 == h2, 'header %r, perf %r' % (h1, h2))
            mine = [frame(l) for l in f1 if l.endswith('(%s)' % PROG)]
            perf = [frame(l) for l in f2 if l.endswith('(%s)' % PROG)]
            # perf's DWARF walk goes on past libc to _start; ours stops in libc.
            check(len(mine) >= 3 and [m[0] for m in mine] == [p[0] for p in perf[:len(mine)]],
                  'frames of %s: %s, perf %s' % (h1, mine, perf))
            for a, name, off, _ in mine:
                check((name, off) == nm_symbol(os.path.join(PERF, 'loop'), a),
                      '%x is %s+%s' % (a, name, off))
                compared += 1
            check(len(n1) == 1 and 'no SFrame for' in n1[0] and 'libc.so.6' in n1[0],
                  'stop line of %s: %s' % (h1, n1))
        check(compared >= 72, 'frames compared: %d' % compared)
        check('24 samples, 24 user stacks unwound' in err, 'summary: ' + err)

        # Standard input, a pipe: the same output.
        with open(DATA, 'rb') as f:
            rc2, out2, _ = run(['--symfs', PERF, '-'], input_bytes=f.read())
        check(rc2 == 0 and out2 == out,
              'from a pipe: status %d, same output %s' % (rc2, out2 == out))

        # Two events, names and periods from the recording, in either layout.
        with open(os.path.join(PERF, 'events.script')) as f:
            theirs = samples(f.read())
        for name in ('events.data', 'events-pipe.data'):
            rc, out_e, err_e = run(['--symfs', PERF, os.path.join(PERF, name)])
            mine = samples(out_e)
            check(rc == 0 and [s[0] for s in mine] == [s[0] for s in theirs] and
                  len(mine) == 66, '%s: headers as perf script prints them (%d samples): %s' %
                  (name, len(mine), err_e))
            check(any(s[0].endswith(' cpu-clock:u: ') for s in mine) and
                  any(s[0].endswith('  task-clock: ') for s in mine), name + ': event names')
            check(all([frame(l)[0] for l in f1 if l.endswith('(%s)' % PROG)] ==
                      [frame(l)[0] for l in f2 if l.endswith('(%s)' % PROG)][:len(
                          [l for l in f1 if l.endswith('(%s)' % PROG)])]
                      for (_, f1, _), (_, f2, _) in zip(mine, theirs)), name + ': frames')

        # A stripped copy, named through its debug file found by build id.
        sym = os.path.join(tmp, 'sym')
        os.makedirs(sym)
        subprocess.run(['strip', '-o', os.path.join(sym, 'loop'), os.path.join(PERF, 'loop')],
                       check=True)
        rc, out3, _ = run(['--symfs', sym, DATA])
        names = {frame(l)[1] for s in samples(out3) for l in s[1] if l.endswith('(%s)' % PROG)}
        check(rc == 0 and names == {None}, 'stripped, no debug file: %s' % names)
        notes = subprocess.run(['readelf', '-n', os.path.join(PERF, 'loop')],
                               stdout=subprocess.PIPE, check=True).stdout.decode()
        bid = notes.split('Build ID: ')[1].split()[0]
        ddir = os.path.join(sym, 'usr/lib/debug/.build-id', bid[:2])
        os.makedirs(ddir)
        subprocess.run(['objcopy', '--only-keep-debug', os.path.join(PERF, 'loop'),
                        os.path.join(ddir, bid[2:] + '.debug')], check=True)
        rc, out4, _ = run(['--symfs', sym, DATA])
        check(rc == 0 and [s[:2] for s in samples(out4)] == [s[:2] for s in ours],
              'stripped, with its debug file: the same frames')

        # Another program at the recorded path: refused by build id.
        other = os.path.join(tmp, 'other')
        os.makedirs(other)
        shutil.copy(os.path.join(FIX, 'v3-x86_64', 'exe'), os.path.join(other, 'loop'))
        rc, out5, _ = run(['--symfs', other, DATA])
        first = samples(out5)[0]
        check(rc == 0 and frame(first[1][0])[1] is None and
              'is not the file recorded (build id' in first[2][0] and bid in first[2][0],
              'another file: %s' % (first,))

        # The recorded file from perf's build-id cache, before the other one.
        cache = os.path.join(tmp, 'cache')
        make_cache(cache, os.path.join(PERF, 'loop'))
        rc, out8, err8 = run(['--symfs', other, '--buildid-dir', cache, DATA])
        check(rc == 0 and [s[:2] for s in samples(out8)] == [s[:2] for s in ours] and
              '1 recorded file read from the build-id cache ' + cache in err8,
              'from the build-id cache: status %d, same frames %s, %s' %
              (rc, [s[:2] for s in samples(out8)] == [s[:2] for s in ours], err8))
        env = dict(os.environ, PERF_BUILDID_DIR=cache)
        rc, out9, _ = run(['--symfs', other, DATA], env=env)
        check(rc == 0 and out9 == out8, 'cache from PERF_BUILDID_DIR')
        home = os.path.join(tmp, 'home')
        os.makedirs(home)
        with open(os.path.join(home, '.perfconfig'), 'w') as f:
            f.write('[core]\n\tproc-map-timeout = 500\n[buildid]\n\tdir = %s\n' % cache)
        env = dict(os.environ, HOME=home)
        del env['PERF_BUILDID_DIR']
        rc, out10, _ = run(['--symfs', other, DATA], env=env)
        check(rc == 0 and out10 == out8, 'cache from ~/.perfconfig buildid.dir')

        # --folded from the same walks.
        want = {}
        for h, fr, _ in ours:
            stack = [h.split(' ')[0]]
            for l in reversed(fr):
                a, name, off, dso = frame(l)
                stack.append(name if name else '[%s]' % os.path.basename(dso))
            key = ';'.join(stack)
            want[key] = want.get(key, 0) + 1
        rc, folded, _ = run(['--symfs', PERF, '--folded', DATA])
        got = {}
        for line in folded.splitlines():
            key, count = line.rsplit(' ', 1)
            got[key] = int(count)
        check(rc == 0 and got == want, '--folded: %s, want %s' % (got, want))
        check(folded.splitlines() == sorted(folded.splitlines()), '--folded sorted')

        # --flamegraph: an SVG whose root counts the 24 samples.
        svg = os.path.join(tmp, 'loop.svg')
        rc, out6, _ = run(['--symfs', PERF, '--flamegraph', svg, DATA])
        check(rc == 0 and out6 == '', '--flamegraph: status %d, nothing on stdout' % rc)
        titles = [t.text or '' for t in ET.parse(svg).iter('{http://www.w3.org/2000/svg}title')]
        check(any(t.startswith('all (24 samples') for t in titles), 'SVG root: %s' % titles[:3])
        check(any(t.startswith('leaf (') for t in titles), 'SVG has leaf')

        # src/tool/README.md's picture is what the tool draws from the bundled example.
        libs = os.path.join(PERF, 'libs')
        rc, _, _ = run(['-q', '--symfs', '.', '--flamegraph', os.path.join(tmp, 'libs.svg'),
                        'libs.data'], cwd=libs)
        with open(os.path.join(tmp, 'libs.svg'), 'rb') as a, \
                open(os.path.join(libs, 'libs.svg'), 'rb') as b:
            check(rc == 0 and a.read() == b.read(), 'fixtures/perf/libs/libs.svg redrawn alike')

        # --max-stack.
        rc, out7, _ = run(['--symfs', PERF, '--max-stack', '2', DATA])
        s7 = samples(out7)
        check(rc == 0 and all(len(s[1]) == 2 for s in s7) and
              all('2 frames shown' in s[2][0] for s in s7), '--max-stack 2')

        # Errors.
        rc, _, err = run([os.path.join(tmp, 'missing.data')])
        check(rc == 2 and 'No such file' in err, 'missing file: %d %s' % (rc, err))
        cut = os.path.join(tmp, 'cut.data')
        with open(DATA, 'rb') as f, open(cut, 'wb') as g:
            g.write(f.read(200))
        rc, _, err = run([cut])
        check(rc == 1 and 'offset 0x' in err, 'file cut short: %d %s' % (rc, err))
        rc, _, err = run(['--frobnicate', DATA])
        check(rc == 2 and "unknown option '--frobnicate'" in err, 'unknown option: %d' % rc)

    print('%d checks failed' % len(failures) if failures else 'all checks passed')
    return 1 if failures else 0


sys.exit(main())
