/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * cmd_core.c - "sframe stack --core CORE [--exe EXE] [--sysroot DIR]": the
 * stacks of a core file's threads, printed as for a live process
 * (out/stack_print.c) but for the first line, "PID N - core", as eu-stack --core
 * prints it.
 *
 * The mapped files are those of the NT_FILE note, read from their paths
 * (DIR/PATH with --sysroot; EXE for the main executable with --exe). A
 * mapping's permissions are not in the note: they are the p_flags of the
 * core's PT_LOAD segment of the mapping, else (gcore leaves read-only file
 * mappings out) those of the file's own PT_LOAD segment that it maps. The
 * kernel (and gcore) dump the first page of a mapped ELF file: where the
 * core holds it, its build id must be the file's, else the file is a
 * different one (rebuilt, upgraded) and is not used. The vDSO is read from
 * the core's memory (AT_SYSINFO_EHDR gives its address). A core without
 * NT_FILE (qemu-user's) maps only --exe, where AT_PHDR places it.
 */
#include <elf.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd_core.h"
#include "out/stack_print.h"
#include "read/core_file.h"
#include "read/proc_maps.h"
#include "tool_cli.h"
#include "target/unwind_target.h"

/**
 * struct core_run - a core and what was loaded for it.
 * @core: the core.
 * @exe: --exe, or NULL.
 * @exe_name: the core's name of the main executable, or NULL.
 * @exe_abs: --exe's absolute path, its name in a core without NT_FILE
 *	(allocated), or NULL.
 * @sysroot: --sysroot, or NULL.
 * @set: the files read.
 * @maps: the core's mappings, as /proc/PID/maps would give them.
 */
struct core_run {
	struct sf_core core;
	const char *exe;
	const char *exe_name;
	char *exe_abs;
	const char *sysroot;
	struct sf_image_set set;
	struct sf_maps maps;
};

/* Where the core's file @name is read. */
static const char *open_path(const struct core_run *run, const char *name, char *buf,
			     size_t len)
{
	if (run->exe && run->exe_name && strcmp(name, run->exe_name) == 0)
		return run->exe;
	if (!run->sysroot)
		return name;
	if ((size_t)snprintf(buf, len, "%s%s%s", run->sysroot, name[0] == '/' ? "" : "/", name) >=
	    len)
		return name;
	return buf;
}

/*
 * The main executable: the mapping named as the command (pr_fname holds
 * the first 15 bytes of its file name), else the first one.
 */
static const char *main_executable(const struct sf_core *c)
{
	size_t i, n = strlen(c->fname);

	for (i = 0; i < c->nmaps && n; i++) {
		const char *base = strrchr(c->maps[i].name, '/');

		base = base ? base + 1 : c->maps[i].name;
		if (strncmp(base, c->fname, n) == 0)
			return c->maps[i].name;
	}
	return c->nmaps ? c->maps[0].name : NULL;
}

/*
 * The core's copy of the first page of the file @name (its mapping at file
 * offset 0): its bytes there, 0 when the core does not hold it.
 */
static size_t first_page(const struct sf_core *c, const char *name, const unsigned char **p)
{
	size_t i, n;

	for (i = 0; i < c->nmaps; i++) {
		if (c->maps[i].offset != 0 || strcmp(c->maps[i].name, name) != 0)
			continue;
		n = sf_core_dumped(c, c->maps[i].start, p);
		return n < c->maps[i].end - c->maps[i].start ? n
							      : (size_t)(c->maps[i].end - c->maps[i].start);
	}
	return 0;
}

/* The build id in the core's copy of @name's first page, when it is there. */
static bool dumped_build_id(const struct sf_core *c, const char *name, const unsigned char **id,
			    size_t *len)
{
	const unsigned char *p;
	size_t n = first_page(c, name, &p);

	return n && sf_elf_build_id(p, n, id, len);
}

/* A file that is not the one the core mapped describes other code: unload it. */
static void compare_build_id(const struct core_run *run, struct sf_proc_file *f, const char *name,
			     const char *read_path)
{
	char dumped[2 * SF_BUILD_ID_MAX + 1], found[2 * SF_BUILD_ID_MAX + 1] = "none";
	const unsigned char *want, *have;
	size_t want_len, have_len = 0;

	if (!f->loaded || !dumped_build_id(&run->core, name, &want, &want_len))
		return;
	if (sf_elf_build_id(f->in.file, f->in.file_size, &have, &have_len)) {
		if (have_len == want_len && memcmp(have, want, want_len) == 0)
			return;
		sf_build_id_hex(found, have, have_len);
	}
	sf_build_id_hex(dumped, want, want_len);
	sf_input_free(&f->in);
	f->loaded = false;
	snprintf(f->why, sizeof(f->why), "%.100s is not the file the core mapped (build id %.40s, "
		 "in the core %.40s)", read_path, found, dumped);
}

/* The loader of sf_proc_modules_build_in(): @ctx is the struct core_run. */
static void load_core_file(struct sf_proc_file *f, const struct sf_map *m, void *ctx)
{
	struct core_run *run = ctx;
	char buf[PATH_MAX + 256];
	const char *path;

	if (strcmp(m->path, "[vdso]") == 0) {
		sf_proc_file_load_memory(f, m, sf_core_read, &run->core);
		return;
	}
	path = open_path(run, m->path, buf, sizeof(buf));
	if (sf_proc_file_open(f, path) == 0)
		compare_build_id(run, f, m->path, path);
}

/*
 * p_flags of the PT_LOAD segment of the ELF file @file that a mapping at
 * file offset @offset maps (its file range, rounded down to the page); 0
 * when there is none. @file may be the file's first page only.
 */
static uint32_t segment_flags(const unsigned char *file, size_t size, uint64_t offset,
			      uint64_t page)
{
	struct sf_elf_phdrs ph;
	struct sf_elf_segment s;
	char err[256];
	uint64_t i;

	if (sf_elf_phdrs_read(file, size, &ph, err, sizeof(err)))
		return 0;
	for (i = 0; i < ph.phnum; i++) {
		sf_elf_segment_get(file, &ph, i, &s);
		if (s.type == PT_LOAD && offset >= (s.offset & ~(page - 1)) &&
		    s.offset <= UINT64_MAX - s.filesz && offset < s.offset + s.filesz)
			return s.flags;
	}
	return 0;
}

/*
 * The permissions of mapping @m, which no segment of the core covers
 * (gcore leaves read-only file mappings out): those of the file's segment
 * it maps, from the core's copy of the file's first page, else from the
 * file. When neither can be read, it is taken for code: a frame in it is
 * then said to be in a file that could not be read, and why.
 */
static uint32_t mapping_flags(const struct core_run *run, const struct sf_core_mapping *m)
{
	const struct sf_core *c = &run->core;
	const unsigned char *p;
	char buf[PATH_MAX + 256], err[512];
	struct sf_input in;
	uint32_t flags = 0;
	size_t n;

	n = first_page(c, m->name, &p);
	if (n)
		flags = segment_flags(p, n, m->offset, c->page_size);
	if (!flags &&
	    sf_input_bytes(open_path(run, m->name, buf, sizeof(buf)), &in, err, sizeof(err)) ==
		    SF_INPUT_OK) {
		flags = segment_flags(in.file, in.file_size, m->offset, c->page_size);
		sf_input_free(&in);
		return flags;
	}
	return flags ? flags : PF_R | PF_X;
}

static int add_map(struct sf_maps *maps, uint64_t start, uint64_t end, uint64_t offset,
		   uint32_t flags, const char *path)
{
	struct sf_map *nv = realloc(maps->v, (maps->n + 1) * sizeof(*nv)), *m;

	if (!nv)
		return -1;
	maps->v = nv;
	m = &maps->v[maps->n];
	memset(m, 0, sizeof(*m));
	m->start = start;
	m->end = end;
	m->offset = offset;
	snprintf(m->perms, sizeof(m->perms), "%c%c%cp", flags & PF_R ? 'r' : '-',
		 flags & PF_W ? 'w' : '-', flags & PF_X ? 'x' : '-');
	m->path = strdup(path);
	if (!m->path)
		return -1;
	maps->n++;
	return 0;
}

/*
 * A core without NT_FILE (qemu-user writes none): the main executable EXE
 * alone, where the auxiliary vector says its program headers are
 * (AT_PHDR): each of its PT_LOAD segments at its address plus the bias.
 */
static int exe_maps(struct core_run *run)
{
	const struct sf_core *c = &run->core;
	uint64_t at_phdr, page = 4096, phdr_vaddr = 0, bias, i;
	struct sf_elf_segment s;
	struct sf_elf_phdrs ph;
	struct sf_input in;
	char err[512];
	bool found = false;
	int r = 0;

	if (!sf_core_auxv(c, AT_PHDR, &at_phdr) ||
	    sf_input_bytes(run->exe, &in, err, sizeof(err)) != SF_INPUT_OK)
		return 0;
	if (sf_core_auxv(c, AT_PAGESZ, &page) && (page == 0 || (page & (page - 1))))
		page = 4096;
	if (sf_elf_phdrs_read(in.file, in.file_size, &ph, err, sizeof(err)))
		goto out;
	/* The program headers' address: PT_PHDR's, else in the segment mapping offset 0. */
	for (i = 0; i < ph.phnum && !found; i++) {
		sf_elf_segment_get(in.file, &ph, i, &s);
		if (s.type == PT_PHDR) {
			phdr_vaddr = s.vaddr;
			found = true;
		}
	}
	for (i = 0; i < ph.phnum && !found; i++) {
		sf_elf_segment_get(in.file, &ph, i, &s);
		if (s.type == PT_LOAD && s.offset == 0) {
			phdr_vaddr = s.vaddr + ph.phoff;
			found = true;
		}
	}
	if (!found)
		goto out;
	bias = at_phdr - phdr_vaddr;
	/* Modules are files named by absolute paths. */
	run->exe_abs = realpath(run->exe, NULL);
	if (!run->exe_abs) {
		r = -1;
		goto out;
	}
	run->exe_name = run->exe_abs;
	for (i = 0; i < ph.phnum && r == 0; i++) {
		uint64_t start, end;

		sf_elf_segment_get(in.file, &ph, i, &s);
		if (s.type != PT_LOAD || s.filesz == 0 || s.filesz > UINT64_MAX - page ||
		    s.vaddr > UINT64_MAX - s.filesz - page)
			continue;
		start = (s.vaddr + bias) & ~(page - 1);
		end = (s.vaddr + bias + s.filesz + page - 1) & ~(page - 1);
		r = add_map(&run->maps, start, end, s.offset & ~(page - 1), s.flags, run->exe_abs);
	}
out:
	sf_input_free(&in);
	return r;
}

/* The core's mappings: its mapped files, and the vDSO when the core holds it. */
static int build_maps(struct core_run *run)
{
	const struct sf_core *c = &run->core;
	const struct sf_core_segment *s;
	uint64_t vdso;
	size_t i;

	for (i = 0; i < c->nmaps; i++) {
		const struct sf_core_mapping *m = &c->maps[i];
		uint32_t flags;

		s = sf_core_segment_at(c, m->start);
		flags = s ? s->flags : mapping_flags(run, m);
		if (add_map(&run->maps, m->start, m->end, m->offset, flags, m->name))
			return -1;
	}
	if (c->nmaps == 0 && run->exe && exe_maps(run))
		return -1;
	if (sf_core_auxv(c, AT_SYSINFO_EHDR, &vdso) && vdso) {
		s = sf_core_segment_at(c, vdso);
		if (s && add_map(&run->maps, vdso, s->vaddr + s->memsz, 0, s->flags, "[vdso]"))
			return -1;
	}
	return 0;
}

/* Memory the core left out is read from the files, where they were loaded. */
static void lend_files(struct core_run *run)
{
	size_t i, j;

	for (i = 0; i < run->core.nmaps; i++) {
		struct sf_core_mapping *m = &run->core.maps[i];

		for (j = 0; j < run->set.nfiles; j++) {
			const struct sf_proc_file *f = run->set.files[j];

			if (f->loaded && strcmp(f->key_path, m->name) == 0) {
				m->file = f->in.file;
				m->file_size = f->in.file_size;
				break;
			}
		}
	}
}

int sf_stack_core(const char *core, const char *exe, const char *sysroot, bool fp_fallback,
		  const struct sf_sframe_opts *opts)
{
	struct core_run run;
	struct sf_proc_modules pm;
	char err[640];
	int status = SF_EXIT_OK, r;
	size_t i;

	memset(&run, 0, sizeof(run));
	memset(&pm, 0, sizeof(pm));
	run.exe = exe;
	run.sysroot = sysroot;
	r = sf_core_open(core, &run.core, err, sizeof(err));
	if (r) {
		fprintf(stderr, "sframe: stack: %s\n", err);
		status = r == SF_CORE_EIO ? SF_EXIT_USAGE : SF_EXIT_BAD;
		goto done;
	}
	run.exe_name = main_executable(&run.core);
	run.set.abi = run.core.abi;
	run.set.cmd = "stack";
	run.set.sframe_opts = opts;
	run.set.convert_later = true;
	if (build_maps(&run) ||
	    sf_proc_modules_build_in(&run.set, &run.maps, load_core_file, &run, &pm, err,
				     sizeof(err))) {
		fprintf(stderr, "sframe: stack: out of memory\n");
		status = SF_EXIT_USAGE;
		goto done;
	}
	if (exe && !run.exe_name)
		fprintf(stderr, "sframe: stack: %s names no mapped file, and gives no AT_PHDR to "
			"place %s at: it is not used\n", core, exe);
	for (i = 0; i < run.set.nfiles; i++) {
		const struct sf_proc_file *f = run.set.files[i];

		if (!f->loaded)
			fprintf(stderr, "sframe: stack: %s: not used: %s\n", f->key_path, f->why);
	}
	lend_files(&run);

	printf("PID %ld - core\n", (long)run.core.pid);
	for (i = 0; i < run.core.nthreads; i++) {
		struct sf_core_thread *t = &run.core.threads[i];

		printf("TID %ld:\n", (long)t->tid);
		sf_stack_print_walk(stdout, &pm, &t->regs, sf_core_read, &run.core, fp_fallback);
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "sframe: write error on standard output\n");
		status = SF_EXIT_USAGE;
	} else {
		sf_image_set_report(&run.set, stderr, "sframe: stack");
	}
done:
	sf_proc_modules_free(&pm);
	sf_image_set_free(&run.set);
	sf_maps_free(&run.maps);
	sf_core_free(&run.core);
	free(run.exe_abs);
	return status;
}
