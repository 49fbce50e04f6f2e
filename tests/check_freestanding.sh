#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause
# The core builds with -ffreestanding -nostdlib, includes nothing but the
# compiler's own headers, uses compiler builtins, attributes and asm only
# through the env header, and once linked together references no symbol but
# memcpy/memset/memmove/memcmp (and _GLOBAL_OFFSET_TABLE_, which the linker
# itself defines, for position-independent code on i386).
# Usage: check_freestanding.sh CC SOURCE_ROOT
set -eu
cc=$1
root=$2
# The linker and nm that go with $cc (a cross compiler's own, not the host's).
ld=$($cc -print-prog-name=ld)
nm=$($cc -print-prog-name=nm)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

bad=$(grep -h '^[[:space:]]*#[[:space:]]*include[[:space:]]*<' "$root"/src/core/*.c "$root"/src/core/*.h \
	"$root"/include/sframe/*.h | grep -v -E '<(stdint|stddef|stdbool|limits)\.h>|<sframe/' || true)
if [ -n "$bad" ]; then
	echo "core includes headers beyond the compiler's own:"; echo "$bad"; fail=1
fi

# Compiler specifics (builtins, attributes, inline asm) only in the env
# header, where an embedder's own header can replace each of them.
bad=$(grep -n -E '__builtin|__attribute__|\basm\b|__asm' "$root"/src/core/*.c "$root"/src/core/*.h \
	"$root"/include/sframe/*.h | grep -v '/include/sframe/sframe_env\.h:' || true)
if [ -n "$bad" ]; then
	echo "compiler specifics outside include/sframe/sframe_env.h:"; echo "$bad"; fail=1
fi

for std in c11 gnu11; do
	for src in "$root"/src/core/*.c; do
		obj="$tmp/$(basename "$src" .c).$std.o"
		$cc -std=$std -O2 -ffreestanding -nostdlib -fno-stack-protector -Wall -Wextra -Werror \
			-I"$root/include" -I"$root/src/core" -c "$src" -o "$obj"
	done
	"$ld" -r -o "$tmp/core.$std.o" "$tmp"/*.$std.o
	undef=$("$nm" -u "$tmp/core.$std.o" | awk '{print $NF}' | grep -v -x -E 'memcpy|memset|memmove|memcmp|_GLOBAL_OFFSET_TABLE_' || true)
	if [ -n "$undef" ]; then
		echo "core ($std) references symbols outside the allowed set:"; echo "$undef"; fail=1
	fi
done
if [ $fail -eq 0 ]; then echo "freestanding core: ok"; fi
exit $fail
