#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause
# The copies "sframe convert --elf" made, as binutils reads them: the root's
# own objdump (Debian sid's binutils) dumps each one's .sframe section, and
# its dump, from the line "Contents of the SFrame section .sframe:" on, must
# be byte for byte what "sframe dump" prints of the same file.
#
# Usage: check-objdump.sh ROOT SFRAME FILE...
#   ROOT    the Debian root whose objdump is used (chroot)
#   SFRAME  the sframe tool
#   FILE    paths inside ROOT
# Last line: "objdump-sframe: N/M files dumped alike (VERSION)".
set -uo pipefail
if [ $# -lt 3 ]; then
	echo "usage: $0 ROOT SFRAME FILE..." >&2
	exit 2
fi
root=$1
sframe=$2
shift 2
version=$(chroot "$root" objdump --version | head -n 1)
same=0
total=0
for f in "$@"; do
	total=$((total + 1))
	theirs=$(chroot "$root" objdump --sframe=.sframe "$f" 2>&1 |
		sed -n '/^Contents of the SFrame section .sframe:/,$p')
	ours=$("$sframe" dump "$root$f" 2>&1)
	if [ -n "$theirs" ] && [ "$theirs" = "$ours" ]; then
		same=$((same + 1))
		echo "  $f: $(grep -c 'func idx' <<<"$ours") functions dumped alike"
	else
		echo "  $f: objdump and sframe dump differ:"
		diff <(printf '%s\n' "$theirs") <(printf '%s\n' "$ours") | head -20
	fi
done
echo "objdump-sframe: $same/$total files dumped alike ($version)"
[ "$same" = "$total" ]
