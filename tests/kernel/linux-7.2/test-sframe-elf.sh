#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause
# sframe-elf.py, the kernel test's SFrame re-encoder, checked with the sframe
# tool on the linked v3 fixtures (fixtures/reencode: a program and a library
# that v2 can express; fixtures/v3-x86_64/exe, whose FLEX FDEs v2 cannot):
#  - to-v2, with and without --pcrel: the section stays valid, holds the same
#    FDEs and FREs, dumps the same rows and answers the same lookups, only the
#    version and the PCREL flag told apart; the new size is the old one minus
#    a byte per FDE (a v2 FDE is 20 bytes, a v3 FDE 16 bytes of index entry
#    plus a 5-byte attribute record); PT_GNU_SFRAME and sh_size say so, the
#    freed bytes are zeros, the section type is the release's and the rest of
#    the file is unchanged;
#  - the v2 encoder writes binutils 2.44's linked v2 sections and the hand-made
#    v2 PCREL one back byte for byte from their decoded form;
#  - what v2 cannot say, or what is not a 64-bit little-endian x86_64 file,
#    is refused with exit status 1;
#  - corrupt header/fde/fre/rep (on v3 and on both v2 forms): "sframe check" and a
#    lookup of the first and last byte of the function named by --func report
#    the corruption (the header: SFRAME_ERR_TRUNCATED; fde and fre:
#    SFRAME_ERR_FDE, since its FREs would start at the FRE area's end, or need
#    more bytes than the area has left at two bytes per FRE; rep:
#    SFRAME_ERR_REP_SIZE, a PCMASK function repeating every 0 bytes), while
#    another function still answers as before;
#  - nest: the function named by --func grows over the next one, whose PCs
#    still answer as before, as does the outer one's first byte, while
#    "sframe check" refuses the overlap (SFRAME_ERR_FDE_ORDER).
# Usage: test-sframe-elf.sh PYTHON3 SFRAME_TOOL SOURCE_ROOT
# (SFRAME_TEST_WRAPPER, if set, runs the tool, as for the other tests.)
set -eu
py=$1
tool=$2
root=$3
script=$root/tests/kernel/linux-7.2/sframe-elf.py
fx=$root/fixtures
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0

fail() {
	echo "FAIL: $*" >&2
	failed=1
}

sf() {
	${SFRAME_TEST_WRAPPER:-} "$tool" "$@"
}

# "sframe dump" without the lines that name the version and the flags.
rows() {
	sf dump "$1" | grep -v -e 'Version:' -e 'Flags:' -e '^ *SFRAME_F_'
}

# One field of "sframe-elf.py info".
info() {
	"$py" "$script" info "$1" | sed -n "s/^$2 //p"
}

# Every function's first byte, middle, last byte and first byte past it.
pcs() {
	sf dump "$1" | sed -n 's/.*func idx \[[0-9]*\]: pc = \(0x[0-9a-f]*\), size = \([0-9]*\) bytes.*/\1 \2/p' |
	while read -r start size; do
		printf '0x%x 0x%x 0x%x 0x%x\n' $((start)) $((start + size / 2)) \
			$((start + size - 1)) $((start + size))
	done
}

# expect_refusal WHAT MESSAGE ARGS...: sframe-elf.py exits 1 saying MESSAGE.
expect_refusal() {
	what=$1
	msg=$2
	shift 2
	rc=0
	"$py" "$script" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ "$rc" != 1 ] || ! grep -q -e "$msg" "$tmp/err"; then
		fail "$what: exit $rc, expected 1 and '$msg':"
		cat "$tmp/err" >&2
	fi
}

"$py" "$script" --help | grep -q 'to-v2 IN OUT' || fail "--help does not show to-v2"

for name in prog lib.so; do
	in=$fx/reencode/$name
	rows "$in" >"$tmp/rows.v3"
	sf dump "$in" | grep -q 'Version: SFRAME_VERSION_3' || fail "$name: not v3"
	pcs "$in" >"$tmp/pcs"
	[ -s "$tmp/pcs" ] || fail "$name: no functions"
	# shellcheck disable=SC2046
	sf lookup "$in" $(cat "$tmp/pcs") >"$tmp/lookup.v3" || true
	sf check "$in" | sed 's/^[^:]*: //; s/v3/vN/' >"$tmp/check.v3"
	nfdes=$(info "$in" fdes)
	size=$(info "$in" size)
	extent=$(info "$in" segment-size)
	off=$(info "$in" offset)
	for form in plain pcrel; do
		out=$tmp/$name.$form
		flag=
		[ $form = pcrel ] && flag=--pcrel
		"$py" "$script" to-v2 "$in" "$out" $flag >/dev/null || { fail "$name $form: to-v2"; continue; }
		sf check "$out" | sed 's/^[^:]*: //; s/v2/vN/' >"$tmp/check.v2"
		cmp -s "$tmp/check.v3" "$tmp/check.v2" ||
			fail "$name $form: sframe check: $(cat "$tmp/check.v2"), v3: $(cat "$tmp/check.v3")"
		sf dump "$out" >"$tmp/dump.v2"
		grep -q 'Version: SFRAME_VERSION_2' "$tmp/dump.v2" || fail "$name $form: not v2"
		grep -q 'SFRAME_F_FDE_SORTED' "$tmp/dump.v2" || fail "$name $form: not sorted"
		pcrel=0
		grep -q 'SFRAME_F_FDE_FUNC_START_PCREL' "$tmp/dump.v2" && pcrel=1
		[ $pcrel = "$([ $form = pcrel ] && echo 1 || echo 0)" ] ||
			fail "$name $form: PCREL flag is $pcrel"
		rows "$out" >"$tmp/rows.v2"
		cmp -s "$tmp/rows.v3" "$tmp/rows.v2" || {
			fail "$name $form: rows differ from v3"
			diff "$tmp/rows.v3" "$tmp/rows.v2" | head -20 >&2
		}
		# shellcheck disable=SC2046
		sf lookup "$out" $(cat "$tmp/pcs") >"$tmp/lookup.v2" || true
		cmp -s "$tmp/lookup.v3" "$tmp/lookup.v2" || {
			fail "$name $form: lookups differ from v3"
			diff "$tmp/lookup.v3" "$tmp/lookup.v2" | head -20 >&2
		}
		new=$(info "$out" size)
		[ $((new)) = $((size - nfdes)) ] ||
			fail "$name $form: size $new, expected $size - $nfdes"
		[ "$(info "$out" segment-size)" = "$new" ] ||
			fail "$name $form: PT_GNU_SFRAME size $(info "$out" segment-size), section $new"
		[ "$(info "$out" address)" = "$(info "$in" address)" ] || fail "$name $form: moved"
		# binutils 2.44 typed .sframe SHT_PROGBITS, 2.45 SHT_GNU_SFRAME.
		type=0x1
		[ $form = pcrel ] && type=0x6ffffff4
		[ "$(info "$out" section-type)" = $type ] ||
			fail "$name $form: section type $(info "$out" section-type), expected $type"
		# The freed bytes are zeros.
		dd if="$out" bs=1 skip=$((off + new)) count=$((extent - new)) 2>/dev/null |
			od -An -v -tx1 | tr -d ' 0\n' | grep -q . && fail "$name $form: freed bytes not zero"
		# Outside the section only the sizes changed (p_filesz, p_memsz and
		# sh_size, in at most their two low bytes: sizes below 64 KiB) and,
		# without PCREL, sh_type (4 bytes).
		outside=$(cmp -l "$in" "$out" | awk -v lo=$((off)) -v hi=$((off + extent)) \
			'$1 <= lo || $1 > hi { n++ } END { print n + 0 }')
		[ "$outside" -le 10 ] || fail "$name $form: $outside bytes changed outside the section"
	done
done

# The v2 encoder against v2 sections it did not make: binutils 2.44's linked
# ones (fixtures/v2-x86_64, unwind/v2-x86_64: starts relative to the section)
# and the hand-made PCREL one that binutils 2.47.50 dumps as the fixture says
# (fixtures/handmade/v2-pcrel-x86_64): decoded, then written as v2 again with
# their own flag, they come back byte for byte.
"$py" -B - "$script" "$fx" <<'PY' || fail "v2 sections not written back byte for byte"
import importlib.util, sys
spec = importlib.util.spec_from_file_location("sframe_elf", sys.argv[1])
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
fx = sys.argv[2]
bad = 0
for name in ("v2-x86_64/exe", "v2-x86_64/lib.so", "unwind/v2-x86_64/unwind"):
    elf, sec = m.load(f"{fx}/{name}")
    if sec.flags & m.F_PCREL or sec.encode(2, False) != elf.section():
        print(f"FAIL: {name}", file=sys.stderr)
        bad = 1
name = f"{fx}/handmade/v2-pcrel-x86_64"
with open(f"{name}.sframe", "rb") as f:
    raw = f.read()
with open(f"{name}.addr") as f:
    sec = m.Section(raw, int(f.read(), 16), name)
if not sec.flags & m.F_PCREL or sec.encode(2, True) != raw:
    print(f"FAIL: {name}", file=sys.stderr)
    bad = 1
sys.exit(bad)
PY

# What v2 cannot say, or cannot be read.
expect_refusal "FLEX FDE" 'FDE type 1 (FLEX)' to-v2 "$fx/v3-x86_64/exe" "$tmp/x"
expect_refusal "v2 input" 'version 2, not 3' to-v2 "$tmp/prog.plain" "$tmp/x"
expect_refusal "aarch64" 'only x86_64' to-v2 "$fx/v3-aarch64/exe" "$tmp/x"
expect_refusal "big endian" 'only 64-bit little-endian' to-v2 "$fx/v3-s390x/exe" "$tmp/x"
expect_refusal "raw section" 'not an ELF file' to-v2 "$fx/v3-x86_64/exe.sframe" "$tmp/x"
expect_refusal "unknown function" 'no function symbol no_such_fn' corrupt \
	"$fx/reencode/prog" "$tmp/x" fde --func no_such_fn
[ ! -e "$tmp/x" ] || fail "a refused command wrote its output"

# corrupt_case INPUT FUNC: every kind breaks FUNC; the first byte of the
# first function (PLT0, not FUNC) answers as in INPUT where the header is
# intact.
corrupt_case() {
	in=$1
	func=$2
	other=$(pcs "$in" | sed -n '1s/ .*//p')
	[ -n "$other" ] || { fail "$in: no function in the dump"; return; }
	sf lookup "$in" "$other" >"$tmp/other.good"
	for kind in header fde fre rep; do
		out=$tmp/corrupt-$kind
		case $kind in
		header) err=SFRAME_ERR_TRUNCATED ;;
		rep) err=SFRAME_ERR_REP_SIZE ;;
		*) err=SFRAME_ERR_FDE ;;
		esac
		"$py" "$script" corrupt "$in" "$out" $kind --func "$func" >"$tmp/said" ||
			{ fail "$in $kind: corrupt failed"; continue; }
		[ "$(wc -l <"$tmp/said")" = 1 ] || fail "$in $kind: not one line: $(cat "$tmp/said")"
		rc=0
		sf check "$out" >/dev/null 2>"$tmp/err" || rc=$?
		if [ $rc != 1 ] || ! grep -q "($err)" "$tmp/err"; then
			fail "$in $kind: check exit $rc, $(cat "$tmp/err"), expected $err"
		fi
		[ $kind = header ] && continue
		range=$(sed -n 's/.* at \(0x[0-9a-f]*\), \(0x[0-9a-f]*\) bytes.*/\1 \2/p' "$tmp/said")
		[ -n "$range" ] || { fail "$in $kind: no function in: $(cat "$tmp/said")"; continue; }
		start=${range% *}
		size=${range#* }
		for pc in $((start)) $((start + size - 1)); do
			pc=$(printf '0x%x' "$pc")
			sf lookup "$out" "$pc" >"$tmp/got" 2>/dev/null || true
			[ "$(cat "$tmp/got")" = "$pc !$err" ] ||
				fail "$in $kind: lookup $pc: $(cat "$tmp/got"), expected !$err"
		done
		sf lookup "$out" "$other" >"$tmp/other" || true
		cmp -s "$tmp/other" "$tmp/other.good" ||
			fail "$in $kind: $other: $(cat "$tmp/other"), was $(cat "$tmp/other.good")"
	done
}

# nest_case INPUT FUNC: FUNC's FDE grows over the next function, which
# lookups still find for its own PCs (first, middle and last byte: the
# answers of INPUT); FUNC's first byte too; "sframe check" refuses the
# overlap of a sorted section (FDE_ORDER).
nest_case() {
	in=$1
	func=$2
	out=$tmp/nest
	"$py" "$script" nest "$in" "$out" --func "$func" >"$tmp/said" ||
		{ fail "$in nest: failed"; return; }
	[ "$(wc -l <"$tmp/said")" = 1 ] || fail "$in nest: not one line: $(cat "$tmp/said")"
	outer=$(sed -n 's/.*(.* at \(0x[0-9a-f]*\)) .*/\1/p' "$tmp/said")
	inner=$(sed -n 's/.*: FDE [0-9]* (at \(0x[0-9a-f]*\), \(0x[0-9a-f]*\) bytes) inside it/\1 \2/p' "$tmp/said")
	[ -n "$outer" ] && [ -n "$inner" ] || { fail "$in nest: $(cat "$tmp/said")"; return; }
	start=${inner% *}
	size=${inner#* }
	rc=0
	sf check "$out" >/dev/null 2>"$tmp/err" || rc=$?
	if [ $rc != 1 ] || ! grep -q "(SFRAME_ERR_FDE_ORDER)" "$tmp/err"; then
		fail "$in nest: check exit $rc, $(cat "$tmp/err"), expected SFRAME_ERR_FDE_ORDER"
	fi
	for pc in $((outer)) $((start)) $((start + size / 2)) $((start + size - 1)); do
		pc=$(printf '0x%x' "$pc")
		sf lookup "$in" "$pc" >"$tmp/want" 2>&1 || true
		sf lookup "$out" "$pc" >"$tmp/got" 2>&1 || true
		cmp -s "$tmp/got" "$tmp/want" ||
			fail "$in nest: lookup $pc: $(cat "$tmp/got"), was $(cat "$tmp/want")"
	done
	grep -q " inside it" "$tmp/said" || fail "$in nest: $(cat "$tmp/said")"
}

# work has rows from the frame pointer, drap_fn FLEX rows.
for in in "$fx/reencode/prog" "$tmp/prog.plain" "$tmp/prog.pcrel"; do
	corrupt_case "$in" work
done
corrupt_case "$fx/v3-x86_64/exe" drap_fn
for in in "$fx/reencode/prog" "$tmp/prog.plain"; do
	nest_case "$in" work
done

exit $failed
