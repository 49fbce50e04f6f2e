#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause
# Per-sample cost of perf's deferred user walk with SFrame against frame
# pointers, in the patched guest.  Not a test: it prints figures.
#
# Usage: bench.sh WORKDIR [BZIMAGE]
#   WORKDIR: a run.sh work folder (its root with the built programs, and its
#   bzImage unless BZIMAGE names another kernel); SFRAME_SID_ROOT as for
#   run.sh.  Environment: BENCH_ROUNDS (work per run, default 5000 rounds of
#   the static program), BENCH_RUNS (runs of each kind, default 5),
#   BENCH_RATE (samples a second asked of perf, default 4000; the emulated
#   guest delivers about 1000, its tick rate).
#
# What it runs (bench-init.sh in the guest, part "sample"): prog-static
# (no frame pointers) with the sframe_user knobs enabled, index and cache at
# 1 ("sframe": the SFrame walk with the lookup index and the rule memo), the
# same with index at 0 ("noindex": without the index), the same with cache
# at 0 ("nocache": without the memo, every frame's module found and looked
# up), prog-static-fp (the same source with frame pointers) with enabled at
# 0 ("fp"), RUNS times each without perf and
# under perf record -e cpu-clock -F RATE --call-graph fp,defer.  Each run reports its own system and user time (getrusage) and
# elapsed time; the cost per sample is the mean sampled time less the mean
# unsampled one, divided by the mean sample count.  The kernel splits a
# task's run time into user and system by where its ticks land, so "system
# time" is a statistical estimate; "user+system" is the task's precise run
# time.  It counts everything a sample costs in the sampled task (the timer
# interrupt, perf's record, the deferred walk at the return to user space);
# the differences between the methods are the walks'.  The guest is
# emulated (TCG): the figures compare, they are not native times.
#
# Then the walk alone (bench-init.sh, part "walk"): a kernel built once more
# from run.sh's patched tree with ftrace's function profiler
# (WORKDIR/bzImage-profile) times every call of unwind_user_faultable(),
# the deferred walk, of sframe_mod_get() (finding a frame's module: the
# mmap_lock, the VMA, the table and the section's copy) and of
# sframe_lookup() in the kernel; perf script counts the user frames of each
# walk. Printed per method: microseconds per walk and per frame, the part
# of each frame spent finding modules and looking up (the rest: the memo,
# the row's translation and user.c's applying it), and the ratios.  The
# walk part also runs prog-static-big (prog-static with 4000 more
# functions in its section, so that the index has something to shorten:
# prog-static's section has 6 FDEs) the same three ways.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { echo "usage: $0 WORKDIR [BZIMAGE]" >&2; exit 2; }
work=$(cd "$1" && pwd)
kernel=${2:-$work/bzImage}
root=${SFRAME_SID_ROOT:-$work/root}
root=$(cd "$root" && pwd)
sft=$root/sft
[ -s "$kernel" ] || { echo "bench.sh: no kernel $kernel (run run.sh first)" >&2; exit 1; }
for p in prog-static prog-static-fp prog-static-big; do
	[ -x "$sft/bin/$p" ] || { echo "bench.sh: $sft/bin/$p missing (run run.sh first)" >&2; exit 1; }
done
rounds=${BENCH_ROUNDS:-5000}
runs=${BENCH_RUNS:-5}
rate=${BENCH_RATE:-4000}
cp "$here/bench-init.sh" "$sft/bench-init.sh"
chmod +x "$sft/bench-init.sh"
rm -rf "$sft/out/bench"
mkdir -p "$work/logs"
"$here/boot-guest.sh" "$root" "$kernel" /sft/bench-init.sh "$work/logs/qemu-bench.log" 1800 \
	"sfrounds=$rounds" "sfruns=$runs" "sfrate=$rate" || true
res=$sft/out/bench/results.txt
[ -e "$sft/out/bench/done" ] || { tail -30 "$work/logs/qemu-bench.log"; echo "bench.sh: the guest did not finish" >&2; exit 1; }
echo "kernel: $kernel"
echo "ran: prog-static (knob 1: SFrame walk; index 1, cache 1: sframe; index 0: noindex; cache 0: nocache)"
echo "     and prog-static-fp (knob 0: fp),"
echo "     $rounds rounds each, $runs runs unsampled and $runs under perf record -e cpu-clock -F $rate --call-graph fp,defer"
cat "$res"
status=0
grep -q "knob absent" "$res" && {
	echo "NOTE: no /sys/module/sframe_user/parameters/enabled: not the patched kernel, all rows use its one method"
	status=1
}
grep -q "index knob absent" "$res" && {
	echo "NOTE: no /sys/module/sframe_user/parameters/index: the sframe and noindex rows are the same walk"
	status=1
}
grep -q "cache knob absent" "$res" && {
	echo "NOTE: no /sys/module/sframe_user/parameters/cache: the sframe and nocache rows are the same walk"
	status=1
}
awk '
/ base | sampled / {
	m = $1; k = $2
	for (i = 4; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	sys[m, k] += v["sys_us"]; cpu[m, k] += v["sys_us"] + v["user_us"]
	cpu2[m, k] += (v["sys_us"] + v["user_us"]) ^ 2
	wall[m, k] += v["wall_us"]; smp[m, k] += v["samples"]; n[m, k]++
	seen[m] = 1
}
function per(a, m) { return (a[m, "sampled"] / n[m, "sampled"] - a[m, "base"] / n[m, "base"]) / c[m] }
END {
	printf "%-7s %9s | %12s %12s %12s (us per sample, from the means)\n", "method", "samples", "system time", "user+system", "elapsed"
	nm = split("sframe noindex nocache fp", order)
	for (j = 1; j <= nm; j++) {
		m = order[j]
		if (!(m in seen))
			continue
		c[m] = smp[m, "sampled"] / n[m, "sampled"]
		if (!c[m]) { printf "%-7s no samples\n", m; continue }
		s_[m] = per(sys, m); u_[m] = per(cpu, m); w_[m] = per(wall, m)
		printf "%-7s %9.0f | %12.2f %12.2f %12.2f\n", m, c[m], s_[m], u_[m], w_[m]
		# The noise: the spread of the user+system time of the unsampled runs,
		# as a standard error of the difference of two means, per sample.
		mb = cpu[m, "base"] / n[m, "base"]
		sd[m] = sqrt(cpu2[m, "base"] / n[m, "base"] - mb * mb)
		noise[m] = sd[m] * sqrt(2 / n[m, "base"]) / c[m]
	}
	for (j = 1; j <= nm; j++) {
		m = order[j]
		if ((m in seen) && c[m])
			printf "%-7s user+system per sample: %.2f +- %.2f us (unsampled runs spread %.0f us)\n", m, u_[m], noise[m], sd[m]
	}
	if (("sframe" in seen) && ("fp" in seen) && u_["fp"] > 0)
		printf "SFrame with index / frame pointers, user+system time per sample: %.2fx\n", u_["sframe"] / u_["fp"]
	if (("noindex" in seen) && ("fp" in seen) && u_["fp"] > 0)
		printf "SFrame without index / frame pointers, user+system time per sample: %.2fx\n", u_["noindex"] / u_["fp"]
	if (("noindex" in seen) && ("sframe" in seen) && u_["noindex"] > 0)
		printf "SFrame with index / without, user+system time per sample: %.2fx\n", u_["sframe"] / u_["noindex"]
	if (("nocache" in seen) && ("fp" in seen) && u_["fp"] > 0)
		printf "SFrame without the memo / frame pointers, user+system time per sample: %.2fx\n", u_["nocache"] / u_["fp"]
}' "$res"
if grep -E 'Oops|BUG|WARNING|general protection' "$sft/out/bench/dmesg.txt"; then
	echo "bench.sh: the kernel log has the lines above" >&2
	status=1
fi

# ---- The walk alone: ftrace's function profiler around unwind_user_faultable()
# A third kernel, the patched tree of run.sh with the function profiler
# (WORKDIR/bzImage-profile, built once), times each deferred walk in the
# kernel itself; perf script gives the user frames per walk.
ksrc=$work/linux-source-7.2
pkernel=$work/bzImage-profile
if [ ! -s "$pkernel" ]; then
	[ -f "$ksrc/kernel/unwind/sframe_user.c" ] ||
		{ echo "bench.sh: $ksrc is not run.sh's patched tree" >&2; exit 1; }
	echo "building $pkernel (the patched kernel with ftrace's function profiler)"
	for o in FTRACE FUNCTION_TRACER DYNAMIC_FTRACE FUNCTION_GRAPH_TRACER FUNCTION_PROFILER DEBUG_FS; do
		"$ksrc/scripts/config" --file "$ksrc/.config" -e "$o"
	done
	make -C "$ksrc" olddefconfig >"$work/logs/olddefconfig-profile.log" 2>&1
	for o in FUNCTION_PROFILER DYNAMIC_FTRACE; do
		grep -qx "CONFIG_$o=y" "$ksrc/.config" ||
			{ echo "bench.sh: CONFIG_$o did not stick" >&2; exit 1; }
	done
	make -C "$ksrc" -j"$(nproc)" bzImage >"$work/logs/kbuild-profile.log" 2>&1 ||
		{ tail -20 "$work/logs/kbuild-profile.log"; echo "bench.sh: profile kernel build failed" >&2; exit 1; }
	cp "$ksrc/arch/x86/boot/bzImage" "$pkernel"
fi
"$here/boot-guest.sh" "$root" "$pkernel" /sft/bench-init.sh "$work/logs/qemu-bench-walk.log" 1800 \
	sfpart=walk "sfrounds=$rounds" "sfrate=$rate" || true
[ -e "$sft/out/bench/walk-done" ] ||
	{ tail -30 "$work/logs/qemu-bench-walk.log"; echo "bench.sh: the profiling guest did not finish" >&2; exit 1; }
echo
echo "kernel: $pkernel (function profiler on unwind_user_faultable)"
echo "ran: the same programs and knob settings, one short run each (not counted), then two runs each"
echo "     ($(cat "$sft/out/bench/walk-order.txt")) under perf record -F $rate --call-graph fp,defer"
# The profiler's rows, one table per CPU: "unwind_user_faultable HIT TIME us
# AVG us S2 us", counted from before the first program: each later
# program's are the difference from the one before.
walk_sums() {
	awk -v fn="${2:-unwind_user_faultable}" '$1 == fn {
		hit += $2; t = $3; if ($4 == "ms") t *= 1000; if ($4 == "ns") t /= 1000; time += t
	} END { printf "%d %.3f\n", hit, time }' "$1"
}
# Per counted run (bench-init.sh's walk-order.txt): the method, the
# profiler's cumulative walks and time, sframe_mod_get()'s and
# sframe_lookup()'s calls and time before and after it, perf's walks and
# user frames.
walk_cols() {
	echo "$(walk_sums "$1") $(walk_sums "$1" sframe_mod_get) $(walk_sums "$1" sframe_lookup)"
}
walk_rows() {
	local m n=0 prev cur
	prev=$(walk_cols "$sft/out/bench/walk-0.txt")
	for m in $(cat "$sft/out/bench/walk-order.txt"); do
		n=$((n + 1))
		cur=$(walk_cols "$sft/out/bench/walk-$n.txt")
		read -r _ walks _ frames <"$sft/out/bench/frames-$n.txt"
		echo "$m $prev $cur $walks $frames"
		prev=$cur
	done
}
walk_rows | awk '{
	m = $1
	h[m] += $8 - $2; t[m] += $9 - $3; gh[m] += $10 - $4; gt[m] += $11 - $5
	lh[m] += $12 - $6; lt[m] += $13 - $7; pw[m] += $14; pf[m] += $15
}
END {
	nm = split("sframe noindex nocache fp big bignoindex bignocache", order)
	for (j = 1; j <= nm; j++) {
		m = order[j]
		if (h[m] <= 0 || pw[m] <= 0) { printf "%-10s no walks profiled\n", m; bad = 1; continue }
		w[m] = t[m] / h[m]; fw = pf[m] / pw[m]; f[m] = w[m] / fw
		printf "%-10s walks %d (perf: %d, %.1f user frames each) | %.2f us per walk, %.2f us per frame", m, h[m], pw[m], fw, w[m], f[m]
		if (gh[m] > 0 || lh[m] > 0) {
			# Per frame: finding modules, looking up, the rest.
			g = gt[m] / h[m] / fw; l = lt[m] / h[m] / fw
			printf " | per frame: module %.2f, lookup %.2f, the rest %.2f us", g, l, f[m] - g - l
			printf " | sframe_mod_get(): %d calls, sframe_lookup(): %d calls", gh[m], lh[m]
		}
		printf "\n"
	}
	if (bad)
		exit 1
	printf "SFrame with index / frame pointers: %.2fx per walk, %.2fx per frame\n", w["sframe"] / w["fp"], f["sframe"] / f["fp"]
	printf "SFrame without index / frame pointers: %.2fx per walk, %.2fx per frame\n", w["noindex"] / w["fp"], f["noindex"] / f["fp"]
	printf "SFrame without the memo / frame pointers: %.2fx per walk, %.2fx per frame\n", w["nocache"] / w["fp"], f["nocache"] / f["fp"]
	printf "SFrame with index / without: %.2fx per walk, %.2fx per frame\n", w["sframe"] / w["noindex"], f["sframe"] / f["noindex"]
	if (lh["nocache"] > 0 && lh["sframe"] > 0)
		printf "sframe_lookup() calls per frame: %.2f with the memo, %.2f without\n", lh["sframe"] / (pf["sframe"] / pw["sframe"] * h["sframe"]), lh["nocache"] / (pf["nocache"] / pw["nocache"] * h["nocache"])
	printf "prog-static-big, SFrame with index / without: %.2fx per walk, %.2fx per frame\n", w["big"] / w["bignoindex"], f["big"] / f["bignoindex"]
	printf "prog-static-big, SFrame / frame pointers (prog-static-fp): %.2fx per frame; without index: %.2fx; without the memo: %.2fx\n", f["big"] / f["fp"], f["bignoindex"] / f["fp"], f["bignocache"] / f["fp"]
}' || status=1
if grep -E 'Oops|BUG|WARNING|general protection' "$sft/out/bench/walk-dmesg.txt"; then
	echo "bench.sh: the profiling kernel's log has the lines above" >&2
	status=1
fi
exit "$status"
