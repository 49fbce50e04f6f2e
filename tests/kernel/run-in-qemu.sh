#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause
# Load the test module into the very kernel whose headers built it, booted
# in qemu-system-x86_64 (software emulation, no KVM needed) from a busybox
# initramfs whose init runs insmod and prints the module's log.
#
# Usage: run-in-qemu.sh MODULE.ko KVER WORKDIR
#   KVER: the kernel release of the headers, e.g. 6.1.0-56-amd64. The kernel
#   is linux-image-KVER-unsigned at the version of the installed
#   linux-headers-KVER, fetched with `apt-get download` (not installed).
# Needs qemu-system-x86 and busybox-static. Exits 0 when insmod succeeded,
# i.e. every check of the module's init passed.
set -eu
ko=$(readlink -f "$1")
kver=$2
work=$3
mkdir -p "$work"
cd "$work"

if [ ! -s "vmlinuz-$kver" ]; then
	ver=$(dpkg-query -W -f='${Version}' "linux-headers-$kver")
	rm -f linux-image-*.deb
	# _apt cannot write into a private temporary folder: download as is.
	apt-get -q -o APT::Sandbox::User=root download "linux-image-$kver-unsigned=$ver"
	dpkg-deb --fsys-tarfile linux-image-"$kver"-unsigned_*.deb |
		tar -xO "./boot/vmlinuz-$kver" >"vmlinuz-$kver.tmp"
	mv "vmlinuz-$kver.tmp" "vmlinuz-$kver"
	rm -f linux-image-*.deb
fi

rm -rf initramfs
mkdir -p initramfs/bin initramfs/proc initramfs/sys initramfs/dev
cp "$(command -v busybox)" initramfs/bin/busybox
cp "$ko" initramfs/sframe_test.ko
cat >initramfs/init <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
echo "SFRAME-TEST: kernel $(uname -r)"
if insmod /sframe_test.ko; then
	echo "SFRAME-TEST: insmod ok"
	rmmod sframe_test
else
	echo "SFRAME-TEST: insmod failed"
fi
dmesg | grep 'sframe_test:' | sed 's/^/SFRAME-TEST: /'
poweroff -f
EOF
chmod +x initramfs/init
(cd initramfs && find . | busybox cpio -o -H newc 2>/dev/null) | gzip -1 >initramfs.gz

timeout 600 qemu-system-x86_64 -accel tcg -m 512 -smp 1 -nographic -no-reboot \
	-kernel "vmlinuz-$kver" -initrd initramfs.gz \
	-append "console=ttyS0 panic=-1 loglevel=3" </dev/null >console.log 2>&1 || true
grep -a 'SFRAME-TEST:' console.log | tr -d '\r' || true
grep -a -q 'SFRAME-TEST: kernel '"$kver" console.log &&
	grep -a -q 'SFRAME-TEST: insmod ok' console.log &&
	grep -a -q 'sframe_test: all checks passed' console.log
