/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * SFrame method of the user-space unwinder (kernel/unwind/sframe_user.c).
 *
 * A module's .sframe is found from the file behind its executable mapping
 * the first time a walk meets a PC in it, and remembered per mm until the
 * mapping goes away: no registration by the program or its C library.
 */
#ifndef _LINUX_UNWIND_USER_SFRAME_H
#define _LINUX_UNWIND_USER_SFRAME_H

#include <linux/errno.h>

struct mm_struct;
struct vm_area_struct;
struct unwind_user_state;
struct unwind_user_frame;

#ifdef CONFIG_UNWIND_USER_SFRAME

/**
 * unwind_user_sframe_frame() - describe the caller of the current frame.
 * @state: the walk, at the frame to step out of.
 * @frame: filled on success, for unwind_user_next_common().
 *
 * Runs in the deferred, faultable context: it may sleep, and reads the
 * section through faulting user reads.
 *
 * Return: 0 with @frame filled; -ENOENT when no SFrame describes the PC or
 * its row cannot be expressed as a struct unwind_user_frame (the caller
 * tries the next method); another negative errno when the walk must stop:
 * the outermost frame, a corrupt section (logged once, ratelimited) or a
 * failed read of the section.
 */
int unwind_user_sframe_frame(struct unwind_user_state *state,
			     struct unwind_user_frame *frame);

/**
 * unwind_user_sframe_mm_init() - start a new mm with no sections known.
 * @mm: the mm being set up (its memory may be a copy of the parent's).
 */
void unwind_user_sframe_mm_init(struct mm_struct *mm);

/**
 * unwind_user_sframe_mm_free() - forget the sections of a dying mm.
 * @mm: the mm being freed.
 */
void unwind_user_sframe_mm_free(struct mm_struct *mm);

/**
 * unwind_user_sframe_vma_removed() - forget the section of an unmapped file.
 * @vma: the mapping being removed, while it still holds its file.
 */
void unwind_user_sframe_vma_removed(struct vm_area_struct *vma);

#else

static inline int unwind_user_sframe_frame(struct unwind_user_state *state,
					   struct unwind_user_frame *frame)
{
	return -ENOENT;
}

static inline void unwind_user_sframe_mm_init(struct mm_struct *mm) {}

static inline void unwind_user_sframe_mm_free(struct mm_struct *mm) {}

static inline void unwind_user_sframe_vma_removed(struct vm_area_struct *vma) {}

#endif /* CONFIG_UNWIND_USER_SFRAME */

#endif /* _LINUX_UNWIND_USER_SFRAME_H */
