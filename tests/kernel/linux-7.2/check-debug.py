#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause
"""Judges run-debug.sh's guest: the patched kernel with KASAN, lockdep,
might-sleep and preemption checks, debug objects and kmemleak.

Usage: check-debug.py OUTDIR PROGS_LIST QEMU_LOG

OUTDIR is the guest's /sft/out/debug (guest-debug-init.sh): guest.log
("NAME rc=N ..." per program), NAME.script (perf script of each
recording), dmesg-final.txt (the whole kernel log at the end),
kmemleak.txt, slabinfo-before.txt and slabinfo-after.txt, debug-done.
QEMU_LOG is the guest's console, read too (a report printed just before
the guest died is only there).

Fails (exit 1) when the guest did not finish, a program of PROGS_LIST did
not run, exited non-zero or got fewer than 10 samples, the kernel log has
a report of any kind (KASAN, lockdep, might-sleep and preemption checks,
debug objects, or any other "BUG:", "WARNING:", "Oops", "general
protection", panic or RCU stall), or kmemleak reports an unreferenced
object whose allocation backtrace passes through the unwinder
(sframe_*, unwind_user*, unwind_deferred*), or kmemleak did not run.
kmemleak's other suspects are listed, not judged: kmemleak has false
positives (objects referenced only through physical addresses or from
outside what it scans), and an object of the kernel's that the unwinder
leaked would have been allocated by the unwinder.  The boot's own suspects
were cleared before the programs ran (guest-debug-init.sh).
The last line printed is the summary.
"""
import os
import re
import sys

# Report headers, by kind, first match wins.  One header line is one report.
KINDS = [
    ("KASAN", re.compile(r"BUG: KASAN|KASAN: .*(out-of-bounds|use-after-free|invalid-free|double-free|wild-memory)")),
    ("lockdep", re.compile(
        r"possible circular locking|inconsistent lock state|possible recursive locking"
        r"|suspicious RCU usage|bad unlock balance|held lock freed|lock held when returning"
        r"|possible irq lock inversion|Invalid wait context|DEBUG_LOCKS_WARN_ON"
        r"|BUG: MAX_LOCK|trying to register non-static key|lock held at task exit")),
    ("might-sleep", re.compile(
        r"sleeping function called from invalid context|scheduling while atomic"
        r"|in preemptible \[|preempt count underflow|BUG: workqueue leaked")),
    ("debugobjects", re.compile(r"ODEBUG:")),
    ("other", re.compile(
        r"\bBUG:|WARNING:|Oops|general protection|kernel BUG at|Kernel panic"
        r"|rcu: INFO: .*stall|detected stalls? on|watchdog: BUG")),
]
OURS = re.compile(r"sframe|unwind_user|unwind_deferred")
# How the guest ends: its init exits 0 (panic=-1 and -no-reboot stop qemu).
THE_END = re.compile(r"Attempted to kill init! exitcode=0x00000000")
STAMP = re.compile(r"^(<\d+>)?\[[^\]]*\]\s*")
HEAD = re.compile(r"^(\S.*?)\s+(\d+)/(\d+)\s*$")


def read_lines(path):
    if not os.path.exists(path):
        return None
    with open(path, errors="replace") as f:
        return [STAMP.sub("", l.rstrip("\n\r")) for l in f]


def reports(lines):
    """[(kind, header line, context lines)] of a kernel log."""
    found = []
    for i, line in enumerate(lines):
        if THE_END.search(line):
            continue
        for kind, rx in KINDS:
            if rx.search(line):
                found.append((kind, line, lines[i:i + 60]))
                break
    return found


def kmemleak(path):
    """[(ours, header, backtrace functions)] of kmemleak's report."""
    lines = read_lines(path)
    if lines is None:
        return None
    # "unreferenced object 0x... (size N):", its comm, a hex dump, then
    # "  backtrace (crc X):" and one "    function+0xoff/0xsize" a line.
    objs, cur, trace = [], None, False
    for line in lines:
        if line.startswith("unreferenced object"):
            cur, trace = [line, []], False
            objs.append(cur)
        elif cur is not None and line.strip().startswith("backtrace"):
            trace = True
        elif trace:
            m = re.match(r"\s+(?:\[<[0-9a-f]+>\]\s+)?(\S+)", line)
            if m:
                cur[1].append(m.group(1))
    return [(any(OURS.search(fn) for fn in fns), head, fns) for head, fns in objs]


def slab_growth(before, after):
    """Caches whose active objects grew, largest first (name, before, after)."""
    def counts(path):
        d = {}
        for line in read_lines(path) or []:
            f = line.split()
            if len(f) > 2 and not line.startswith(("slabinfo", "#")) and f[1].isdigit():
                d[f[0]] = int(f[1])
        return d
    b, a = counts(before), counts(after)
    grown = [(n, b.get(n, 0), a[n]) for n in a if a[n] > b.get(n, 0)]
    return sorted(grown, key=lambda g: g[2] - g[1], reverse=True)


def main():
    outdir, plist, qlog = sys.argv[1:4]
    failures = []
    finished = os.path.exists(os.path.join(outdir, "debug-done"))
    if not finished:
        failures.append("the guest did not finish (no debug-done)")
    names = []
    with open(plist) as f:
        for line in f:
            w = line.split()
            if w and not w[0].startswith("#"):
                names.append(w[0])
    rcs = {}
    glog = os.path.join(outdir, "guest.log")
    for line in read_lines(glog) or []:
        m = re.match(r"(\S+) rc=(\d+)", line)
        if m:
            rcs[m.group(1)] = int(m.group(2))
    total = 0
    print(f"{'program':16} {'rc':>4} {'samples':>8}")
    for name in names:
        n = 0
        script = os.path.join(outdir, name + ".script")
        for line in read_lines(script) or []:
            if HEAD.match(line):
                n += 1
        total += n
        rc = rcs.get(name)
        print(f"{name:16} {'-' if rc is None else rc:>4} {n:>8}")
        if rc is None:
            failures.append(f"{name}: did not run")
        elif rc != 0:
            failures.append(f"{name}: exited with {rc}" + (" (timeout: hang)" if rc == 124 else ""))
        elif n < 10:
            failures.append(f"{name}: only {n} samples")
    # The kernel log: the guest's own copy, and the console's for what the
    # guest could not save.
    seen, found = set(), []
    for src in (os.path.join(outdir, "dmesg-final.txt"), qlog):
        for kind, head, ctx in reports(read_lines(src) or []):
            if head in seen:
                continue
            seen.add(head)
            found.append((kind, head, ctx))
    counts = {k: 0 for k, _ in KINDS}
    for kind, head, ctx in found:
        counts[kind] += 1
    for kind, head, ctx in found[:5]:
        print(f"--- {kind} report:")
        print("\n".join(ctx))
    for kind, head, ctx in found:
        failures.append(f"kernel log ({kind}): {head}")
    # The hostile programs' log lines, to show the walks were cut, not crashed.
    log = read_lines(os.path.join(outdir, "dmesg-final.txt")) or []
    cut = sum(1 for l in log if l.startswith("sframe: ") and "corrupt" in l)
    print(f"kernel log: {cut} 'sframe: ... corrupt' lines (walks stopped on corrupt sections)")
    # kmemleak.
    km = kmemleak(os.path.join(outdir, "kmemleak.txt"))
    ours = 0
    if km is None:
        if finished:
            failures.append("kmemleak did not run (no kmemleak.txt)")
    else:
        ours = sum(1 for o in km if o[0])
        others = [o for o in km if not o[0]]
        print(f"kmemleak: {len(km)} unreferenced objects, {ours} allocated through the unwinder")
        for is_ours, head, fns in km:
            if is_ours:
                failures.append(f"kmemleak: {head} <- " + " <- ".join(fns[:8]))
        for _, head, fns in others[:10]:
            print(f"  not judged: {head} <- " + " <- ".join(fns[:6]))
        boot = os.path.join(outdir, "kmemleak-boot.txt")
        if os.path.exists(boot):
            nb = sum(1 for l in read_lines(boot) if l.startswith("unreferenced object"))
            print(f"kmemleak: {nb} suspects after boot, before the programs (cleared, not judged)")
    grown = slab_growth(os.path.join(outdir, "slabinfo-before.txt"),
                        os.path.join(outdir, "slabinfo-after.txt"))
    if grown:
        print("slabinfo, active objects grown over the run (not judged): " + ", ".join(
            f"{n} {b}->{a}" for n, b, a in grown[:8]))
    for f in failures:
        print("FAIL: " + f)
    nrep = sum(counts.values()) + ours
    print(f"debug-kernel: {len(names)} programs, {total} samples, {nrep} reports "
          f"(KASAN {counts['KASAN']}, lockdep {counts['lockdep']}, might-sleep "
          f"{counts['might-sleep']}, debugobjects {counts['debugobjects']}, kmemleak {ours}, "
          f"other {counts['other']})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
