#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause
# Builds the guest test programs; runs inside the Debian sid root (chroot),
# whose gcc and binutils emit SFrame (-Wa,--gsframe).
# Usage: build-progs.sh SRCDIR OUTDIR  (paths inside the root)
# OUTDIR/bin gets the programs, OUTDIR/lib the libraries they find through
# their run path (libsfcor.so is left to LD_LIBRARY_PATH, so that the runs
# can pick a corrupted copy).
set -eu
src=$1
out=$2
mkdir -p "$out/bin" "$out/lib"
# No frame pointers: only SFrame can walk these.
CFLAGS="-O2 -g0 -Wall -Werror -D_GNU_SOURCE -fomit-frame-pointer -Wa,--gsframe -I$src"
cc() { echo "  gcc $*"; gcc $CFLAGS "$@"; }

# lib NAME OUTER INNER: libNAME.so from libsf.c, its two functions named.
lib() { cc -shared -fPIC -DSFT_OUTER="$2" -DSFT_INNER="$3" -o "$out/lib/lib$1.so" "$src/libsf.c"; }

cc -static -o "$out/bin/prog-static" "$src/prog-static.c"
lib sfa sfa_outer sfa_inner
lib sfb sfb_outer sfb_inner
cc -o "$out/bin/prog-dyn" "$src/prog-dyn.c" -L"$out/lib" -lsfa \
	-Wl,-rpath,"$out/lib"
cc -pthread -o "$out/bin/prog-threads" "$src/prog-threads.c"
lib sfcor cor_entry cor_leaf
cc -o "$out/bin/prog-cor" "$src/prog-cor.c" -L"$out/lib" -lsfcor
lib sfu sfu_outer sfu_inner
cc -o "$out/bin/prog-unmap" "$src/prog-unmap.c" -Wl,-rpath,"$out/lib"
# For bench.sh: the same static program with frame pointers, so that the
# frame-pointer walk gives full chains too (leaf functions included: see
# SFT_LEAF_FRAME in work.h).
gcc -O2 -g0 -Wall -Werror -D_GNU_SOURCE -DSFT_LEAF_FRAME -fno-omit-frame-pointer \
	-mno-omit-leaf-frame-pointer -Wa,--gsframe -I"$src" \
	-static -o "$out/bin/prog-static-fp" "$src/prog-static.c"
# For bench.sh: the static program with 4000 more functions, never called,
# in its .sframe, so that a lookup without the lookup index is a binary
# search of 12 steps (prog-static has 6 functions: 3 steps).
i=0
while [ "$i" -lt 4000 ]; do
	echo "int sft_pad$i(int x);"
	echo "int sft_pad$i(int x) { return x * $((i + 3)) + (x >> 3); }"
	i=$((i + 1))
done >"$src/sft_pad.c"
cc -static -o "$out/bin/prog-static-big" "$src/prog-static.c" "$src/sft_pad.c"

# Stress programs, for run-debug.sh's debug kernel only (run.sh's table
# leaves them out): libraries opened, closed, re-protected and unmapped
# under the walks (prog-dlstress, with libsfs0.so and libsfs1.so), a fork
# and exec storm (prog-forkexec), a program that overwrites its own
# .sframe while it is walked (prog-scribble).
lib sfs0 sfs0_outer sfs0_inner
lib sfs1 sfs1_outer sfs1_inner
cc -pthread -o "$out/bin/prog-dlstress" "$src/prog-dlstress.c" -Wl,-rpath,"$out/lib"
cc -o "$out/bin/prog-forkexec" "$src/prog-forkexec.c"
cc -pthread -o "$out/bin/prog-scribble" "$src/prog-scribble.c"

# Every program and library must carry a .sframe section.
for f in "$out"/bin/* "$out"/lib/*; do
	if ! readelf -S "$f" | grep -q '\.sframe'; then
		echo "build-progs: $f has no .sframe section" >&2
		exit 1
	fi
done
