#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause
# The embedders' checks, on a fresh Debian 12 machine (as root, or with sudo):
#   - kernel: the test module (tests/kernel/) built by kbuild against Debian's
#     linux-headers-amd64 with W=1 and objtool, without a single warning; its
#     checks run as a program for every fixture; and the module loaded into
#     that same kernel, booted in qemu-system-x86_64;
#   - foreign hosts: the whole test suite cross-built for s390x (big endian)
#     and aarch64 and run under qemu-user, and built for 32-bit x86 with gcc
#     and with clang -m32 (tests/cross/*.ini), run natively where the kernel
#     runs i386 programs, else under qemu-i386-static;
#   - installing (.ci/install-check.sh): a staged `meson install` holds no
#     file of GNU libsframe's names and exports only the public API;
#     binutils still works with it searched first; README.md's install
#     example, run as written into a fresh prefix;
#   - consumers: a Meson project taking sframe as a subproject, a Makefile
#     project using the installed library through pkg-config, every public
#     header compiled on its own, and all of them as C++;
#   - kernel-doc: the public headers' comments, checked by the kernel's own
#     scripts/kernel-doc (from Debian's linux-source) without a warning.
# Installs what it needs (apt), builds in a temporary folder (kept when
# EMBEDDERS_WORK names one), and prints one line "PASS: <name>" or
# "FAIL: <name>" per check, the failing check's log tail, and exits non-zero
# if any check failed. Set EMBEDDERS_SKIP_QEMU_LOAD=1 to skip the module load.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
root=$PWD
export DEBIAN_FRONTEND=noninteractive
sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"

if [ -n "${EMBEDDERS_WORK:-}" ]; then
	work=$EMBEDDERS_WORK
	mkdir -p "$work"
else
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi
work=$(cd "$work" && pwd)
failed=0
passed=0
t_all=$SECONDS

# check NAME COMMAND...: run COMMAND, output to $work/NAME.log; report it.
check() {
	local name=$1 t0=$SECONDS
	shift
	if "$@" >"$work/$name.log" 2>&1; then
		echo "PASS: $name"
		passed=$((passed + 1))
	else
		echo "FAIL: $name"
		tail -n 40 "$work/$name.log" | sed 's/^/    | /'
		failed=$((failed + 1))
	fi
	echo "    ($((SECONDS - t0))s)"
}

# ---- Packages -------------------------------------------------------------------
# Foreign architectures only for CMocka and its C library (multiarch); the
# compilers are Debian's cross compilers, which bring their own C library.
# (gcc-multilib, for `gcc -m32`, conflicts with them: i686-linux-gnu-gcc and
# clang -m32 build the 32-bit host instead.)
pkgs="meson ninja-build gcc g++ clang make pkg-config python3 binutils libcmocka-dev
linux-headers-amd64 qemu-system-x86 busybox-static
gcc-s390x-linux-gnu libc6-dev-s390x-cross gcc-aarch64-linux-gnu libc6-dev-arm64-cross
gcc-i686-linux-gnu libc6-dev-i386-cross qemu-user-static linux-source perl xz-utils
libcmocka-dev:s390x libcmocka-dev:arm64 libcmocka-dev:i386"

install_packages() {
	local a
	for a in s390x arm64 i386; do
		dpkg --print-foreign-architectures | grep -qx "$a" || $sudo dpkg --add-architecture "$a"
	done
	# A mirror caught mid-sync can fail one index: go on, the install decides.
	$sudo apt-get update -q || echo "apt-get update reported errors; trying the install anyway"
	# shellcheck disable=SC2086
	$sudo apt-get install -y -q --no-install-recommends $pkgs
}
check apt-install install_packages

# ---- Kernel ---------------------------------------------------------------------
# The headers of linux-headers-amd64 (not the running kernel's, which may
# differ and has no headers here).
kver=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 2>/dev/null |
	grep -o 'linux-headers-[^ ,]*-amd64' | head -n 1 | sed 's/^linux-headers-//')
kdir=/usr/src/linux-headers-$kver
kstage=$work/kernel

kernel_module() {
	local log=$work/kernel-build.log objs n_obj n_objtool
	if [ -z "$kver" ] || [ ! -d "$kdir" ]; then
		echo "no linux-headers-amd64 tree"
		return 1
	fi
	echo "KDIR=$kdir"
	rm -rf "$kstage"
	make -C tests/kernel KDIR="$kdir" STAGE="$kstage" 2>&1 | tee "$log" || return 1
	[ -f "$kstage/sframe_test.ko" ] || { echo "no sframe_test.ko"; return 1; }
	# Zero warnings: compiler (W=1), objtool, modpost.
	if grep -E '[Ww]arning:|[Ee]rror:|WARNING|ERROR' "$log"; then
		echo "the kernel build printed the lines above"
		return 1
	fi
	# objtool ran on every object (kbuild records it in the .cmd files).
	objs=$(cd "$kstage" && ls sframe_test_mod.o unwind/sframe_*.o)
	n_obj=$(echo "$objs" | wc -l)
	n_objtool=$(cd "$kstage" && for o in $objs; do
		grep -l 'objtool.*--module' "$(dirname "$o")/.$(basename "$o").cmd"; done | wc -l)
	echo "objects: $n_obj, checked by objtool: $n_objtool"
	[ "$n_obj" -gt 1 ] && [ "$n_obj" -eq "$n_objtool" ]
}
check kernel-module-build kernel_module

kernel_hosted() {
	local combo
	for combo in v1-x86_64 v2-x86_64 v3-x86_64 v1-aarch64 v2-aarch64 v3-aarch64 v3-s390x; do
		make -C tests/kernel hosted STAGE="$work/kernel-hosted" COMBO="$combo" || return 1
	done
}
check kernel-module-hosted kernel_hosted

if [ "${EMBEDDERS_SKIP_QEMU_LOAD:-0}" != 1 ]; then
	check kernel-module-load sh tests/kernel/run-in-qemu.sh "$kstage/sframe_test.ko" "$kver" \
		"$work/qemu"
fi

# ---- Foreign and 32-bit hosts ---------------------------------------------------
# cross NAME WRAPPER [CROSS_FILE]: the whole suite, cross-built with
# tests/cross/NAME.ini (and CROSS_FILE after it, whose entries win).
# WRAPPER (may be empty) runs the `sframe` tool that test_fixtures spawns:
# meson's exe_wrapper only wraps the test programs themselves, and
# binfmt_misc is not available in every sandbox.
cross() {
	local name=$1 wrapper=$2 extra=${3:-} dir=$work/cross-$1
	rm -rf "$dir"
	meson setup --cross-file "tests/cross/$name.ini" ${extra:+--cross-file "$extra"} "$dir" ||
		return 1
	meson compile -C "$dir" || return 1
	SFRAME_TEST_WRAPPER=$wrapper meson test -C "$dir" --print-errorlogs --timeout-multiplier 4
}
check cross-s390x cross s390x qemu-s390x-static
check cross-aarch64 cross aarch64 qemu-aarch64-static

# 32-bit x86 runs natively where the kernel runs i386 programs; some kernels
# refuse them (built without IA32 emulation: "Exec format error"), and then
# the i386 suites run under qemu-i386-static like the foreign hosts, with the
# loader and C library of libc6:i386. Probed once, with a static program.
i386_wrapper=""
i386_how="i386: native"
printf '#include <stdio.h>\nint main(void) { puts("i386 runs"); return 0; }\n' \
	>"$work/i386-probe.c"
if ! i686-linux-gnu-gcc -static -o "$work/i386-probe" "$work/i386-probe.c" \
	>"$work/i386-probe.log" 2>&1; then
	i386_how="i386: native (not probed: the probe did not build, see i386-probe.log)"
elif [ "$("$work/i386-probe" 2>>"$work/i386-probe.log")" != "i386 runs" ]; then
	i386_wrapper=qemu-i386-static
	i386_how="i386: under qemu-i386-static (the kernel refuses i386 programs)"
	# Given after tests/cross/NAME.ini, these entries replace its own.
	printf '%s\n' '# The i386 suites under qemu-user (see .ci/embedders.sh).' \
		'[binaries]' "exe_wrapper = ['$i386_wrapper']" \
		'[properties]' 'needs_exe_wrapper = true' >"$work/i386-qemu.ini"
fi

# host_i386 NAME: cross NAME, natively or under qemu-i386-static (said first
# and last in the log, so that a failing check's tail shows it too).
host_i386() {
	local st
	echo "$i386_how"
	if [ -n "$i386_wrapper" ]; then
		cross "$1" "$i386_wrapper" "$work/i386-qemu.ini"
	else
		cross "$1" ""
	fi
	st=$?
	echo "$i386_how"
	return $st
}
check host-i386-gcc host_i386 i386
check host-i386-clang-m32 host_i386 i386-clang

# ---- Installing -----------------------------------------------------------------
check install-staged bash .ci/install-check.sh staged "$work/install"
check install-beside-binutils bash .ci/install-check.sh beside-binutils "$work/install"
prefix=$work/prefix
check install-readme bash .ci/install-check.sh readme "$work/readme" "$prefix"

# ---- Consumers ------------------------------------------------------------------
consumer_subproject() {
	local dir=$work/consumer-subproject
	rm -rf "$dir"
	mkdir -p "$dir/subprojects"
	cp tests/consumers/subproject/meson.build tests/consumers/consumer.c "$dir/"
	ln -s "$root" "$dir/subprojects/sframe"
	meson setup --force-fallback-for=sframe "$dir/build" "$dir" || return 1
	# Only the consumer and what it needs, not the subproject's own tests.
	meson compile -C "$dir/build" consumer || return 1
	meson test -C "$dir/build" --no-rebuild --suite consumer --print-errorlogs
}
check consumer-subproject consumer_subproject

# These use the library that README.md's install example installed.
pkgconfig_path() {
	find "$prefix" -name sframe-reader.pc -printf '%h\n' 2>/dev/null | head -n 1
}

consumer_pkgconfig() {
	local pcdir
	pcdir=$(pkgconfig_path)
	[ -n "$pcdir" ] || { echo "needs the installed library (install-readme)"; return 1; }
	PKG_CONFIG_PATH=$pcdir pkg-config --cflags --libs sframe-reader
	make -C tests/consumers/pkgconfig PKG_CONFIG_PATH="$pcdir" OUT="$work/pkgconfig-consumer" \
		FIXTURES="$root/fixtures" check
}
check consumer-pkgconfig consumer_pkgconfig

headers_alone() {
	local h cc ok=0
	for h in include/sframe/*.h; do
		for cc in gcc clang; do
			printf '#include <sframe/%s>\ntypedef int header_alone_check;\n' "${h##*/}" |
				$cc -std=c11 -Wall -Wextra -Werror -pedantic -Iinclude -x c -c - -o /dev/null ||
				{ echo "$h alone, $cc: FAILED"; ok=1; }
		done
		for cc in g++ clang++; do
			printf '#include <sframe/%s>\ntypedef int header_alone_check;\n' "${h##*/}" |
				$cc -std=c++11 -Wall -Wextra -Werror -pedantic -Iinclude -x c++ -c - -o /dev/null ||
				{ echo "$h alone, $cc: FAILED"; ok=1; }
		done
	done
	return $ok
}
check headers-alone headers_alone

headers_cxx() {
	local pcdir cxx std
	pcdir=$(pkgconfig_path)
	[ -n "$pcdir" ] || { echo "needs the installed library (install-readme)"; return 1; }
	for cxx in g++ clang++; do
		for std in c++11 c++17 c++20; do
			echo "$cxx -std=$std"
			# shellcheck disable=SC2046
			$cxx -std=$std -Wall -Wextra -Werror -pedantic \
				$(PKG_CONFIG_PATH=$pcdir pkg-config --cflags sframe-reader) \
				-o "$work/headers-cxx" tests/consumers/headers.cpp \
				$(PKG_CONFIG_PATH=$pcdir pkg-config --libs sframe-reader) \
				-Wl,-rpath,"$(PKG_CONFIG_PATH=$pcdir pkg-config --variable=libdir sframe-reader)" &&
				"$work/headers-cxx" || return 1
		done
	done
}
check headers-c++ headers_cxx

# ---- kernel-doc -------------------------------------------------------------------
# The public headers' comments (and src/linux/'s kernel header) through the
# kernel's scripts/kernel-doc, taken
# from Debian's kernel source tarball (a single perl script in 6.1): -v adds
# the check that every function says what it returns, -Werror makes any
# warning (an undocumented member, parameter or enum value) fail. kernel-doc
# checks the blocks there are; every struct, enum, typedef and function the
# headers declare must also have one.
kernel_doc() {
	local tarball kdoc=$work/kernel-doc/scripts/kernel-doc out st documented declared missing
	tarball=$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -n 1)
	[ -n "$tarball" ] || { echo "no /usr/src/linux-source-*.tar.xz (package linux-source)"; return 1; }
	echo "kernel-doc from $tarball"
	rm -rf "$work/kernel-doc"
	mkdir -p "$work/kernel-doc"
	tar -xJf "$tarball" -C "$work/kernel-doc" --strip-components=1 --wildcards \
		'*/scripts/kernel-doc' || return 1
	out=$(perl "$kdoc" -v -none -Werror include/sframe/*.h src/linux/include/linux/*.h 2>&1)
	st=$?
	echo "$out" | grep -v ': info: '
	[ "$st" -eq 0 ] || return 1
	documented=$(echo "$out" | sed -n 's/.*: info: Scanning doc for [a-z]* \([A-Za-z0-9_]*\).*/\1/p' |
		sort -u)
	declared=$(sed -n -E 's/^(struct|enum) ([a-z0-9_]+) \{.*/\2/p
		s/^typedef .*\(\*([a-z0-9_]+)\)\(.*/\1/p
		s/^(static inline )?[a-z].*[ *](sframe_[a-z0-9_]+)\(.*/\2/p' include/sframe/*.h | sort -u)
	missing=$(comm -13 <(echo "$documented") <(echo "$declared"))
	if [ -n "$missing" ]; then
		echo "declared without a kernel-doc comment:"
		echo "$missing"
		return 1
	fi
	echo "$(echo "$declared" | wc -l) declarations, each with a kernel-doc comment"
}
check kernel-doc kernel_doc

echo
echo "embedders: $passed passed, $failed failed ($((SECONDS - t_all))s)"
[ "$failed" -eq 0 ]
