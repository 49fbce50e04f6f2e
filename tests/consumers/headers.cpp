/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * The public headers compiled as C++ (g++/clang++ -Wall -Wextra -Werror
 * -pedantic, C++11 and later) and linked against the library: every
 * declaration must have C linkage.
 */
#include <sframe/sframe_env.h>
#include <sframe/sframe_format.h>
#include <sframe/sframe.h>
#include <sframe/sframe_unwind.h>

#include <cstdio>

int main()
{
	static const unsigned char hdr[SFRAME_HDR_SIZE] = { 0 };
	struct sframe_section sec;
	struct sframe_buffer buf;
	struct sframe_module slots[2];
	struct sframe_module_table table;
	int err = sframe_open_buffer(&sec, &buf, hdr, sizeof(hdr), 0);

	sframe_modules_init(&table, slots, 2);
	if (err != -SFRAME_ERR_BAD_MAGIC || sframe_is_read_error(err) ||
	    sframe_modules_add(&table, 0x1000, 0x2000, nullptr, nullptr) != 0 ||
	    sframe_modules_find(&table, 0x1800) != &slots[0]) {
		std::printf("unexpected: %s\n", sframe_errname(err));
		return 1;
	}
	std::printf("ok: %s\n", sframe_strerror(err));
	return 0;
}
