#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause
# The installed library, beside GNU binutils' own libsframe (which Debian's
# ld, as and objdump load through libbfd). .ci/embedders.sh runs one check
# per command:
#
#   install-check.sh staged WORK
#     `meson install --destdir WORK/dest` of a build for the default prefix
#     (/usr/local), then: no file has the path or name of a GNU libsframe
#     file; the shared library (soname libsframe-reader.so.0), the static
#     one, sframe-reader.pc, the headers under include/sframe/ and the tool
#     are there (other files may be); the shared library exports exactly the
#     functions the installed headers declare, under the version node of
#     src/sframe-reader.map, and no name the system's GNU libsframe exports;
#     tests/consumers/consumer.c builds against the tree through its .pc file.
#   install-check.sh beside-binutils WORK
#     with the tree `staged` left in WORK: binutils' as, ld and objdump work
#     with our library directory searched first (as after an install to
#     /usr/local and ldconfig), and the consumer runs with GNU's library
#     directory searched first, and with GNU's library loaded as well.
#   install-check.sh readme WORK PREFIX
#     the commands of README.md's install example (the indented block after
#     the line "<!-- install example ..."), run in a fresh copy of this tree
#     with PREFIX (removed first) for the README's prefix; the last lines of
#     their output must be the README's next indented block.
#
# The system's GNU libsframe is the one the dynamic linker gives binutils'
# programs (ldd), else any in its cache (ldconfig -p). On x86_64 Debian it
# must be found, so that the comparison cannot pass for want of it.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
root=$PWD
fixture_args=(fixtures/v3-x86_64/lib.so.sframe 0x2c3a8 0x1143 0x1140)

# A name or path GNU binutils installs for its libsframe: none of ours may
# have one (find(1) expression).
gnu_names=(\( -name 'libsframe.so*' -o -name libsframe.a -o -name libsframe.la
	-o -name libsframe.pc -o -path '*/include/sframe.h' -o -path '*/include/sframe-api.h' \))

fail() {
	echo "FAILED: $*"
	status=1
}

must_find_gnu() {
	[ -f /etc/debian_version ] && [ "$(uname -m)" = x86_64 ]
}

# The system's GNU libsframe shared libraries, one real path per line.
gnu_libsframe() {
	local t p found ldconfig
	found=$(for t in objdump ld as; do
		p=$(command -v "$t") || continue
		ldd "$p" 2>/dev/null |
			sed -n 's/^[[:space:]]*libsframe\.so[.0-9]* => \(\/[^ ]*\) .*/\1/p'
	done)
	if [ -z "$found" ]; then
		ldconfig=$(PATH=$PATH:/sbin:/usr/sbin command -v ldconfig) &&
			found=$("$ldconfig" -p |
				sed -n 's/^[[:space:]]*libsframe\.so[.0-9]* (.*) => \(\/.*\)$/\1/p')
	fi
	[ -n "$found" ] && printf '%s\n' "$found" | xargs readlink -f | sort -u
}

# The GNU libraries, checked to be GNU's; nothing (and a note) where there
# is none to find. Returns 1 when one should be there and is not.
gnu_checked() {
	local gnu g ok=0
	gnu=$(gnu_libsframe)
	if [ -z "$gnu" ]; then
		if must_find_gnu; then
			echo "FAILED: no GNU libsframe found (ldd of objdump/ld/as, ldconfig -p)" >&2
			return 1
		fi
		echo "note: no GNU libsframe on this system, nothing to compare with" >&2
		return 0
	fi
	for g in $gnu; do
		# (An old install of this project under the GNU name would be taken
		# for GNU's and hide the comparison.)
		dyn_names "$g" | grep -x sframe_decode >/dev/null ||
			{ echo "FAILED: $g is not GNU's libsframe (no sframe_decode)" >&2; ok=1; }
	done
	printf '%s\n' "$gnu"
	return $ok
}

# The names of the defined dynamic symbols of LIB, without versions and
# without the version nodes themselves.
dyn_names() {
	nm -D --defined-only "$1" | awk '$2 != "A" { sub(/@.*/, "", $3); print $3 }' | sort -u
}

# The functions declared (not defined inline) by the headers INC/sframe/*.h,
# as gcc -aux-info lists them.
declared() {
	local inc=$1 t h
	t=$(mktemp -d)
	for h in "$inc"/sframe/*.h; do
		echo "#include <sframe/${h##*/}>"
	done >"$t/all.c"
	if gcc -std=c11 -I"$inc" -fsyntax-only -aux-info "$t/aux" "$t/all.c"; then
		grep -F "/* $inc/sframe/" "$t/aux" | grep -F ' */ extern ' |
			sed 's/ (.*//; s/.*[ *]//' | sort -u
	fi
	rm -rf "$t"
}

# The library directory of the tree `staged` installed under WORK: where
# its one sframe-reader.pc is.
staged_libdir() {
	local pc
	pc=$(find "$1/dest" -name sframe-reader.pc)
	[ "$(printf '%s\n' "$pc" | grep -c .)" = 1 ] || return 1
	dirname "$(dirname "$pc")"
}

staged() {
	local work=$1 b=$1/build dest=$1/dest pre=$1/dest/usr/local lib so soname node
	local gnu g want got bad pcs cflags libs lname
	status=0
	rm -rf "$b" "$dest" "$work/consumer"
	mkdir -p "$work"
	meson setup --prefix /usr/local "$b" "$root" || return 1
	meson install -C "$b" --destdir "$dest" || return 1
	echo "== installed:"
	(cd "$dest" && find . ! -type d | sort)

	bad=$(find "$dest" "${gnu_names[@]}" -print)
	[ -z "$bad" ] || fail "paths or names of GNU libsframe's files: $bad"

	lib=$(staged_libdir "$work") || { fail "not one sframe-reader.pc"; return 1; }
	echo "== library directory: ${lib#"$dest"}"
	# The .pc file, as a consumer uses it (the sysroot stands for DESTDIR),
	# names the library checked below.
	cflags=$(PKG_CONFIG_LIBDIR=$lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$dest \
		pkg-config --cflags sframe-reader) &&
	libs=$(PKG_CONFIG_LIBDIR=$lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$dest \
		pkg-config --libs sframe-reader) || { fail "pkg-config sframe-reader"; return 1; }
	echo "== pkg-config: $cflags $libs"
	# shellcheck disable=SC2086
	lname=$(printf '%s\n' $libs | sed -n 's/^-l//p')
	[ "$lname" = sframe-reader ] || fail "the .pc file links -l$lname"
	so=$lib/lib$lname.so
	soname=$(readelf -d "$so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
	[ "$soname" = libsframe-reader.so.0 ] || fail "soname: '$soname'"
	[ -e "$lib/$soname" ] && [ "$(readlink -f "$lib/$soname")" = "$(readlink -f "$so")" ] ||
		fail "$soname does not lead to the library"
	nm "$lib/libsframe-reader.a" 2>/dev/null | grep ' T sframe_lookup$' >/dev/null ||
		fail "no static libsframe-reader.a with sframe_lookup"
	pcs=$(find "$dest" -name '*.pc')
	[ "$pcs" = "$lib/pkgconfig/sframe-reader.pc" ] || fail "pkg-config files: $pcs"
	[ "$(ls "$pre/include")" = sframe ] || fail "include/ holds more than sframe/"
	[ "$(ls "$pre/include/sframe")" = "$(ls "$root/include/sframe")" ] ||
		fail "installed headers differ from include/sframe/"
	got=$("$pre/bin/sframe" lookup fixtures/v3-x86_64/lib.so 0x1143) ||
		fail "the installed tool failed"
	echo "== sframe lookup: $got"

	# Exports: exactly the headers' functions, each under our version node.
	node=$(sed -n 's/^\([A-Za-z0-9_.]*\) {.*/\1/p' src/sframe-reader.map)
	want=$(declared "$pre/include")
	got=$(dyn_names "$so")
	echo "== exported:"; echo "$got"
	[ -n "$want" ] || fail "no function found in the installed headers"
	[ "$got" = "$want" ] || {
		fail "exports differ from the headers' functions (< exported, > declared):"
		diff <(echo "$got") <(echo "$want")
	}
	[ -n "$node" ] && ! nm -D --defined-only "$so" |
		awk '$2 != "A"' | grep -v -F "@@$node" || fail "exports outside version node '$node'"
	gnu=$(gnu_checked) || status=1
	for g in $gnu; do
		echo "== GNU libsframe: $g"
		bad=$(comm -12 <(echo "$got") <(dyn_names "$g"))
		[ -z "$bad" ] || fail "exported by $g too: $bad"
		[ "$(readelf -d "$g" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')" != "$soname" ] ||
			fail "$g has our soname"
	done

	# shellcheck disable=SC2086
	cc -std=c11 -Wall -Wextra -Werror -pedantic $cflags -o "$work/consumer" \
		tests/consumers/consumer.c $libs || fail "the consumer does not build"
	readelf -d "$work/consumer" | grep -F "(NEEDED)" | grep -F "[$soname]" >/dev/null ||
		fail "the consumer does not need $soname"
	return $status
}

beside_binutils() {
	local work=$1 lib t gnu g plain out
	status=0
	lib=$(staged_libdir "$work") && [ -x "$work/consumer" ] ||
		{ echo "needs the tree of 'staged' in $work"; return 1; }
	t=$work/binutils
	rm -rf "$t"
	mkdir -p "$t"

	# binutils with our library directory searched first.
	printf 'f:\n\t.cfi_startproc\n\tret\n\t.cfi_endproc\n' >"$t/f.s"
	if as --gsframe -o "$t/probe.o" "$t/f.s" 2>/dev/null; then
		if LD_LIBRARY_PATH=$lib as --gsframe -o "$t/f.o" "$t/f.s" &&
		   LD_LIBRARY_PATH=$lib ld -shared -o "$t/f.so" "$t/f.o" &&
		   LD_LIBRARY_PATH=$lib objdump --sframe "$t/f.so" >"$t/ours.txt" &&
		   objdump --sframe "$t/f.so" >"$t/plain.txt" &&
		   grep 'Contents of the SFrame section' "$t/plain.txt" >/dev/null &&
		   cmp "$t/plain.txt" "$t/ours.txt"; then
			echo "== as, ld, objdump --sframe: ok"
		else
			fail "as --gsframe, ld -shared, objdump --sframe with $lib first"
		fi
	elif must_find_gnu; then
		fail "as --gsframe does not work"
	else
		echo "note: as --gsframe does not work here: binutils not checked"
	fi

	# The consumer, with GNU's library first and loaded with ours.
	plain=$(LD_LIBRARY_PATH=$lib "$work/consumer" "${fixture_args[@]}") || fail "consumer"
	echo "== consumer: $plain"
	case $plain in ok:*) ;; *) fail "consumer printed '$plain'" ;; esac
	gnu=$(gnu_checked) || status=1
	for g in $gnu; do
		out=$(LD_LIBRARY_PATH=$(dirname "$g"):$lib "$work/consumer" "${fixture_args[@]}")
		[ "$out" = "$plain" ] && echo "== consumer with $(dirname "$g") first: ok" ||
			fail "consumer with $(dirname "$g") first: '$out'"
		out=$(LD_PRELOAD=$g LD_LIBRARY_PATH=$lib "$work/consumer" "${fixture_args[@]}")
		[ "$out" = "$plain" ] && echo "== consumer with $g loaded too: ok" ||
			fail "consumer with $g loaded too: '$out'"
	done
	return $status
}

# The N-th indented block after README.md's install-example marker.
readme_block() {
	awk -v n="$1" '
		/^<!-- install example/ { on = 1; next }
		!on { next }
		/^    / { if (!inblock) { block++; inblock = 1 }
			if (block == n) print substr($0, 5)
			next }
		/^[ \t]*$/ { next }
		{ inblock = 0; if (block >= n) exit }' README.md
}

readme() {
	local work=$1 prefix=$2 src=$1/src cmds want rprefix n got
	cmds=$(readme_block 1)
	want=$(readme_block 2)
	rprefix=$(printf '%s\n' "$cmds" | sed -n 's/.*--prefix \([^ ]*\).*/\1/p' | head -n 1)
	if [ -z "$cmds" ] || [ -z "$want" ] || [ -z "$rprefix" ]; then
		echo "README.md: no install example (commands with --prefix, then output)"
		return 1
	fi
	rm -rf "$src" "$prefix"
	mkdir -p "$src"
	tar -C "$root" --anchored --exclude='./build*' --exclude=./.git -cf - . |
		tar -C "$src" -xf - || return 1
	cmds=${cmds//"$rprefix"/"$prefix"}
	echo "== in a copy of the tree, with $prefix for $rprefix:"
	echo "$cmds"
	(cd "$src" && bash -e -c "$cmds") >"$work/readme.out" || return 1
	n=$(printf '%s\n' "$want" | wc -l)
	got=$(tail -n "$n" "$work/readme.out")
	echo "== output ends:"
	echo "$got"
	[ "$got" = "$want" ] || { echo "README.md says:"; echo "$want"; return 1; }
}

case ${1:-} in
staged) [ $# = 2 ] && staged "$2" ;;
beside-binutils) [ $# = 2 ] && beside_binutils "$2" ;;
readme) [ $# = 3 ] && readme "$2" "$3" ;;
*) echo "usage: $0 staged WORK | beside-binutils WORK | readme WORK PREFIX" >&2; exit 2 ;;
esac
