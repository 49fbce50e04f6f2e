#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause
# The core (the reader, src/core/, the unwinder, src/unwind/, and the
# converter, src/convert/) builds
# with -ffreestanding -nostdlib, includes nothing but the compiler's own
# headers, uses compiler builtins, attributes and asm only through the env
# header, and once linked together references no symbol but
# memcpy/memset/memmove/memcmp (and _GLOBAL_OFFSET_TABLE_, which the linker
# itself defines, for position-independent code on i386). So does the
# reader alone: src/linux/README.md's kernel recipe copies src/core/ only.
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
	"$root"/src/unwind/*.c "$root"/src/unwind/*.h "$root"/src/convert/*.c "$root"/src/convert/*.h \
	"$root"/include/sframe/*.h | grep -v -E '<(stdint|stddef|stdbool|limits)\.h>|<sframe/' || true)
if [ -n "$bad" ]; then
	echo "core includes headers beyond the compiler's own:"; echo "$bad"; fail=1
fi

# Compiler specifics (builtins, attributes, inline asm) only in the env
# header, where an embedder's own header can replace each of them.
bad=$(grep -n -E '__builtin|__attribute__|\basm\b|__asm' "$root"/src/core/*.c "$root"/src/core/*.h \
	"$root"/src/unwind/*.c "$root"/src/unwind/*.h "$root"/src/convert/*.c "$root"/src/convert/*.h \
	"$root"/include/sframe/*.h | grep -v '/include/sframe/sframe_env\.h:' || true)
if [ -n "$bad" ]; then
	echo "compiler specifics outside include/sframe/sframe_env.h:"; echo "$bad"; fail=1
fi

for std in c11 gnu11; do
	for part in core unwind convert; do
		mkdir -p "$tmp/$part.$std"
		for src in "$root/src/$part"/*.c; do
			$cc -std=$std -O2 -ffreestanding -nostdlib -fno-stack-protector -Wall -Wextra -Werror \
				-I"$root/include" -I"$root/src/core" -c "$src" \
				-o "$tmp/$part.$std/$(basename "$src" .c).o"
		done
	done
	"$ld" -r -o "$tmp/reader.$std.o" "$tmp/core.$std"/*.o
	"$ld" -r -o "$tmp/core.$std.o" "$tmp/core.$std"/*.o "$tmp/unwind.$std"/*.o \
		"$tmp/convert.$std"/*.o
	for linked in reader core; do
		undef=$("$nm" -u "$tmp/$linked.$std.o" | awk '{print $NF}' | grep -v -x -E 'memcpy|memset|memmove|memcmp|_GLOBAL_OFFSET_TABLE_' || true)
		if [ -n "$undef" ]; then
			echo "$linked ($std) references symbols outside the allowed set:"; echo "$undef"; fail=1
		fi
	done
done
if [ $fail -eq 0 ]; then echo "freestanding reader and core (with unwinder and converter): ok"; fi
exit $fail
