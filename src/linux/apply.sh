#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause
#
# apply.sh KTREE: add SFrame user-stack unwinding to a Linux 7.2 source tree.
#
# Copies, as src/linux/README.md's vendoring recipe says, the reader unchanged
# (src/core/ to kernel/unwind/, the format/API headers to
# kernel/unwind/sframe/), then this folder's kernel-side files (the kernel
# environment header kernel/unwind/sframe_env_kernel.h, the adapter
# kernel/unwind/sframe_user.c and include/linux/unwind_user_sframe.h), then applies patches/ to the
# kernel's existing files (those patches are GPL-2.0, as the files they
# change). Enable it afterwards with
#   scripts/config -e UNWIND_USER_SFRAME && make olddefconfig
set -eu

usage() {
	echo "usage: $0 KTREE   (a Linux 7.2 source tree)" >&2
	exit 2
}
case ${1:-} in -h|--help|"") usage ;; esac
[ $# -eq 1 ] || usage
k=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

if [ ! -f "$k/kernel/unwind/user.c" ]; then
	echo "$0: $k: no kernel/unwind/user.c: not a Linux 7.2 tree" >&2
	exit 1
fi
if [ -e "$k/kernel/unwind/sframe_user.c" ]; then
	echo "$0: $k: already has kernel/unwind/sframe_user.c" >&2
	exit 1
fi
# All patches must apply before anything changes (they touch distinct files).
for p in "$here"/patches/*.patch; do
	if ! patch -d "$k" -p1 --forward --dry-run --quiet <"$p" >/dev/null; then
		echo "$0: $(basename "$p") does not apply to $k" >&2
		exit 1
	fi
done
for p in "$here"/patches/*.patch; do
	patch -d "$k" -p1 --forward --quiet <"$p"
done

mkdir -p "$k/kernel/unwind/sframe"
cp "$root"/src/core/*.c "$root"/src/core/*.h "$k/kernel/unwind/"
cp "$root/include/sframe/sframe.h" "$root/include/sframe/sframe_format.h" \
   "$root/include/sframe/sframe_env.h" "$k/kernel/unwind/sframe/"
cp "$here/kernel/unwind/sframe_env_kernel.h" "$here/kernel/unwind/sframe_user.c" \
   "$k/kernel/unwind/"
cp "$here/include/linux/unwind_user_sframe.h" "$k/include/linux/"
echo "apply.sh: $k: SFrame user unwinding added; enable CONFIG_UNWIND_USER_SFRAME"
