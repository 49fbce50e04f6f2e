/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * The example of README.md, "The library in a page": a section in memory.
 * Prints the CFA rule of each PC given on the command line. Usage:
 * example_buffer RAW.sframe VADDR PC... (built and run by the test suite, so
 * the example cannot rot).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sframe/sframe.h>

int main(int argc, char **argv)
{
	static unsigned char data[1 << 20];
	struct sframe_section sec;
	struct sframe_buffer buf;
	struct sframe_row row;
	size_t size;
	FILE *f;
	int i, err, status = 0;

	if (argc < 3 || !(f = fopen(argv[1], "rb")))
		return 2;
	size = fread(data, 1, sizeof(data), f);
	fclose(f);

	err = sframe_open_buffer(&sec, &buf, data, size, strtoull(argv[2], NULL, 16));
	if (err) {
		fprintf(stderr, "%s: %s\n", argv[1], sframe_strerror(err));
		return 1;
	}
	for (i = 3; i < argc; i++) {
		uint64_t pc = strtoull(argv[i], NULL, 16);

		err = sframe_lookup(&sec, pc, &row);
		if (err == -SFRAME_ERR_NOT_FOUND) {
			printf("%#llx: no SFrame data\n", (unsigned long long)pc);
		} else if (err) {
			printf("%#llx: %s\n", (unsigned long long)pc, sframe_strerror(err));
			status = 1;
		} else if (row.rules.ra_undefined) {
			printf("%#llx: outermost frame\n", (unsigned long long)pc);
		} else {
			printf("%#llx: in function %#llx, CFA = r%u%+d\n", (unsigned long long)pc,
			       (unsigned long long)row.fde.func_start, row.rules.cfa.reg,
			       row.rules.cfa.offset);
		}
	}
	return status;
}
