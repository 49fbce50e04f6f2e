/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * core_file.h - an ELF core file of a Linux process, as the kernel and gdb's
 * gcore write it: its memory (the PT_LOAD segments), its threads and their
 * registers (NT_PRSTATUS), its command name (NT_PRPSINFO), its mapped files
 * (NT_FILE) and its auxiliary vector (NT_AUXV) (hosted tool).
 *
 * 64-bit cores of x86_64, aarch64 and s390x, in either byte order, whatever
 * the host. Every field is decoded from the core's bytes at its documented
 * offset; every offset and size is checked against the file first.
 */
#ifndef SFRAME_TOOL_CORE_FILE_H
#define SFRAME_TOOL_CORE_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "read/elf_input.h"
#include "target/ptrace_target.h"

/* Failures of sf_core_open() and sf_core_open_bytes(). */
#define SF_CORE_EIO	(-1)	/* the file cannot be read (or memory ran out) */
#define SF_CORE_EFORMAT	(-2)	/* not a core this reader knows, or a corrupt one */

/**
 * struct sf_core_segment - a PT_LOAD segment: memory of the process.
 * @vaddr: p_vaddr, its first address.
 * @memsz: p_memsz, its size in memory.
 * @offset: p_offset, where its dumped bytes lie in the core.
 * @filesz: p_filesz, how many bytes were dumped (the rest were not: the
 *	kernel and gcore leave out pages that can be read from the files).
 * @flags: p_flags (PF_R, PF_W, PF_X): the mapping's permissions.
 */
struct sf_core_segment {
	uint64_t vaddr;
	uint64_t memsz;
	uint64_t offset;
	uint64_t filesz;
	uint32_t flags;
};

/**
 * struct sf_core_thread - a thread, from its NT_PRSTATUS note.
 * @tid: pr_pid (a thread's id).
 * @signo: pr_cursig, the signal it was stopped by (0 for none).
 * @regs: its registers, as the unwinder numbers them (sf_arch_get_reg()
 *	reads them).
 */
struct sf_core_thread {
	int32_t tid;
	int signo;
	struct sf_arch_regs regs;
};

/**
 * struct sf_core_mapping - a mapped file, from the NT_FILE note.
 * @start: its first address.
 * @end: the first address after it.
 * @offset: the file offset of @start, in bytes.
 * @name: the file's path, NUL-terminated, inside the core.
 * @file: the file's bytes, set by the caller once it has read them (see
 *	sf_core_read()); NULL until then.
 * @file_size: their number.
 */
struct sf_core_mapping {
	uint64_t start;
	uint64_t end;
	uint64_t offset;
	const char *name;
	const unsigned char *file;
	size_t file_size;
};

/**
 * struct sf_core - an opened core file.
 * @in: the core's bytes when sf_core_open() read them (owned).
 * @data: the core's bytes.
 * @size: their number.
 * @be: the core is big-endian.
 * @machine: e_machine.
 * @abi: the SFrame ABI of its processes.
 * @segs: the PT_LOAD segments, sorted by address (they do not overlap).
 * @nsegs: their number.
 * @threads: the threads, in note order (the one that got the signal first).
 * @nthreads: their number (at least 1).
 * @maps: the mapped files, in note order (by address).
 * @nmaps: their number (0 without an NT_FILE note).
 * @page_size: NT_FILE's page size (0 without the note).
 * @has_psinfo: there is an NT_PRPSINFO note.
 * @pid: its pr_pid, else the first thread's id.
 * @fname: its pr_fname (the command's name, at most 15 bytes), or "".
 * @psargs: its pr_psargs (the start of the command line), or "".
 * @auxv: the NT_AUXV note's bytes, or NULL.
 * @auxv_len: their number (a multiple of 16).
 */
struct sf_core {
	struct sf_input in;
	const unsigned char *data;
	size_t size;
	bool be;
	uint16_t machine;
	uint8_t abi;
	struct sf_core_segment *segs;
	size_t nsegs;
	struct sf_core_thread *threads;
	size_t nthreads;
	struct sf_core_mapping *maps;
	size_t nmaps;
	uint64_t page_size;
	bool has_psinfo;
	int32_t pid;
	char fname[17];
	char psargs[81];
	const unsigned char *auxv;
	size_t auxv_len;
};

/**
 * sf_core_open() - read and decode the core file @path.
 * @path: the core.
 * @c: filled on success; free with sf_core_free() (also after a failure).
 * @err: "PATH: message" on failure; a corrupt core's message names the
 *	offset at fault.
 * @errlen: its size.
 *
 * Return: 0, SF_CORE_EIO or SF_CORE_EFORMAT.
 */
int sf_core_open(const char *path, struct sf_core *c, char *err, size_t errlen);

/**
 * sf_core_open_bytes() - sf_core_open() over bytes in memory, which must
 * outlive @c (they are not copied).
 *
 * Return: 0, SF_CORE_EIO (out of memory) or SF_CORE_EFORMAT; @err has
 * the message, without a path.
 */
int sf_core_open_bytes(const unsigned char *data, size_t size, struct sf_core *c, char *err,
		       size_t errlen);

/** sf_core_free() - release what @c holds; @c is zeroed. */
void sf_core_free(struct sf_core *c);

/**
 * sf_core_auxv() - the value of auxiliary vector entry @type (AT_*).
 * Return: true when the core's NT_AUXV has it.
 */
bool sf_core_auxv(const struct sf_core *c, uint64_t type, uint64_t *value);

/**
 * sf_core_segment_at() - the PT_LOAD segment whose memory holds @addr.
 * Return: the segment, or NULL.
 */
const struct sf_core_segment *sf_core_segment_at(const struct sf_core *c, uint64_t addr);

/**
 * sf_core_dumped() - the bytes the core holds from @addr on, up to the end
 * of the dumped part of its segment.
 * @c: the core.
 * @addr: an address.
 * @p: set to the byte of @addr, inside the core.
 *
 * Return: their number; 0 when the core holds no byte of @addr.
 */
size_t sf_core_dumped(const struct sf_core *c, uint64_t addr, const unsigned char **p);

/**
 * sf_core_read() - sframe_read_fn over the process's memory: the bytes the
 * core holds, else those of the mapped file (NT_FILE) once the caller has
 * set its &struct sf_core_mapping.file.
 * @ctx: the struct sf_core.
 * @addr: the first address.
 * @dst: where the bytes go.
 * @len: their number (any).
 *
 * Return: 0, or -EFAULT when a byte is in neither (the memory read failed).
 */
int sf_core_read(void *ctx, uint64_t addr, void *dst, size_t len);

#endif /* SFRAME_TOOL_CORE_FILE_H */
