/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * A program that uses the library the way an outside project does: through
 * the installed headers (<sframe/...>) and the library found by Meson
 * (subproject/) or pkg-config (pkgconfig/, and README.md's install example).
 *
 * Usage: consumer SECTION_FILE VADDR PC EXPECTED_FUNC_START
 * Opens the raw section, validates it, looks up PC and checks that the
 * function found starts at EXPECTED_FUNC_START; also walks one frame through
 * the unwinder API. Prints "ok" and exits 0 on success.
 */
#include <stdio.h>
#include <stdlib.h>

#include <sframe/sframe.h>
#include <sframe/sframe_unwind.h>

static unsigned char data[1 << 20];

int main(int argc, char **argv)
{
	struct sframe_section sec;
	struct sframe_buffer buf;
	struct sframe_row row;
	struct sframe_module slot;
	struct sframe_module_table table;
	unsigned long long vaddr, pc, want;
	size_t size;
	FILE *f;
	int err;

	if (argc != 5) {
		fprintf(stderr, "usage: %s SECTION VADDR PC FUNC_START\n", argv[0]);
		return 2;
	}
	vaddr = strtoull(argv[2], NULL, 16);
	pc = strtoull(argv[3], NULL, 16);
	want = strtoull(argv[4], NULL, 16);
	f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 2;
	}
	size = fread(data, 1, sizeof(data), f);
	fclose(f);

	err = sframe_open_buffer(&sec, &buf, data, size, vaddr);
	if (!err)
		err = sframe_check(&sec, NULL);
	if (!err)
		err = sframe_lookup(&sec, pc, &row);
	if (err) {
		fprintf(stderr, "%s: %s (%s)\n", argv[1], sframe_strerror(err), sframe_errname(err));
		return 1;
	}
	if (row.fde.func_start != want) {
		fprintf(stderr, "0x%llx: function at 0x%llx, expected 0x%llx\n", pc,
			(unsigned long long)row.fde.func_start, want);
		return 1;
	}
	sframe_modules_init(&table, &slot, 1);
	err = sframe_modules_add(&table, row.fde.func_start, row.fde.func_start + row.fde.func_size,
				 &sec, NULL);
	if (err || sframe_modules_find(&table, pc) != &slot) {
		fprintf(stderr, "module table: %s\n", sframe_strerror(err));
		return 1;
	}
	printf("ok: 0x%llx in function 0x%llx, CFA = r%u%+d\n", pc, want, row.rules.cfa.reg,
	       (int)row.rules.cfa.offset);
	return 0;
}
