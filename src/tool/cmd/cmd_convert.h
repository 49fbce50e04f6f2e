/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * cmd_convert.h - "sframe convert FILE -o OUT": an SFrame section made of
 * FILE's DWARF call-frame information, written to a side-car ELF file.
 */
#ifndef SFRAME_TOOL_CMD_CONVERT_H
#define SFRAME_TOOL_CMD_CONVERT_H

/* Its help text. */
extern const char sf_convert_usage[];

/* argv[0] is "convert". Returns the exit status. */
int sf_cmd_convert(int argc, char **argv);

#endif /* SFRAME_TOOL_CMD_CONVERT_H */
