/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * proc_maps.c - the code mapped into a live process, as modules for the
 * unwinder: /proc/PID/maps, the mapped ELF files (each loaded once), their
 * load biases and SFrame sections.
 */
#include "read/proc_maps.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#ifdef SYS_openat2
#include <linux/openat2.h>
#endif

#include "target/unwind_target.h"

#define DELETED_SUFFIX " (deleted)"

/* Where distributions install separate debug files. */
#ifndef SF_DEBUG_DIR
#define SF_DEBUG_DIR "/usr/lib/debug"
#endif

/* ---- /proc/PID/maps ---------------------------------------------------- */

static int parse_line(char *line, struct sf_map *m)
{
	size_t len = strlen(line);
	int pos = 0;
	char *path;

	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		line[--len] = '\0';
	memset(m, 0, sizeof(*m));
	if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %15s %" SCNu64 "%n",
		   &m->start, &m->end, m->perms, &m->offset, m->dev, &m->inode, &pos) != 6 ||
	    pos <= 0 || m->end < m->start)
		return -1;
	path = line + pos;
	while (*path == ' ' || *path == '\t')
		path++;
	m->path = strdup(path);
	return m->path ? 0 : -ENOMEM;
}

static int read_maps_file(const char *name, struct sf_maps *maps, char *err, size_t errlen)
{
	char *line = NULL;
	size_t cap = 0, alloc = 0;
	FILE *f;
	int ret = 0;

	memset(maps, 0, sizeof(*maps));
	f = fopen(name, "re");
	if (!f) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", name, strerror(errno));
		return ret;
	}
	while (getline(&line, &cap, f) > 0) {
		struct sf_map m;
		int r;

		r = parse_line(line, &m);
		if (r == -1)
			continue;	/* not a mapping line: ignore */
		if (r < 0) {
			ret = r;
			break;
		}
		if (maps->n == alloc) {
			size_t nalloc = alloc ? alloc * 2 : 64;
			struct sf_map *nv = realloc(maps->v, nalloc * sizeof(*nv));

			if (!nv) {
				free(m.path);
				ret = -ENOMEM;
				break;
			}
			maps->v = nv;
			alloc = nalloc;
		}
		maps->v[maps->n++] = m;
	}
	if (!ret && ferror(f))
		ret = -EIO;
	free(line);
	fclose(f);
	if (ret) {
		snprintf(err, errlen, "%s: %s", name, strerror(-ret));
		sf_maps_free(maps);
	}
	return ret;
}

int sf_maps_read(pid_t pid, struct sf_maps *maps, char *err, size_t errlen)
{
	char name[96];
	struct dirent *de;
	DIR *d;
	int ret;

	snprintf(name, sizeof(name), "/proc/%ld/maps", (long)pid);
	ret = read_maps_file(name, maps, err, errlen);
	if (ret || maps->n)
		return ret;
	/*
	 * Empty: the main thread has exited (pthread_exit()) and is a zombie
	 * without memory; the other threads still have it.
	 */
	snprintf(name, sizeof(name), "/proc/%ld/task", (long)pid);
	d = opendir(name);
	if (!d)
		return 0;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9' || strlen(de->d_name) > 20)
			continue;
		/* At most 20 digits (checked above): the precision says so to gcc -O0. */
		snprintf(name, sizeof(name), "/proc/%ld/task/%.20s/maps", (long)pid, de->d_name);
		if (read_maps_file(name, maps, err, errlen) == 0 && maps->n)
			break;
		sf_maps_free(maps);
	}
	closedir(d);
	return 0;
}

void sf_maps_free(struct sf_maps *maps)
{
	size_t i;

	for (i = 0; i < maps->n; i++)
		free(maps->v[i].path);
	free(maps->v);
	memset(maps, 0, sizeof(*maps));
}

/* An executable mapping the unwinder gets a module for. */
static bool is_code(const struct sf_map *m)
{
	return m->perms[0] && m->perms[1] && m->perms[2] == 'x' &&
	       (m->path[0] == '/' || strcmp(m->path, "[vdso]") == 0);
}

bool sf_maps_same_code(const struct sf_maps *a, const struct sf_maps *b)
{
	size_t i = 0, j = 0;

	for (;;) {
		while (i < a->n && !is_code(&a->v[i]))
			i++;
		while (j < b->n && !is_code(&b->v[j]))
			j++;
		if (i == a->n || j == b->n)
			return i == a->n && j == b->n;
		if (a->v[i].start != b->v[j].start || a->v[i].end != b->v[j].end ||
		    a->v[i].offset != b->v[j].offset || a->v[i].inode != b->v[j].inode ||
		    strcmp(a->v[i].dev, b->v[j].dev) != 0 || strcmp(a->v[i].path, b->v[j].path) != 0)
			return false;
		i++;
		j++;
	}
}

/* ---- Files and images -------------------------------------------------------- */

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

int sf_proc_file_open(struct sf_proc_file *f, const char *open_path)
{
	char err[512];
	int r;

	/* Why an earlier path failed no longer holds. */
	f->why[0] = '\0';
	r = sf_input_load(open_path, 0, 0, &f->in, err, sizeof(err));
	if (r == SF_INPUT_OK && !f->in.is_rel && f->in.how && strcmp(f->in.how, "raw") != 0) {
		f->loaded = true;
		return 0;
	}
	if (r == SF_INPUT_OK) {
		sf_input_free(&f->in);
		snprintf(f->why, sizeof(f->why), "not a linked ELF file");
	} else if (r == SF_INPUT_EIO) {
		snprintf(f->why, sizeof(f->why), "%.200s", err);
		return -1;
	} else {
		/* "PATH: message": keep the message. */
		const char *msg = strstr(err, ": ");

		snprintf(f->why, sizeof(f->why), "%.200s", msg ? msg + 2 : err);
	}
	if (sf_input_bytes(open_path, &f->in, err, sizeof(err)) != SF_INPUT_OK)
		return -1;
	f->loaded = true;
	return 0;
}

/* The [vdso] is an ELF image in memory: copy it out, load it through a memfd. */
static void load_vdso(struct sf_proc_file *f, const struct sf_map *m, sframe_read_fn read_mem,
		      void *mem_ctx)
{
	size_t len = (size_t)(m->end - m->start);
	unsigned char *bytes;
	char path[64];
	int fd, r;

	if (len == 0 || len > (64u << 20) || !read_mem) {
		snprintf(f->why, sizeof(f->why), "cannot read the vDSO");
		return;
	}
	bytes = malloc(len);
	if (!bytes)
		return;
	r = read_mem(mem_ctx, m->start, bytes, len);
	if (r) {
		snprintf(f->why, sizeof(f->why), "cannot read the vDSO: %s",
			 r > -4096 ? strerror(-r) : sframe_strerror(r));
		free(bytes);
		return;
	}
	fd = memfd_create("sframe-vdso", MFD_CLOEXEC);
	if (fd >= 0 && write(fd, bytes, len) == (ssize_t)len) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		if (sf_proc_file_open(f, path) == 0) {
			close(fd);
			free(bytes);
			return;
		}
	}
	if (fd >= 0)
		close(fd);
	memset(&f->in, 0, sizeof(f->in));
	f->in.file = bytes;
	f->in.file_size = len;
	f->loaded = true;
}

/* What sf_proc_modules_build() loads a live process's files with. */
struct live_ctx {
	pid_t pid;
	sframe_read_fn read_mem;
	void *mem_ctx;
	int root_fd;	/* /proc/PID/root (O_PATH) in another mount namespace, else -1 */
};

/* ---- Paths inside another process's root ------------------------------------ */

/* Symbolic links followed in one path, as the kernel's limit (MAXSYMLINKS). */
#define MAX_LINKS 40

/* An O_PATH descriptor of the directory @dir (a path under @root_fd, no links). */
static int reopen_dir(int root_fd, const char *dir)
{
	char buf[PATH_MAX], *name, *save = NULL;
	int fd = fcntl(root_fd, F_DUPFD_CLOEXEC, 0);

	snprintf(buf, sizeof(buf), "%s", dir);
	for (name = strtok_r(buf, "/", &save); fd >= 0 && name; name = strtok_r(NULL, "/", &save)) {
		int next = openat(fd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

		close(fd);
		fd = next;
	}
	return fd;
}

/*
 * Where walk_in_root() is: the directory reached (@fd) and its path from
 * the root (@dir, @dirlen bytes), the path still to walk (@rest), the
 * links followed so far.
 */
struct root_walk {
	int root_fd;
	int fd;
	char rest[2 * PATH_MAX + 2];
	char dir[PATH_MAX];
	size_t dirlen;
	int links;
};

/* "." stays; ".." goes up @w->dir (never above the root) and walks it again from the root. */
static void walk_up(struct root_walk *w, size_t len)
{
	char *slash;

	if (len != 2)
		return;
	slash = strrchr(w->dir, '/');
	w->dirlen = slash ? (size_t)(slash - w->dir) : 0;
	w->dir[w->dirlen] = '\0';
	close(w->fd);
	w->fd = reopen_dir(w->root_fd, w->dir);
}

/*
 * Component @name of @w->fd opened without following it, and its status:
 * the O_PATH descriptor, or -1 with errno set and @w->fd closed.
 */
static int walk_open(struct root_walk *w, const char *name, struct stat *st)
{
	int next = openat(w->fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);

	if (next < 0 || fstat(next, st) != 0) {
		int e = errno;

		if (next >= 0)
			close(next);
		close(w->fd);
		errno = e;
		return -1;
	}
	return next;
}

/*
 * The link @next (closed here) read and spliced before @after, the path
 * left behind it, from the root again when it is absolute. Return: 0, or
 * -1 with errno set and @w->fd closed.
 */
static int walk_link(struct root_walk *w, int next, const char *after)
{
	char target[PATH_MAX];
	ssize_t n = readlinkat(next, "", target, sizeof(target));

	close(next);
	if (n < 0 || (size_t)n >= sizeof(target) || ++w->links > MAX_LINKS ||
	    (size_t)n + 1 + strlen(after) >= sizeof(w->rest)) {
		int e = n < 0 ? errno : w->links > MAX_LINKS ? ELOOP : ENAMETOOLONG;

		close(w->fd);
		errno = e;
		return -1;
	}
	/* TARGET/AFTER: AFTER moves up to its place behind TARGET. */
	memmove(w->rest + n + 1, after, strlen(after) + 1);
	memcpy(w->rest, target, (size_t)n);
	w->rest[n] = '/';
	if (target[0] == '/') {
		w->dirlen = 0;
		w->dir[0] = '\0';
		close(w->fd);
		w->fd = fcntl(w->root_fd, F_DUPFD_CLOEXEC, 0);
	}
	return 0;
}

/* Down into the directory @name (@len bytes, now @w->fd); @after is left to walk. */
static void walk_down(struct root_walk *w, const char *name, size_t len, const char *after)
{
	w->dir[w->dirlen++] = '/';
	memcpy(w->dir + w->dirlen, name, len + 1);
	w->dirlen += len;
	memmove(w->rest, after, strlen(after) + 1);
}

/*
 * RESOLVE_IN_ROOT by hand, for kernels before 5.6: one component at a time
 * with O_NOFOLLOW, ".." never above the root, each symbolic link read and
 * spliced into what is left of the path (an absolute one from the root
 * again), so that every step stays under @root_fd. A directory renamed
 * meanwhile can make ".." land elsewhere, but never outside the root: the
 * directories walked so far are walked again from the root, and none of
 * them may be a link.
 */
static int walk_in_root(int root_fd, const char *path)
{
	struct root_walk w;

	if (strlen(path) >= sizeof(w.rest)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	snprintf(w.rest, sizeof(w.rest), "%s", path);
	w.root_fd = root_fd;
	w.dir[0] = '\0';
	w.dirlen = 0;
	w.links = 0;
	w.fd = fcntl(root_fd, F_DUPFD_CLOEXEC, 0);
	while (w.fd >= 0) {
		char *name = w.rest + strspn(w.rest, "/"), *end = strchr(name, '/');
		size_t len = end ? (size_t)(end - name) : strlen(name);
		const char *after = end ? end + strspn(end, "/") : name + len;
		struct stat st;
		int next;

		if (len == 0)
			return w.fd;	/* "/" or a path ending in "/" names a directory */
		if (len >= NAME_MAX + 1 || w.dirlen + 1 + len >= sizeof(w.dir)) {
			close(w.fd);
			errno = ENAMETOOLONG;
			return -1;
		}
		if ((len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.')) {
			walk_up(&w, len);
			memmove(w.rest, after, strlen(after) + 1);
			continue;
		}
		name[len] = '\0';
		next = walk_open(&w, name, &st);
		if (next < 0)
			return -1;
		if (S_ISLNK(st.st_mode)) {
			if (walk_link(&w, next, after))
				return -1;
			continue;
		}
		close(w.fd);
		w.fd = next;
		if (!*after)
			return w.fd;
		if (!S_ISDIR(st.st_mode)) {
			close(w.fd);
			errno = ENOTDIR;
			return -1;
		}
		walk_down(&w, name, len, after);
	}
	return -1;
}

/*
 * An O_PATH descriptor of @path resolved inside the root @root_fd: an
 * absolute link or ".." planted in a container ends at the container's own
 * root, never at ours (a plain open of /proc/PID/root/PATH would follow an
 * absolute link from our root).
 */
static int open_in_root(int root_fd, const char *path)
{
#ifdef SYS_openat2
	struct open_how how;
	int tries;

	memset(&how, 0, sizeof(how));
	how.flags = O_PATH | O_CLOEXEC;
	how.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS;
	/* EAGAIN: a rename or mount raced with the lookup; try again. */
	for (tries = 0; tries < 8; tries++) {
		long fd = syscall(SYS_openat2, root_fd, path, &how, sizeof(how));

		if (fd >= 0)
			return (int)fd;
		if (errno != EAGAIN)
			break;
	}
	if (errno != ENOSYS)
		return -1;
#endif
	return walk_in_root(root_fd, path);
}

/*
 * Open the mapped file by its path: inside the process's root @root_fd, or
 * in ours when it shares it (@root_fd -1); only a regular file with the
 * device and inode the mapping names is loaded (through /proc/self/fd, so
 * that the loader reads what was checked).
 */
static void open_mapped(struct sf_proc_file *f, const struct sf_map *m, pid_t pid, int root_fd)
{
	unsigned int major_m, minor_m;
	char path[64], where[64];
	struct stat st;
	int fd;

	where[0] = '\0';
	if (root_fd >= 0) {
		snprintf(where, sizeof(where), " in /proc/%ld/root", (long)pid);
		fd = open_in_root(root_fd, m->path);
	} else {
		fd = open(m->path, O_PATH | O_CLOEXEC);
	}
	if (fd < 0 || fstat(fd, &st) != 0) {
		snprintf(f->why, sizeof(f->why), "cannot open it%s: %s", where, strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	if (!S_ISREG(st.st_mode) || sscanf(m->dev, "%x:%x", &major_m, &minor_m) != 2 ||
	    major(st.st_dev) != major_m || minor(st.st_dev) != minor_m ||
	    (uint64_t)st.st_ino != m->inode) {
		snprintf(f->why, sizeof(f->why),
			 "the file at its path%s is not the mapped one (device %02x:%02x inode %ju, "
			 "mapped: device %s inode %" PRIu64 ")", where, major(st.st_dev),
			 minor(st.st_dev), (uintmax_t)st.st_ino, m->dev, m->inode);
		close(fd);
		return;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	sf_proc_file_open(f, path);
	close(fd);
}

/* The loader of sf_proc_modules_build(): @ctx is a struct live_ctx. */
static void load_live_file(struct sf_proc_file *f, const struct sf_map *m, void *ctx)
{
	const struct live_ctx *live = ctx;
	bool deleted = ends_with(m->path, DELETED_SUFFIX);
	char path[4200];

	if (strcmp(m->path, "[vdso]") == 0) {
		load_vdso(f, m, live->read_mem, live->mem_ctx);
		return;
	}
	/*
	 * The mapped file itself (the same inode even when deleted or
	 * replaced; needs CAP_SYS_ADMIN or CAP_CHECKPOINT_RESTORE), else the
	 * path, inside the process's root when it is in another mount namespace.
	 */
	snprintf(path, sizeof(path), "/proc/%ld/map_files/%" PRIx64 "-%" PRIx64, (long)live->pid,
		 m->start, m->end);
	if (sf_proc_file_open(f, path) == 0 || deleted)
		return;
	open_mapped(f, m, live->pid, live->root_fd);
}

/*
 * /proc/PID/root when the process is in another mount namespace (a
 * container), with @note saying so; else -1. Maps paths are printed
 * relative to the reader's root when its namespace reaches the file, so a
 * chroot in our namespace has them in our terms: they are opened in ours.
 * In another namespace they are relative to that namespace's root, the
 * process's root unless it is chrooted there too (then only map_files
 * finds its files). A process whose namespace cannot be read is taken as
 * ours: ptrace needs the same access, and the command fails there.
 */
static int foreign_root(pid_t pid, char *note, size_t notelen)
{
	struct stat theirs, ours;
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/%ld/ns/mnt", (long)pid);
	if (stat(path, &theirs) != 0 || stat("/proc/self/ns/mnt", &ours) != 0 ||
	    (theirs.st_dev == ours.st_dev && theirs.st_ino == ours.st_ino))
		return -1;
	snprintf(path, sizeof(path), "/proc/%ld/root", (long)pid);
	fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0)
		snprintf(note, notelen, "/proc/%ld/root (the mount namespace of process %ld)",
			 (long)pid, (long)pid);
	return fd;
}

/*
 * A stripped file keeps only its dynamic symbols; distributions ship the
 * others in a separate debug file named by the build id
 * (/usr/lib/debug/.build-id/NN/REST.debug), which debuggers and perf read
 * too. Use its symbols when it is there, belongs to the file, and has them.
 */
static void load_debug_symbols(const struct sf_image_set *set, struct sf_proc_file *f)
{
	char path[PATH_MAX + 2 * SF_BUILD_ID_MAX + 32], h[2 * SF_BUILD_ID_MAX + 1], err[512];
	const unsigned char *id, *dbg_id;
	struct sf_elf_info info;
	size_t len, dbg_len;

	if (f->info.has_symtab || !sf_elf_build_id(f->in.file, f->in.file_size, &id, &len) ||
	    len < 2)
		return;
	sf_build_id_hex(h, id, len);
	snprintf(path, sizeof(path), "%.*s/.build-id/%.2s/%s.debug", PATH_MAX,
		 set->debug_dir ? set->debug_dir : SF_DEBUG_DIR, h, h + 2);
	if (access(path, R_OK) != 0 || sf_input_bytes(path, &f->debug, err, sizeof(err)))
		return;
	if (sf_elf_build_id(f->debug.file, f->debug.file_size, &dbg_id, &dbg_len) &&
	    dbg_len == len && memcmp(dbg_id, id, len) == 0 &&
	    sf_elf_info_load_names(&f->debug, &info, set->names, err, sizeof(err)) == 0) {
		if (info.has_symtab && info.nsyms) {
			/* Its symbols; the segments stay the file's (a debug
			 * file's program headers need not give file offsets). */
			memcpy(info.text, f->info.text, sizeof(info.text));
			info.ntext = f->info.ntext;
			sf_elf_info_free(&f->info);
			f->info = info;
			return;
		}
		sf_elf_info_free(&info);
	}
	sf_input_free(&f->debug);
}

static struct sf_proc_file *get_file(struct sf_image_set *set, const struct sf_map *m,
				     sf_file_loader load, void *ctx)
{
	struct sf_proc_file *f, **nv;
	size_t i;

	for (i = 0; i < set->nfiles; i++) {
		f = set->files[i];
		if (f->inode == m->inode && strcmp(f->dev, m->dev) == 0 &&
		    strcmp(f->key_path, m->path) == 0)
			return f;
	}
	nv = realloc(set->files, (set->nfiles + 1) * sizeof(*nv));
	if (!nv)
		return NULL;
	set->files = nv;
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->key_path = strdup(m->path);
	if (!f->key_path) {
		free(f);
		return NULL;
	}
	f->inode = m->inode;
	snprintf(f->dev, sizeof(f->dev), "%s", m->dev);
	set->files[set->nfiles++] = f;
	load(f, m, ctx);
	if (f->loaded && sf_input_is_elf(&f->in)) {
		char err[512];

		/* A file without SFrame of its own: a side-car's, or a conversion's. */
		if (!f->in.sec || !f->in.sec_size) {
			if (sf_sframe_find(set->sframe_opts, &f->in, f->key_path, set->convert_later,
					   &f->found))
				f->why[0] = '\0';
			else if (f->found.why[0])
				snprintf(f->why, sizeof(f->why), "%s", f->found.why);
		} else {
			f->found.from = SF_SFRAME_OWN;
		}

		if (sf_elf_info_load_names(&f->in, &f->info, set->names, err, sizeof(err)) &&
		    !f->why[0])
			snprintf(f->why, sizeof(f->why), "%.200s", err);
		else
			load_debug_symbols(set, f);
	}
	return f;
}

static int open_parts(struct sf_image_set *set, struct sf_proc_image *img, bool seen);

static struct sf_proc_image *get_image(struct sf_image_set *set, struct sf_proc_file *f,
				       uint64_t bias, bool known)
{
	struct sf_proc_image *img, **nv;
	size_t i;
	bool seen = false;

	for (i = 0; i < set->nimages; i++) {
		if (set->images[i]->file == f && set->images[i]->bias == bias &&
		    set->images[i]->bias_known == known)
			return set->images[i];
		seen |= set->images[i]->file == f;
	}
	nv = realloc(set->images, (set->nimages + 1) * sizeof(*nv));
	if (!nv)
		return NULL;
	set->images = nv;
	img = calloc(1, sizeof(*img));
	if (!img)
		return NULL;
	img->file = f;
	img->bias = bias;
	img->bias_known = known;
	set->images[set->nimages++] = img;
	/* The image stays in the list: sf_image_set_free() frees it. */
	return open_parts(set, img, seen) ? NULL : img;
}

/*
 * The image's section, at its run-time address, when its file has one for
 * the set's ABI; @seen: the file has other images (its warnings are out).
 * Return: 0, or -1 when out of memory.
 */
static int open_parts(struct sf_image_set *set, struct sf_proc_image *img, bool seen)
{
	struct sf_proc_file *f = img->file;
	int r;

	if (!img->bias_known || !f->in.sec || img->has_sec)
		return 0;
	r = sf_parts_open(&img->parts, f->in.sec, f->in.sec_size, f->in.vaddr + img->bias);
	if (r == -ENOMEM) {
		return -1;
	} else if (r == -SFRAME_ERR_EMPTY) {
		snprintf(f->why, sizeof(f->why), "empty .sframe %s (no SFrame data)", f->in.how);
	} else if (r) {
		snprintf(f->why, sizeof(f->why), "SFrame section: %s (%s)", sframe_strerror(r),
			 sframe_errname(r));
	} else if (img->parts.sec[0].abi != set->abi) {
		snprintf(f->why, sizeof(f->why), "an SFrame section for %s in a process on %s",
			 sf_abi_name(img->parts.sec[0].abi), sf_abi_name(set->abi));
	} else {
		img->has_sec = true;
		/* Once per file, however often it is mapped. */
		if (!seen)
			sf_parts_warn(&img->parts, f->key_path, set->cmd);
		if (f->found.supplement &&
		    sf_parts_supplement(&img->parts, f->found.supplement, f->found.supplement_len,
					f->found.supplement_vaddr + img->bias) == -ENOMEM)
			return -1;
	}
	return 0;
}

/* Room for @more modules in the table (a section of several parts). */
static int grow_table(struct sf_proc_modules *pm, size_t more)
{
	struct sframe_module *ns;
	size_t cap = pm->table.capacity;

	if (more == 0)
		return 0;
	if (more > UINT32_MAX - cap)
		return -1;
	ns = realloc(pm->slots, (cap + more) * sizeof(*ns));
	if (!ns)
		return -1;
	/* The table keeps its entries, in the moved array. */
	pm->slots = ns;
	pm->table.slots = ns;
	pm->table.capacity = (uint32_t)(cap + more);
	return 0;
}

/*
 * The table from the code mappings kept in @pm: a module per mapping, or,
 * for a section of several parts, per range of a part's functions in it.
 */
static int fill_table(struct sf_proc_modules *pm)
{
	struct sf_range *ranges = NULL;
	size_t i, j, nranges;

	free(pm->slots);
	pm->slots = calloc(pm->ncode ? pm->ncode : 1, sizeof(*pm->slots));
	if (!pm->slots || pm->ncode > UINT32_MAX)
		return -1;
	memset(&pm->table, 0, sizeof(pm->table));
	sframe_modules_init(&pm->table, pm->slots, (uint32_t)pm->ncode);
	for (i = 0; i < pm->ncode; i++) {
		const struct sf_code_range *c = &pm->code[i];

		if (!c->img->has_sec) {
			/* Mappings never overlap; a failure only loses this range. */
			(void)sframe_modules_add(&pm->table, c->start, c->end, NULL, c->img);
			continue;
		}
		if (sf_parts_ranges(&c->img->parts, c->start, c->end, &ranges, &nranges) ||
		    grow_table(pm, nranges - 1)) {
			free(ranges);
			return -1;
		}
		for (j = 0; j < nranges; j++)
			(void)sframe_modules_add(&pm->table, ranges[j].start, ranges[j].end,
						 ranges[j].sec, c->img);
		free(ranges);
		ranges = NULL;
	}
	return 0;
}

int sf_proc_modules_build_in(struct sf_image_set *set, const struct sf_maps *maps,
			     sf_file_loader load, void *ctx, struct sf_proc_modules *pm,
			     char *err, size_t errlen)
{
	size_t i, count = 0;

	memset(pm, 0, sizeof(*pm));
	pm->abi = set->abi;
	pm->set = set;
	for (i = 0; i < maps->n; i++)
		count += is_code(&maps->v[i]);
	pm->code = calloc(count ? count : 1, sizeof(*pm->code));
	if (!pm->code)
		goto oom;
	for (i = 0; i < maps->n; i++) {
		const struct sf_map *m = &maps->v[i];
		struct sf_proc_image *img;
		struct sf_proc_file *f;
		uint64_t bias = 0;
		bool known;

		if (!is_code(m))
			continue;
		f = get_file(set, m, load, ctx);
		if (!f)
			goto oom;
		known = f->loaded && sf_elf_load_bias(f->in.file, f->in.file_size, m->start,
						      m->offset, &bias);
		if (!known) {
			/* Unknown file or layout: a module without SFrame or symbols. */
			bias = 0;
			if (f->loaded && !f->why[0])
				snprintf(f->why, sizeof(f->why), "no PT_LOAD maps offset 0x%" PRIx64,
					 m->offset);
		}
		img = get_image(set, f, bias, known);
		if (!img)
			goto oom;
		pm->code[pm->ncode++] = (struct sf_code_range){ m->start, m->end, img };
	}
	if (fill_table(pm))
		goto oom;
	return 0;

oom:
	snprintf(err, errlen, "out of memory");
	return -1;
}

/*
 * A file with a section of its own that lacks @pc: its function from
 * .eh_frame, into the file's supplement (unless --no-convert). As
 * sf_sframe_supplement_pc() returns.
 */
static int supplement_at(const struct sf_image_set *set, const struct sf_proc_image *img,
			 uint64_t pc)
{
	const struct sframe_section *sec;
	struct sframe_row row;

	if ((set->sframe_opts && set->sframe_opts->no_convert) || !img->has_sec ||
	    sf_parts_lookup(&img->parts, pc, &row, &sec) != -SFRAME_ERR_NOT_FOUND)
		return 0;
	/* A v3 function without rows describes its PCs (an outermost frame). */
	if (row.fde.index != SFRAME_NO_INDEX)
		return 0;
	return sf_sframe_supplement_pc(&img->file->in, img->file->key_path, &img->file->found,
				       pc - img->bias);
}

int sf_proc_modules_convert_at(struct sf_proc_modules *pm, uint64_t pc)
{
	const struct sf_proc_image *at = sf_proc_image_at(pm, pc);
	struct sf_image_set *set = pm->set;
	struct sf_proc_file *f;
	bool seen = false;
	size_t i;
	int r;

	if (!at || !at->bias_known)
		return 0;
	f = at->file;
	if (f->found.from == SF_SFRAME_OWN) {
		r = supplement_at(set, at, pc);
		if (r <= 0)
			return r;
	} else if (!f->found.pending && !f->found.by_function) {
		return 0;
	} else {
		r = sf_sframe_convert_pc(&f->in, f->key_path, &f->found, pc - at->bias);
	}
	if (r <= 0) {
		if (f->found.from == SF_SFRAME_NONE && f->found.why[0])
			snprintf(f->why, sizeof(f->why), "%s", f->found.why);
		return r;
	}
	f->why[0] = '\0';
	/*
	 * The section's bytes are new: every image of the file opens them
	 * again; what its own section's parts had to say was said at the first
	 * opening.
	 */
	seen = f->found.from == SF_SFRAME_OWN;
	for (i = 0; i < set->nimages; i++) {
		struct sf_proc_image *img = set->images[i];

		if (img->file != f)
			continue;
		sf_parts_free(&img->parts);
		img->has_sec = false;
		if (open_parts(set, img, seen))
			return -1;
		seen = true;
	}
	return fill_table(pm) ? -1 : 1;
}

int sf_proc_modules_build(pid_t pid, const struct sf_maps *maps, uint8_t abi,
			  const struct sf_sframe_opts *opts, sframe_read_fn read_mem, void *mem_ctx, struct sf_proc_modules *pm,
			  char *err, size_t errlen)
{
	struct live_ctx live = { pid, read_mem, mem_ctx, -1 };
	struct sf_image_set *set = calloc(1, sizeof(*set));
	char note[sizeof(pm->root)] = "";
	int r;

	if (!set) {
		memset(pm, 0, sizeof(*pm));
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	set->abi = abi;
	set->cmd = "stack";
	set->sframe_opts = opts;
	/* A stack reaches a few of the mapped files: convert only those. */
	set->convert_later = true;
	live.root_fd = foreign_root(pid, note, sizeof(note));
	r = sf_proc_modules_build_in(set, maps, load_live_file, &live, pm, err, errlen);
	if (live.root_fd >= 0)
		close(live.root_fd);
	pm->own_set = true;
	memcpy(pm->root, note, sizeof(note));
	return r;
}

void sf_image_set_free(struct sf_image_set *set)
{
	size_t i;

	for (i = 0; i < set->nimages; i++) {
		sf_parts_free(&set->images[i]->parts);
		free(set->images[i]);
	}
	for (i = 0; i < set->nfiles; i++) {
		sf_elf_info_free(&set->files[i]->info);
		sf_input_free(&set->files[i]->in);
		/* After @in, whose section may be inside it. */
		sf_sframe_found_free(&set->files[i]->found);
		sf_input_free(&set->files[i]->debug);
		free(set->files[i]->key_path);
		free(set->files[i]);
	}
	free(set->images);
	free(set->files);
	set->images = NULL;
	set->files = NULL;
	set->nimages = 0;
	set->nfiles = 0;
}

void sf_image_set_report(const struct sf_image_set *set, FILE *out, const char *prog)
{
	size_t i;

	for (i = 0; i < set->nfiles; i++)
		sf_sframe_found_report(out, prog, set->files[i]->key_path, &set->files[i]->found);
}

void sf_proc_modules_free(struct sf_proc_modules *pm)
{
	if (pm->own_set && pm->set) {
		sf_image_set_free(pm->set);
		free(pm->set);
	}
	free(pm->slots);
	free(pm->code);
	memset(pm, 0, sizeof(*pm));
}

const struct sf_proc_image *sf_proc_image_at(const struct sf_proc_modules *pm, uint64_t addr)
{
	const struct sframe_module *m = sframe_modules_find(&pm->table, addr);

	return m ? m->user : NULL;
}

void sf_proc_file_load_memory(struct sf_proc_file *f, const struct sf_map *m,
			      sframe_read_fn read_mem, void *mem_ctx)
{
	load_vdso(f, m, read_mem, mem_ctx);
}
