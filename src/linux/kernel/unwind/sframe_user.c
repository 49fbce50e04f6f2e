// SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause
/*
 * SFrame method of the user-space unwinder.
 *
 * The reader (the sframe_*.c files beside this one and sframe/) is vendored
 * unchanged; this file finds a PC's section and turns the reader's row into
 * the frame description that kernel/unwind/user.c applies.
 *
 * Finding sections needs nothing from the program or its C library. A PC's
 * module is the file behind its executable mapping; the ELF and program
 * headers are read from that file, and since PT_GNU_SFRAME lies inside a
 * PT_LOAD, the section itself is read in place from the process's memory
 * with faulting user reads. What was found (a section, none, or a corrupt
 * one) is kept in a small per-mm table keyed by the file and the address its
 * offset 0 is mapped at. An entry goes when any mapping of its file is
 * removed (munmap, mremap, exit) and with the mm (exec starts a new one).
 * The table holds no reference on the file: removal runs while the mapping
 * still holds one, so a stored pointer never outlives its file.
 *
 * Locking: lookups and insertions run under mmap_lock (read) and the table's
 * spinlock; removal runs under mmap_lock too (write, or downgraded after the
 * mapping left the tree), and an insertion re-checks the mapping first, so
 * no entry is added for a mapping already gone. No lock is held while the
 * section is read, since reads may fault.
 *
 * Each section gets a lookup index (sframe_index_build(): about 4 bytes per
 * function, kmalloc'd) when it is found, so that a lookup reads a few FDEs
 * instead of binary-searching all of them; the reads are the reader's own
 * inline user reads (SFRAME_READ_HOOK in sframe_env_kernel.h). A lookup
 * copies the section out of the table and runs unlocked, while removal or
 * eviction may drop the entry: so the index is refcounted. The table holds
 * one reference; a lookup takes another under the table's spinlock, with
 * the copy, and puts it when done; whoever puts the last one frees it.
 * kfree() is safe under the spinlock, where removal and eviction put theirs.
 * The knob "index" (default on) decides whether indexes are built and used;
 * one that cannot be built (no memory, FDEs out of order) means lookups
 * without it, as with the knob off. The build reads every FDE's start and
 * refuses starts that decrease, the one property the index relies on, so
 * sections are not validated whole (sframe_check() reads every FRE). The
 * section is the process's memory, though, which it may rewrite after the
 * index was built: a lookup may then settle on another FDE than one
 * without the index would, but reads nothing outside the section or the
 * index, and user.c checks each frame as always.
 *
 * A profiled program's walks pass the same few return addresses again and
 * again, so each mm also remembers the frames it described (the memo:
 * callers' frame descriptions, "outermost", or "no SFrame row: other
 * methods", by return address). The topmost frame's PC is the sampled
 * instruction, seldom the same twice but mostly inside the same few rows
 * (a function's body is one row after its prologue), so for it the memo
 * keeps the row's span: the PCs around it that the function's row covers
 * (sframe_lookup()'s span), cut to the mapping it was found in and, since
 * functions may nest, to the next function's start, which only sorted
 * sections give (unsorted ones keep no spans); in a file mapping without a
 * section, the whole mapping. A walk asks the memo first, without a lock
 * (a sequence count; writers hold the table's spinlock): no mmap_lock, no
 * VMA, no section copy, no user read. The memo is never trusted across a
 * removal: removing any file mapping (munmap, mremap, exit) or finding a
 * section corrupt empties it and advances its generation, and a frame is
 * remembered only if the generation is still the one seen when its section
 * was found in the table, so that no description made before a removal is
 * added after it. "No SFrame here" is remembered for a file's mapping (a
 * library without a section, a function without a row), not for memory
 * without a file (a JIT's may be replaced without a file mapping's
 * removal). A program that rewrites its own section after a walk keeps the
 * walks of the section as it was; user.c checks every frame as always. The
 * knob "cache" (default on) decides whether the memo is used.
 */
#include <linux/elf.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/mmap_lock.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/seqlock.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/unwind_user.h>
#include <linux/unwind_user_sframe.h>

#include "sframe/sframe.h"

#ifndef PT_GNU_SFRAME
#define PT_GNU_SFRAME		(PT_LOOS + 0x474e554)
#endif

/* What this kernel can unwind: native 64-bit tasks of its own ABI. */
#define SFRAME_USER_MACHINE	EM_X86_64
#define SFRAME_USER_ABI		SFRAME_ABI_AMD64_LE

/* Modules remembered per mm; when full, the least recently used goes. */
#define SFRAME_MM_MODULES	16
/* Program headers read per module; real programs have about a dozen. */
#define SFRAME_MAX_PHDRS	64
/* Callers' frames remembered per mm, in pairs (a PC has two slots). */
#define SFRAME_MM_RULES		128
/* Topmost frames' rows remembered per mm, by span: replaced in turn, asked newest first. */
#define SFRAME_MM_SPANS		16

/* Runtime switch, e.g. to compare with the frame-pointer walk. */
static bool enabled = true;
module_param(enabled, bool, 0644);

/* Build and use lookup indexes; off, e.g. to compare. */
static bool use_index = true;
module_param_named(index, use_index, bool, 0644);

/* Remember each mm's frame descriptions (the rule memo); off, e.g. to compare. */
static bool use_cache = true;
module_param_named(cache, use_cache, bool, 0644);

enum sframe_mod_state {
	SFRAME_MOD_FREE,
	SFRAME_MOD_NONE,	/* no usable section: other methods */
	SFRAME_MOD_OK,
	SFRAME_MOD_BAD,		/* corrupt: walks stop in it */
};

/* A section's lookup index; sframe_index_build() fills @mem. */
struct sframe_user_index {
	refcount_t ref;
	u64 mem[];
};

/*
 * @sec.index is the table's reference to the section's index (NULL: none),
 * so that the table fits the kmalloc-2k slab; the age is 32 bits for the
 * same reason: when the clock wraps, a few entries are evicted too early.
 */
struct sframe_mod {
	const struct file *file;
	unsigned long map_base;
	u32 last_use;
	enum sframe_mod_state state;
	struct sframe_section sec;
};

/* What the memo keeps of a frame: a description, or one of these. */
enum sframe_memo_kind {
	SFRAME_MEMO_FRAME,
	SFRAME_MEMO_OUTERMOST,	/* the walk is complete */
	SFRAME_MEMO_OTHER,	/* no SFrame row for it: other methods */
};

struct sframe_memo_frame {
	s32 cfa_off;
	s32 ra_off;
	s32 fp_off;
	u8 use_fp;
	u8 kind;		/* enum sframe_memo_kind */
};

/* A caller's frame, by its return address @ip (0: an empty slot). */
struct sframe_rule {
	unsigned long ip;
	struct sframe_memo_frame f;
};

/* A topmost frame's row, for every PC in [@start, @end) (empty: both 0). */
struct sframe_span {
	unsigned long start;
	unsigned long end;
	struct sframe_memo_frame f;
};

struct sframe_memo {
	struct sframe_rule rules[SFRAME_MM_RULES];
	struct sframe_span spans[SFRAME_MM_SPANS];
};

/*
 * @seq lets walks read @memo without the lock; the lock orders its
 * writers, which also hold it for everything else here.
 */
struct unwind_user_sframe_mm {
	spinlock_t lock;	/* protects clock, gen, span_next, memo and mod[] */
	seqcount_spinlock_t seq;
	u32 clock;
	u32 gen;		/* advanced each time the memo is emptied */
	u8 span_next;		/* the span slot to replace next */
	bool memo_used;		/* the memo holds a frame */
	struct sframe_memo *memo;	/* or NULL: set once, with the table */
	struct sframe_mod mod[SFRAME_MM_MODULES];
};

/* Where a lookup's section was found: the memo's generation, the mapping. */
struct sframe_found {
	s64 gen;		/* -1: not seen in the table */
	unsigned long vm_start;
	unsigned long vm_end;
};

/*
 * The sections' callback. The reader built into the kernel does not call
 * it: its read hook recognises it and reads the same bytes inline.
 */
int sframe_user_read(void *ctx, uint64_t addr, void *dst, size_t len)
{
	if (copy_from_user(dst, (const void __user *)(unsigned long)addr, len))
		return -EFAULT;
	return 0;
}

/* The index attached to @sec, or NULL. */
static struct sframe_user_index *sframe_index_of(const struct sframe_section *sec)
{
	if (!sec->index)
		return NULL;
	return container_of((void *)sec->index, struct sframe_user_index, mem);
}

static void sframe_index_put(struct sframe_user_index *index)
{
	if (index && refcount_dec_and_test(&index->ref))
		kfree(index);
}

/* Called with sm->lock held: the entry's index goes with the entry. */
static void sframe_mod_drop_index(struct sframe_mod *m)
{
	sframe_index_put(sframe_index_of(&m->sec));
	m->sec.index = NULL;
}

/*
 * Attaches a new index to @sec, with one reference for the caller, if one
 * can be built; lookups without it search all FDEs.
 */
static void sframe_index_new(struct sframe_section *sec)
{
	struct sframe_user_index *index;
	size_t size;

	if (sframe_index_size(sec, SFRAME_INDEX_AUTO, &size) ||
	    size > KMALLOC_MAX_SIZE - sizeof(*index))
		return;
	/* Large ones only if they come easily: the index is optional. */
	index = kmalloc(sizeof(*index) + size,
			GFP_KERNEL | __GFP_NOWARN | __GFP_NORETRY);
	if (!index)
		return;
	refcount_set(&index->ref, 1);
	/* Attaches it on success only. */
	if (sframe_index_build(sec, SFRAME_INDEX_AUTO, index->mem, size))
		kfree(index);
}

/* Called with sm->lock held. */
static struct sframe_mod *sframe_mod_find(struct unwind_user_sframe_mm *sm,
					  const struct file *file,
					  unsigned long map_base)
{
	unsigned int i;

	for (i = 0; i < SFRAME_MM_MODULES; i++) {
		struct sframe_mod *m = &sm->mod[i];

		if (m->state != SFRAME_MOD_FREE && m->file == file &&
		    m->map_base == map_base)
			return m;
	}
	return NULL;
}

/* Called with sm->lock held: a free entry, else the least recently used. */
static struct sframe_mod *sframe_mod_victim(struct unwind_user_sframe_mm *sm)
{
	struct sframe_mod *victim = &sm->mod[0];
	unsigned int i;

	for (i = 0; i < SFRAME_MM_MODULES; i++) {
		struct sframe_mod *m = &sm->mod[i];

		if (m->state == SFRAME_MOD_FREE)
			return m;
		if (m->last_use < victim->last_use)
			victim = m;
	}
	return victim;
}

static struct unwind_user_sframe_mm *sframe_mm(struct mm_struct *mm)
{
	/* Pairs with the cmpxchg() that publishes a new table. */
	return smp_load_acquire(&mm->sframe);
}

static struct unwind_user_sframe_mm *sframe_mm_get(struct mm_struct *mm)
{
	struct unwind_user_sframe_mm *sm = sframe_mm(mm);

	if (sm)
		return sm;
	sm = kzalloc_obj(*sm, GFP_KERNEL);
	if (!sm)
		return NULL;
	spin_lock_init(&sm->lock);
	seqcount_spinlock_init(&sm->seq, &sm->lock);
	/* Without it, walks in this mm remember nothing. */
	sm->memo = kzalloc_obj(*sm->memo, GFP_KERNEL | __GFP_NOWARN);
	if (cmpxchg(&mm->sframe, NULL, sm)) {
		/* Another thread of this mm got there first. */
		kfree(sm->memo);
		kfree(sm);
		sm = sframe_mm(mm);
	}
	return sm;
}

/* The address a mapping puts its file's offset 0 at: the module's key. */
static unsigned long vma_map_base(const struct vm_area_struct *vma)
{
	return vma->vm_start - (vma->vm_pgoff << PAGE_SHIFT);
}

static bool phdr_maps_offset(const struct elf64_phdr *ph, unsigned long offset)
{
	return ph->p_type == PT_LOAD && (ph->p_flags & PF_X) &&
	       offset >= round_down(ph->p_offset, PAGE_SIZE) &&
	       ph->p_offset + ph->p_filesz >= ph->p_offset &&
	       offset < ph->p_offset + ph->p_filesz;
}

/* Are @in's file bytes all inside the loaded bytes of a PT_LOAD? */
static bool phdr_loaded(const struct elf64_phdr *ph, unsigned int phnum,
			const struct elf64_phdr *in)
{
	unsigned int i;

	for (i = 0; i < phnum; i++) {
		if (ph[i].p_type != PT_LOAD || in->p_vaddr < ph[i].p_vaddr ||
		    in->p_filesz > ph[i].p_filesz ||
		    in->p_vaddr - ph[i].p_vaddr > ph[i].p_filesz - in->p_filesz)
			continue;
		return true;
	}
	return false;
}

/*
 * Opens the section of the module whose executable mapping maps file offset
 * @offset of @file with its offset 0 at @map_base.
 *
 * Return: SFRAME_MOD_OK with @sec opened, SFRAME_MOD_NONE, SFRAME_MOD_BAD,
 * or -ENOMEM.
 */
static int sframe_discover(struct file *file, unsigned long map_base,
			   unsigned long offset, struct sframe_section *sec)
{
	const struct elf64_phdr *text = NULL, *sf = NULL;
	unsigned long bias, addr;
	struct elf64_phdr *ph;
	struct elf64_hdr eh;
	loff_t pos = 0;
	unsigned int i;
	size_t len;
	int ret;

	if (kernel_read(file, &eh, sizeof(eh), &pos) != sizeof(eh))
		return SFRAME_MOD_NONE;
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh.e_machine != SFRAME_USER_MACHINE ||
	    eh.e_phentsize != sizeof(*ph) || !eh.e_phnum ||
	    eh.e_phnum > SFRAME_MAX_PHDRS)
		return SFRAME_MOD_NONE;

	len = eh.e_phnum * sizeof(*ph);
	ph = kmalloc(len, GFP_KERNEL);
	if (!ph)
		return -ENOMEM;
	pos = eh.e_phoff;
	ret = SFRAME_MOD_NONE;
	if (kernel_read(file, ph, len, &pos) != (ssize_t)len)
		goto out;
	for (i = 0; i < eh.e_phnum; i++) {
		if (ph[i].p_type == PT_GNU_SFRAME)
			sf = &ph[i];
		else if (phdr_maps_offset(&ph[i], offset))
			text = &ph[i];
	}
	if (!sf || !text || !phdr_loaded(ph, eh.e_phnum, sf))
		goto out;

	/* The mapping puts file offset x at map_base + x. */
	bias = map_base + text->p_offset - text->p_vaddr;
	addr = bias + sf->p_vaddr;
	ret = sframe_open(sec, sframe_user_read, NULL, addr, sf->p_filesz, addr);
	if (!ret) {
		ret = sec->abi == SFRAME_USER_ABI ? SFRAME_MOD_OK : SFRAME_MOD_NONE;
	} else if (ret == -SFRAME_ERR_EMPTY || sframe_is_read_error(ret)) {
		ret = SFRAME_MOD_NONE;
	} else {
		pr_warn_ratelimited("sframe: %s[%d]: %pD: corrupt .sframe at %#lx: %s; walk stopped\n",
				    current->comm, task_pid_nr(current), file,
				    addr, sframe_strerror(ret));
		ret = SFRAME_MOD_BAD;
	}
out:
	kfree(ph);
	return ret;
}

/* Called with sm->lock held: the mapping @vma was seen in the table. */
static void sframe_found_set(struct sframe_found *where,
			     const struct unwind_user_sframe_mm *sm,
			     const struct vm_area_struct *vma)
{
	where->gen = sm->gen;
	where->vm_start = vma->vm_start;
	where->vm_end = vma->vm_end;
}

/*
 * Remembers what was found, if the mapping of @ip is still the same; then
 * sets @where to the memo's generation and the mapping (else leaves it).
 */
static void sframe_mod_add(struct mm_struct *mm, unsigned long ip,
			   const struct file *file, unsigned long map_base,
			   int state, const struct sframe_section *sec,
			   struct sframe_found *where)
{
	struct unwind_user_sframe_mm *sm = sframe_mm_get(mm);
	struct vm_area_struct *vma;
	struct sframe_mod *m;

	if (!sm || mmap_read_lock_killable(mm))
		return;
	vma = vma_lookup(mm, ip);
	if (vma && vma->vm_file == file && vma_map_base(vma) == map_base) {
		spin_lock(&sm->lock);
		sframe_found_set(where, sm, vma);
		if (!sframe_mod_find(sm, file, map_base)) {
			m = sframe_mod_victim(sm);
			sframe_mod_drop_index(m);
			m->file = file;
			m->map_base = map_base;
			m->last_use = ++sm->clock;
			m->state = state;
			if (state == SFRAME_MOD_OK) {
				m->sec = *sec;
				if (sec->index)
					refcount_inc(&sframe_index_of(sec)->ref);
			}
		}
		spin_unlock(&sm->lock);
	}
	mmap_read_unlock(mm);
}

/*
 * Copies the section describing @ip to @sec, with its index attached when
 * there is one and the knob is on: the caller then holds a reference to it
 * (sframe_index_of(@sec)), which it puts when the lookup is done. @where
 * receives the memo's generation and the mapping's bounds when the mapping
 * was seen in the table, else generation -1: a frame described from @sec
 * may be remembered only under that generation, and a span only inside
 * that mapping. (Not inlined: bench.sh times it as the module's finding.)
 *
 * Return: an enum sframe_mod_state (SFRAME_MOD_OK: @sec is set), or a
 * negative errno.
 */
static noinline_for_tracing __noclone int
sframe_mod_get(struct mm_struct *mm, unsigned long ip, struct sframe_section *sec,
	       struct sframe_found *where)
{
	struct unwind_user_sframe_mm *sm;
	struct vm_area_struct *vma;
	unsigned long map_base, offset;
	struct sframe_mod *m;
	struct file *file;
	int state = -ENOENT;

	where->gen = -1;
	if (mmap_read_lock_killable(mm))
		return -EINTR;
	vma = vma_lookup(mm, ip);
	if (!vma || !(vma->vm_flags & VM_EXEC) || !vma->vm_file) {
		mmap_read_unlock(mm);
		return SFRAME_MOD_NONE;
	}
	file = vma->vm_file;
	offset = vma->vm_pgoff << PAGE_SHIFT;
	map_base = vma_map_base(vma);
	sm = sframe_mm(mm);
	if (sm) {
		spin_lock(&sm->lock);
		m = sframe_mod_find(sm, file, map_base);
		if (m) {
			sframe_found_set(where, sm, vma);
			m->last_use = ++sm->clock;
			state = m->state;
			if (state == SFRAME_MOD_OK) {
				*sec = m->sec;
				if (sec->index && READ_ONCE(use_index))
					refcount_inc(&sframe_index_of(sec)->ref);
				else
					sec->index = NULL;
			}
		}
		spin_unlock(&sm->lock);
	}
	if (state != -ENOENT) {
		mmap_read_unlock(mm);
		return state;
	}
	get_file(file);
	mmap_read_unlock(mm);

	state = sframe_discover(file, map_base, offset, sec);
	if (state == SFRAME_MOD_OK && READ_ONCE(use_index))
		sframe_index_new(sec);
	if (state >= 0)
		sframe_mod_add(mm, ip, file, map_base, state, sec, where);
	fput(file);
	return state;
}

/* Called with sm->lock held: forget every frame, and say so to insertions to come. */
static void sframe_memo_empty(struct unwind_user_sframe_mm *sm)
{
	write_seqcount_begin(&sm->seq);
	/* (An exiting mm removes all its mappings: most find it empty.) */
	if (sm->memo_used)
		memset(sm->memo, 0, sizeof(*sm->memo));
	sm->memo_used = false;
	sm->gen++;
	write_seqcount_end(&sm->seq);
}

/* The pair of slots of @ip: the hash folds in the bits of the page number. */
static struct sframe_rule *sframe_rule_pair(struct sframe_memo *memo, unsigned long ip)
{
	return &memo->rules[(ip ^ (ip >> 12)) & (SFRAME_MM_RULES - 2)];
}

/*
 * The memo's frame for @state into @frame: a caller's by its PC, the
 * topmost frame's by the span its PC lies in. Read without the lock: a
 * writer in between makes the read start over.
 *
 * Return: 0 (a frame), -ESRCH (the outermost frame), -ENOENT (no SFrame
 * row: other methods), or 1 (not remembered).
 */
static int sframe_memo_find(struct unwind_user_sframe_mm *sm,
			    const struct unwind_user_state *state,
			    struct unwind_user_frame *frame)
{
	const unsigned long ip = state->ip;
	struct sframe_memo *memo = sm->memo;
	const struct sframe_rule *pair = sframe_rule_pair(memo, ip);
	struct sframe_memo_frame f;
	unsigned int seq, i;
	bool found;
	u8 next;

	do {
		seq = read_seqcount_begin(&sm->seq);
		found = false;
		if (state->topmost) {
			/* Newest first: the rows sampled last are the likeliest. */
			next = sm->span_next;
			for (i = 1; i <= SFRAME_MM_SPANS; i++) {
				const struct sframe_span *sp =
					&memo->spans[(u8)(next - i) % SFRAME_MM_SPANS];

				/* (An empty span holds no PC.) */
				if (ip - sp->start < sp->end - sp->start) {
					f = sp->f;
					found = true;
					break;
				}
			}
		} else {
			for (i = 0; i < 2; i++) {
				if (pair[i].ip == ip) {
					f = pair[i].f;
					found = true;
					break;
				}
			}
		}
	} while (read_seqcount_retry(&sm->seq, seq));
	if (!found)
		return 1;
	if (f.kind == SFRAME_MEMO_OUTERMOST)
		return -ESRCH;
	if (f.kind == SFRAME_MEMO_OTHER)
		return -ENOENT;
	frame->cfa_off = f.cfa_off;
	frame->ra_off = f.ra_off;
	frame->fp_off = f.fp_off;
	frame->use_fp = f.use_fp;
	return 0;
}

/*
 * Remembers the frame @ret/@frame (0, -ESRCH or -ENOENT) of @state: a
 * caller's for its PC, the topmost frame's for the PCs [@start, @end) (none
 * when empty), unless the memo was emptied since generation @gen (-1:
 * never seen, as for memory without a file, which is never remembered).
 */
static void sframe_memo_keep(struct mm_struct *mm, s64 gen,
			     const struct unwind_user_state *state,
			     unsigned long start, unsigned long end,
			     int ret, const struct unwind_user_frame *frame)
{
	struct unwind_user_sframe_mm *sm = sframe_mm(mm);
	struct sframe_memo_frame f = {
		.kind = ret == -ESRCH ? SFRAME_MEMO_OUTERMOST :
			ret ? SFRAME_MEMO_OTHER : SFRAME_MEMO_FRAME,
	};
	struct sframe_rule *pair;
	struct sframe_span *sp;

	if (!sm || !sm->memo || gen < 0 || !state->ip ||
	    (state->topmost && start >= end))
		return;
	if (!ret) {
		f.cfa_off = frame->cfa_off;
		f.ra_off = frame->ra_off;
		f.fp_off = frame->fp_off;
		f.use_fp = frame->use_fp;
	}
	spin_lock(&sm->lock);
	if (sm->gen == (u32)gen) {
		write_seqcount_begin(&sm->seq);
		sm->memo_used = true;
		if (state->topmost) {
			sp = &sm->memo->spans[sm->span_next++ % SFRAME_MM_SPANS];
			sp->start = start;
			sp->end = end;
			sp->f = f;
		} else {
			pair = sframe_rule_pair(sm->memo, state->ip);
			/* The newcomer first; the pair's older one goes. */
			pair[1] = pair[0];
			pair[0].ip = state->ip;
			pair[0].f = f;
		}
		write_seqcount_end(&sm->seq);
	}
	spin_unlock(&sm->lock);
}

/*
 * The PCs around the topmost frame's @pc that its row @row describes, as
 * far as they can be trusted: inside the mapping it was found in (@where),
 * and below the next function's start, which only a sorted section gives
 * (a function may lie nested in another). False: none but @pc.
 */
static bool sframe_topmost_span(const struct sframe_section *sec,
				const struct sframe_row *row, unsigned long pc,
				const struct sframe_found *where,
				unsigned long *start, unsigned long *end)
{
	struct sframe_fde next;

	if (!(sec->flags & SFRAME_F_FDE_SORTED))
		return false;
	*start = max_t(u64, row->span_start, where->vm_start);
	*end = min_t(u64, row->span_end, where->vm_end);
	if (row->fde.index + 1 < sec->num_fdes) {
		if (sframe_get_fde(sec, row->fde.index + 1, &next) ||
		    next.func_start <= pc)
			return false;
		*end = min_t(u64, *end, next.func_start);
	}
	return *start <= pc && pc < *end;
}

/* A lookup found damage the header checks could not see. */
static void sframe_mod_corrupt(struct mm_struct *mm,
			       const struct sframe_section *sec,
			       unsigned long ip, int err)
{
	struct unwind_user_sframe_mm *sm = sframe_mm(mm);
	bool first = false;
	unsigned int i;

	if (!sm)
		return;
	spin_lock(&sm->lock);
	for (i = 0; i < SFRAME_MM_MODULES; i++) {
		struct sframe_mod *m = &sm->mod[i];

		if (m->state == SFRAME_MOD_OK && m->sec.base == sec->base) {
			sframe_mod_drop_index(m);
			m->state = SFRAME_MOD_BAD;
			first = true;
		}
	}
	if (first)
		sframe_memo_empty(sm);
	spin_unlock(&sm->lock);
	if (first)
		pr_warn_ratelimited("sframe: %s[%d]: corrupt .sframe at %#llx (ip %#lx): %s; walk stopped\n",
				    current->comm, task_pid_nr(current),
				    (unsigned long long)sec->base, ip,
				    sframe_strerror(err));
}

/*
 * The row as the generic frame description, when it can be one: CFA from SP
 * or FP plus an offset, RA and FP saved at fixed offsets from the CFA.
 */
static int sframe_row_frame(const struct sframe_section *sec,
			    const struct sframe_rules *r,
			    struct unwind_user_frame *frame)
{
	if (r->ra_undefined)
		return -ESRCH;	/* the outermost frame: the walk is complete */
	if (r->cfa.deref || r->ra.kind != SFRAME_LOC_CFA || !r->ra.deref)
		return -ENOENT;
	if (r->cfa.reg == sframe_abi_sp_reg(sec->abi))
		frame->use_fp = false;
	else if (r->cfa.reg == sframe_abi_fp_reg(sec->abi))
		frame->use_fp = true;
	else
		return -ENOENT;
	frame->cfa_off = r->cfa.offset;
	frame->ra_off = r->ra.offset;

	switch (r->fp.kind) {
	case SFRAME_LOC_SAME:
		frame->fp_off = 0;
		break;
	case SFRAME_LOC_CFA:
		/* fp_off 0 means "unchanged" to the applier. */
		if (!r->fp.deref || !r->fp.offset)
			return -ENOENT;
		frame->fp_off = r->fp.offset;
		break;
	default:
		return -ENOENT;
	}
	return 0;
}

/*
 * In the topmost frame, just after an epilogue popped FP, the row may
 * still name FP's save slot, now below SP: the register already holds the
 * caller's value, and the slot may have been overwritten.
 */
static int sframe_frame_for(const struct unwind_user_state *state,
			    struct unwind_user_frame *frame)
{
	unsigned long cfa;

	if (state->topmost && frame->fp_off) {
		cfa = (frame->use_fp ? state->fp : state->sp) + frame->cfa_off;
		if (cfa + frame->fp_off < state->sp)
			frame->fp_off = 0;
	}
	return 0;
}

int unwind_user_sframe_frame(struct unwind_user_state *state,
			     struct unwind_user_frame *frame)
{
	struct mm_struct *mm = current->mm;
	const bool cache = READ_ONCE(use_cache);
	struct unwind_user_sframe_mm *sm;
	unsigned long pc, start = 0, end = 0;
	struct sframe_section sec;
	struct sframe_found where = { .gen = -1 };
	struct sframe_row row;
	int ret;

	if (!READ_ONCE(enabled) || !mm || state->ws != sizeof(long))
		return -ENOENT;
	might_fault();

	sm = sframe_mm(mm);
	if (cache && sm && sm->memo) {
		ret = sframe_memo_find(sm, state, frame);
		if (ret <= 0)
			return ret ? ret : sframe_frame_for(state, frame);
	}
	ret = sframe_mod_get(mm, state->ip, &sec, &where);
	if (ret == -ENOMEM)
		return -ENOENT;
	/*
	 * A file without a section: remembered, for a topmost frame by the
	 * whole mapping (memory without a file is not remembered).
	 */
	if (ret == SFRAME_MOD_NONE) {
		if (state->topmost && where.gen >= 0) {
			start = where.vm_start;
			end = where.vm_end;
		}
		ret = -ENOENT;
		goto keep;
	}
	if (ret != SFRAME_MOD_OK)
		return ret < 0 ? ret : -EINVAL;

	/* A caller's PC is a return address: it may be its function's end. */
	pc = state->topmost ? state->ip : state->ip - 1;
	ret = sframe_lookup(&sec, pc, &row);
	sframe_index_put(sframe_index_of(&sec));
	if (ret == -SFRAME_ERR_NOT_FOUND || ret == -SFRAME_ERR_UNSUPPORTED) {
		ret = -ENOENT;
		goto keep;
	}
	if (sframe_is_read_error(ret))
		return -EFAULT;
	if (ret) {
		sframe_mod_corrupt(mm, &sec, state->ip, ret);
		return -EINVAL;
	}
	ret = sframe_row_frame(&sec, &row.rules, frame);
	if (state->topmost && !sframe_topmost_span(&sec, &row, pc, &where, &start, &end)) {
		start = 0;
		end = 0;
	}
keep:
	/* (The topmost frame is remembered by its row's span only.) */
	if (cache)
		sframe_memo_keep(mm, where.gen, state, start, end, ret, frame);
	return ret ? ret : sframe_frame_for(state, frame);
}

void unwind_user_sframe_mm_init(struct mm_struct *mm)
{
	mm->sframe = NULL;
}

void unwind_user_sframe_mm_free(struct mm_struct *mm)
{
	struct unwind_user_sframe_mm *sm = mm->sframe;
	unsigned int i;

	if (sm) {
		/* No lookup runs any more: the table's references are the last. */
		for (i = 0; i < SFRAME_MM_MODULES; i++)
			sframe_index_put(sframe_index_of(&sm->mod[i].sec));
		kfree(sm->memo);
		kfree(sm);
	}
	mm->sframe = NULL;
}

void unwind_user_sframe_vma_removed(struct vm_area_struct *vma)
{
	struct unwind_user_sframe_mm *sm = sframe_mm(vma->vm_mm);
	unsigned int i;

	if (!sm || !vma->vm_file)
		return;
	spin_lock(&sm->lock);
	for (i = 0; i < SFRAME_MM_MODULES; i++) {
		if (sm->mod[i].file == vma->vm_file) {
			sframe_mod_drop_index(&sm->mod[i]);
			sm->mod[i].state = SFRAME_MOD_FREE;
		}
	}
	/*
	 * Any file mapping: the memo may hold frames of a mapping made
	 * executable once and not now, which its removal must not outlive.
	 */
	sframe_memo_empty(sm);
	spin_unlock(&sm->lock);
}
