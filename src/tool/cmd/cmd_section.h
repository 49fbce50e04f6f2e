/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * cmd_section.h - "sframe dump", "sframe lookup" and "sframe check": the
 * commands on one file's SFrame section.
 */
#ifndef SFRAME_TOOL_CMD_SECTION_H
#define SFRAME_TOOL_CMD_SECTION_H

#include <stdbool.h>
#include <stdint.h>

/* Their help texts. */
extern const char sf_dump_usage[];
extern const char sf_lookup_usage[];
extern const char sf_check_usage[];

/* What the tool's main parsed for them. */
struct sf_section_args {
	const char *file;
	bool have_vaddr;	/* --vaddr given: the section's run-time address */
	uint64_t vaddr;
	char **pcs;		/* lookup's PCs (none: standard input) */
	int npcs;
};

/* Each returns the exit status. */
int sf_cmd_dump(const struct sf_section_args *a);
int sf_cmd_lookup(const struct sf_section_args *a);
int sf_cmd_check(const struct sf_section_args *a);

#endif /* SFRAME_TOOL_CMD_SECTION_H */
