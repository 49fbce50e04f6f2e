/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * The example of sframe_open(3): a section behind a read callback, here
 * pread() on the ELF file itself (a debugger would use ptrace or
 * process_vm_readv, the kernel copy_from_user). Usage: example_callback FILE OFFSET SIZE VADDR PC
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sframe/sframe.h>

static int read_file(void *ctx, uint64_t addr, void *dst, size_t len)
{
	int fd = *(int *)ctx;
	ssize_t n = pread(fd, dst, len, (off_t)addr);

	if (n < 0)
		return -errno;		/* comes back unchanged from sframe_*() */
	return (size_t)n == len ? 0 : -EIO;
}

int main(int argc, char **argv)
{
	struct sframe_section sec;
	struct sframe_row row;
	int fd, err;

	if (argc != 6 || (fd = open(argv[1], O_RDONLY)) < 0)
		return 2;
	err = sframe_open(&sec, read_file, &fd,
			  strtoull(argv[2], NULL, 0),	/* where the bytes are */
			  strtoull(argv[3], NULL, 0),	/* how many */
			  strtoull(argv[4], NULL, 0));	/* the section's address */
	if (!err)
		err = sframe_lookup(&sec, strtoull(argv[5], NULL, 0), &row);
	if (err) {
		printf("%s (%s)\n", sframe_strerror(err), sframe_errname(err));
		close(fd);
		return 1;
	}
	printf("function %#llx+%#x, row +%#x, CFA r%u%+d, RA %s\n",
	       (unsigned long long)row.fde.func_start, row.fde.func_size, row.fre.start,
	       row.rules.cfa.reg, row.rules.cfa.offset,
	       row.rules.ra.kind == SFRAME_LOC_CFA ? "on the stack" : "in a register");
	close(fd);
	return 0;
}
