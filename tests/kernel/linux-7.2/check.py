#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause
"""Judges the perf callchains of the guest runs (run.sh's step 6).

Usage: check.py OUTDIR KERNEL...   (KERNEL: stock, sframe; OUTDIR/KERNEL/
holds NAME.script from perf script -F comm,pid,tid,ip,sym,dso, NAME.out,
guest.log and dmesg.txt)

A sample counts when its top user frame lies in one of the functions of the
test programs or libraries (the code that carries SFrame; not the libc code
linked into the static program).  It is complete when every frame
from there on is called by a function that the program's source allows as
its caller (CALLERS below, written down from the .c files next to this
script), up to main, or for a thread other than the main one, up to its start
routine.  The programs whose library is corrupt (cor-header, cor-fde,
cor-fre, cor-rep) are judged differently: a walk that starts in the corrupt library
must not leave it (the kernel cannot trust its SFrame, so it must stop
there), and the kernel must have said so in its log.

static-fp, the static program built with frame pointers, is a control:
any kernel's frame-pointer walk must complete its samples (so the checker
can pass), but for those at a function's first instruction, where a
frame-pointer walk cannot work (they are counted apart).

Exit status 0 only when the "sframe" kernel completes >= 99% of the samples
of the non-hostile programs, the unmap program, the nested one (static-nest:
prog-static whose st_b's FDE grows over st_a, so that the rows kept for
st_b's PCs must not answer for st_a's) and the converted stock program
(qsort-conv, with samples in cmp, libc and ld.so) alone too, every
hostile run
is cut and logged, no program failed or hung and the kernel log has no
oops or warning.  The last line printed is the summary.
"""
import os
import re
import sys

# Allowed callers of each function, from the program sources.  A PLT stub
# is called by the caller of the function it leads to.
STATIC = {
    "st_leaf": {"st_c"},
    "st_c": {"st_b"},
    "st_b": {"st_a"},
    "st_a": {"main"},
}
DYN = {
    "sfa_inner": {"sfa_outer"},
    "sfa_outer": {"dyn_lib"},
    "sfa_outer@plt": {"dyn_lib"},
    "dyn_lib": {"main"},
    "sfb_inner": {"sfb_outer"},
    "sfb_outer": {"dyn_plug"},
    "dyn_plug": {"main"},
}
THREADS = {
    "thr_leaf": {"thr_mid"},
    "thr_mid": {"thr_start", "main"},
}
COR = {
    "cor_leaf": {"cor_entry"},
    "cor_entry": {"cor_call"},
    "cor_entry@plt": {"cor_call"},
    "cor_call": {"main"},
}
UNMAP = {
    "sfu_inner": {"sfu_outer"},
    "sfu_outer": {"un_round"},
    "un_round": {"main"},
}
# program run name -> (call structure, the corrupt library or None)
PROGRAMS = {
    "static": (STATIC, None),
    # prog-static with the sframe_user knob "index" off: lookups without
    # the lookup index.
    "static-noindex": (STATIC, None),
    "static-v2": (STATIC, None),
    "static-v2pcrel": (STATIC, None),
    "static-nest": (STATIC, None),
    "dyn": (DYN, None),
    "threads": (THREADS, None),
    "unmap": (UNMAP, None),
    "cor-plain": (COR, None),
    "cor-header": (COR, "/sft/cor/header/libsfcor.so"),
    "cor-fde": (COR, "/sft/cor/fde/libsfcor.so"),
    "cor-fre": (COR, "/sft/cor/fre/libsfcor.so"),
    "cor-rep": (COR, "/sft/cor/rep/libsfcor.so"),
    # The static program built with frame pointers: a control that the
    # stock kernel's frame-pointer walk must complete, kept out of the totals.
    "static-fp": (STATIC, None),
    # A program built as distributions build (no SFrame, no frame pointers)
    # on sid's C library and ld.so as packaged, then all three converted by
    # sframe convert --elf: judged as STOCK says, the first apart from the
    # totals (nothing there carries SFrame), the second in them.
    "qsort-stock": (None, None),
    "qsort-conv": (None, None),
}
CONTROLS = {"static-fp", "qsort-stock"}
# The stock programs: (program file, C library, ld.so) per run; the two
# libraries by the end of their path (qsort-stock's are the root's own,
# wherever its loader found them).
STOCK = {
    "qsort-stock": ("/sft/stock/prog-qsort", "/libc.so.6", "/ld-linux-x86-64.so.2"),
    "qsort-conv": ("/sft/conv/prog-qsort", "/sft/conv/libc.so.6",
                   "/sft/conv/ld-linux-x86-64.so.2"),
}
# Where a stock program's sample was taken, for the minimum counts.
STOCK_WHERE = ("cmp", "libc", "ld.so", "prog")
ROOTS = {"main", "thr_start"}
OURS = ("/sft/bin/", "/sft/lib/", "/sft/cor/")
BAD_LOG = re.compile(r"Oops|BUG|WARNING|general protection")
SYMOFF = re.compile(r"^(.*)\+0x([0-9a-f]+)$")
FRAME = re.compile(r"^\s+([0-9a-f]+) (.*) \((.*)\)$")
HEAD = re.compile(r"^(\S.*?)\s+(\d+)/(\d+)\s*$")
KERNEL_START = 0xFFFF800000000000


def samples(path):
    """Yields (pid, tid, [(sym, dso, offset in sym)] user frames, top first)."""
    pid = tid = None
    frames = []
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.strip():
                if pid is not None:
                    yield pid, tid, frames
                pid, frames = None, []
                continue
            m = HEAD.match(line)
            if m and not line.startswith((" ", "\t")):
                if pid is not None:
                    yield pid, tid, frames
                pid, tid, frames = int(m.group(2)), int(m.group(3)), []
                continue
            m = FRAME.match(line)
            if m and pid is not None and int(m.group(1), 16) < KERNEL_START:
                so = SYMOFF.match(m.group(2))
                sym, off = (so.group(1), int(so.group(2), 16)) if so else (m.group(2), None)
                frames.append((sym, m.group(3), off))
    if pid is not None:
        yield pid, tid, frames


def complete(frames, callers, main_thread):
    """True when the chain follows the call structure up to its root."""
    root = "main" if main_thread else "thr_start"
    for i, (sym, dso, _) in enumerate(frames):
        if not dso.startswith(OURS):
            return False
        if sym == root:
            return True
        if sym not in callers or i + 1 == len(frames):
            return False
        if frames[i + 1][0] not in callers[sym]:
            return False
    return False


def stock_sample(frames, prog, libc, ldso):
    """(where, complete) for a stock program's sample: where it was taken
    (STOCK_WHERE), None when not in the program, the C library or ld.so.
    libc and ld.so have no symbol table, so the walk is judged by file: it
    is complete when it reaches the program's main, or its _start (the
    outermost frame: libc's exit path after main returned), each frame on
    the way being cmp called from libc (qsort's msort), a PLT stub of the
    program called from main, another function of the program called from
    libc or ld.so (the exit path's destructors), or a frame of libc or ld.so
    called from either or from the program (not from cmp, which calls
    nothing).  The program is recorded from after ld.so's start (run.sh's
    delay), whose walks end at ld.so's entry."""
    def lib(dso):
        return dso.endswith(libc) or dso.endswith(ldso)
    if not frames:
        return None, False
    sym, dso, _ = frames[0]
    if dso == prog:
        where = "cmp" if sym == "cmp" else "prog"
    elif dso.endswith(libc):
        where = "libc"
    elif dso.endswith(ldso):
        where = "ld.so"
    else:
        return None, False
    for i, (sym, dso, _) in enumerate(frames):
        if dso == prog and sym in ("main", "_start"):
            return where, True
        if i + 1 == len(frames):
            break
        csym, cdso = frames[i + 1][0], frames[i + 1][1]
        if dso == prog and sym == "cmp":
            ok = cdso.endswith(libc)
        elif dso == prog and sym.endswith("@plt"):
            ok = cdso == prog and csym == "main"
        elif dso == prog:
            ok = lib(cdso)
        elif lib(dso):
            ok = lib(cdso) or (cdso == prog and csym != "cmp")
        else:
            ok = False
        if not ok:
            break
    return where, False


def dmesg_sections(path):
    """Kernel log lines between the guest's begin/end markers, by run."""
    runs, cur = {}, None
    lines = []
    if os.path.exists(path):
        with open(path, errors="replace") as f:
            lines = f.read().splitlines()
    for line in lines:
        text = re.sub(r"^\[[^\]]*\]\s*", "", line)
        m = re.match(r"sframe-harness: (begin|end) (\S+)", text)
        if m:
            cur = m.group(2) if m.group(1) == "begin" else None
            runs.setdefault(m.group(2), [])
            continue
        if cur:
            runs[cur].append(text)
    return lines, runs


def judge(outdir, kernel):
    """Per program: counts and problems for one kernel's run."""
    kdir = os.path.join(outdir, kernel)
    rcs = {}
    with open(os.path.join(kdir, "guest.log")) as f:
        for line in f:
            m = re.match(r"(\S+) rc=(\d+)", line)
            if m:
                rcs[m.group(1)] = int(m.group(2))
    log, runs = dmesg_sections(os.path.join(kdir, "dmesg.txt"))
    problems = ["kernel log: " + l for l in log if BAD_LOG.search(l)]
    res = {}
    for name, (callers, bad_lib) in PROGRAMS.items():
        script = os.path.join(kdir, name + ".script")
        if name not in rcs:
            continue
        r = {"rc": rcs[name], "n": 0, "ok": 0, "hn": 0, "cut": 0, "entry": 0,
             "logged": any(l.startswith("sframe: ") and "corrupt" in l
                           for l in runs.get(name, []))}
        if rcs[name] != 0:
            problems.append(f"{name}: exited with {rcs[name]}"
                            + (" (timeout: hang)" if rcs[name] == 124 else ""))
        known = set(callers or {}) | ROOTS
        if name in STOCK and os.path.exists(script):
            r["where"] = dict.fromkeys(STOCK_WHERE, 0)
            for pid, tid, frames in samples(script):
                where, ok = stock_sample(frames, *STOCK[name])
                if where:
                    r["n"] += 1
                    r["where"][where] += 1
                    r["ok"] += ok
        elif os.path.exists(script):
            for pid, tid, frames in samples(script):
                # Only our functions carry SFrame (a static program also
                # holds libc's code, which does not).
                if (not frames or not frames[0][1].startswith(OURS)
                        or frames[0][0] not in known):
                    continue
                if bad_lib and frames[0][1] == bad_lib:
                    r["hn"] += 1
                    if all(f[1] == bad_lib for f in frames):
                        r["cut"] += 1
                    continue
                if name in CONTROLS and frames[0][2] == 0:
                    # A frame-pointer walk cannot see the caller of a
                    # function at its first instruction (the frame is not
                    # set up yet); under emulation samples often land there.
                    r["entry"] += 1
                    continue
                r["n"] += 1
                r["ok"] += complete(frames, callers, pid == tid)
        res[name] = r
    return res, problems


def pct(a, b):
    return f"{100.0 * a / b:5.1f}%" if b else "   -  "


def main():
    outdir, kernels = sys.argv[1], sys.argv[2:]
    results, problems = {}, {}
    for k in kernels:
        results[k], problems[k] = judge(outdir, k)
    failures = []
    print(f"{'program':16} " + " ".join(
        f"{k + ': complete/samples':>30} {'cut/hostile':>12} {'log':>4}"
        for k in kernels))
    totals = {k: [0, 0] for k in kernels}
    for name, (_, bad_lib) in PROGRAMS.items():
        if not any(name in results[k] for k in kernels):
            continue
        cols = []
        for k in kernels:
            r = results[k].get(name)
            if r is None:
                cols.append(f"{'(not run)':>30} {'':>12} {'':>4}")
                continue
            cols.append(f"{r['ok']:>13}/{r['n']:<7} {pct(r['ok'], r['n']):>8} "
                        f"{(str(r['cut']) + '/' + str(r['hn'])) if bad_lib else '':>12} "
                        f"{('yes' if r['logged'] else 'no') if bad_lib else '':>4}")
            if not bad_lib and name not in CONTROLS:
                totals[k][0] += r["ok"]
                totals[k][1] += r["n"]
        print(f"{name:16} " + " ".join(cols))
    if "sframe" in kernels:
        res = results["sframe"]
        failures += problems["sframe"]
        for name, (_, bad_lib) in PROGRAMS.items():
            r = res.get(name)
            if r is None:
                continue
            if bad_lib:
                if r["hn"] < 20:
                    failures.append(f"{name}: only {r['hn']} samples in the corrupt library")
                if r["cut"] != r["hn"]:
                    failures.append(f"{name}: {r['hn'] - r['cut']} walks left the corrupt library")
                if not r["logged"]:
                    failures.append(f"{name}: no 'sframe: ... corrupt' kernel log line")
            elif r["n"] < 50:
                failures.append(f"{name}: only {r['n']} samples in SFrame code")
        q = res.get("qsort-conv")
        if q is None:
            failures.append("qsort-conv: not run")
        else:
            if q["n"] < 50 or q["ok"] < 0.99 * q["n"]:
                failures.append(f"qsort-conv: only {q['ok']}/{q['n']} complete")
            for where in ("cmp", "libc", "ld.so"):
                if q.get("where", {}).get(where, 0) < 20:
                    failures.append(f"qsort-conv: only {q.get('where', {}).get(where, 0)} "
                                    f"samples in {where}")
        for name in ("unmap", "static-nest"):
            u = res.get(name)
            if u is None:
                failures.append(f"{name}: not run")
            elif u["n"] and u["ok"] < 0.99 * u["n"]:
                failures.append(f"{name}: only {u['ok']}/{u['n']} complete")
        for name in ("cor-header", "cor-fde", "cor-fre", "cor-rep"):
            if name not in res:
                failures.append(f"{name}: not run")
        ok, n = totals["sframe"]
        if not n or ok < 0.99 * n:
            failures.append(f"total: {ok}/{n} complete, below 99%")
    else:
        failures.append("no patched (sframe) kernel run")
    for k in kernels:
        c = results[k].get("static-fp")
        if c is not None and (c["n"] < 50 or c["ok"] < 0.99 * c["n"]):
            failures.append(f"static-fp ({k} kernel): the frame-pointer control "
                            f"completed only {c['ok']}/{c['n']}")
        if c is not None:
            print(f"static-fp ({k} kernel): {c['entry']} samples at a function's "
                  "first instruction left out")
    for k in kernels:
        for name in STOCK:
            c = results[k].get(name)
            if c is not None and "where" in c:
                print(f"{name} ({k} kernel): samples in " + ", ".join(
                    f"{w} {c['where'][w]}" for w in STOCK_WHERE))
    for k in kernels:
        if k != "sframe":
            for p in problems[k]:
                print(f"note ({k} kernel, not judged): {p}")
    for f in failures:
        print("FAIL: " + f)
    stock = totals.get("stock", [0, 0])
    if "sframe" in kernels:
        ok, n = totals["sframe"]
        print(f"sframe-perf: {ok}/{n} samples complete (stock kernel: {stock[0]}/{stock[1]})")
    else:
        print(f"sframe-perf: patched kernel not run (stock kernel: {stock[0]}/{stock[1]})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
