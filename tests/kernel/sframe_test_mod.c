/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * sframe_test_mod.c - the core inside a kernel module: read a section and
 * unwind a stack through a callback shaped like copy_from_user().
 *
 * The data (sframe_test_data.h, made by gen_test_data.py at build time) is
 * a real sample from fixtures/unwind/v3-x86_64: the program's .sframe
 * section, the interrupted registers and a copy of the user stack. Module
 * init opens the section, checks it, looks up the sampled PC and unwinds
 * the stack, all through read_user(), and compares the frames with the
 * program's known call chain. It returns 0 when every check passed, so a
 * successful insmod is the test's result; each check is also logged.
 *
 * The same file builds as an ordinary program (hosted_shim.h stands in for
 * the kernel headers), so that what the module checks is run in CI, where
 * a module cannot be loaded.
 */
#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#else
#include "hosted_shim.h"
#endif

#include <sframe/sframe_unwind.h>

struct sframe_test_func {
	const char *name;
	uint64_t start;
	uint64_t end;
};

/* The hosted builds of tests/meson.build name one data header per fixture. */
#ifdef SFRAME_TEST_DATA
#include SFRAME_TEST_DATA
#else
#include "sframe_test_data.h"
#endif

#define NCHAIN (sizeof(sframe_test_chain) / sizeof(sframe_test_chain[0]))
#define MAX_FRAMES 16

/*
 * The kernel reads a task's stack and .sframe with copy_from_user(to, from,
 * n), which returns the number of bytes it could NOT copy (0 on success) and
 * survives a fault. A module has no user memory to test with, and
 * copy_from_user() refuses kernel addresses (access_ok()), so this function
 * has copy_from_user()'s signature and contract but reads kernel memory with
 * copy_from_kernel_nofault(), which also survives a fault and reports it.
 * An embedder's callback calls copy_from_user() itself at this point.
 */
static unsigned long sframe_test_copy_from_user(void *to, const void __user *from,
						unsigned long n)
{
	if (copy_from_kernel_nofault(to, (__force const void *)from, n))
		return n;
	return 0;
}

/*
 * A stand-in for a task's address space: @len bytes that the task sees at
 * @addr, held in the kernel buffer @buf. Anything else is unmapped.
 */
struct test_map {
	uint64_t addr;
	uint64_t len;
	const uint8_t *buf;
};

/* The read callback, for section bytes and stack values alike. */
static int read_user(void *ctx, uint64_t addr, void *dst, size_t len)
{
	const struct test_map *m = ctx;
	const void __user *src;

	if (addr < m->addr || addr - m->addr > m->len || len > m->len - (addr - m->addr))
		return -EFAULT;	/* unmapped: what copy_from_user() would find */
	src = (__force const void __user *)(m->buf + (addr - m->addr));
	if (sframe_test_copy_from_user(dst, src, len))
		return -EFAULT;
	return 0;
}

/* Registers beyond PC/SP/FP/RA (FLEX rules): the sample has them all. */
static int get_reg(void *ctx, unsigned int reg, uint64_t *value)
{
	(void)ctx;
	if (reg >= SFRAME_TEST_NREGS)
		return -SFRAME_ERR_NO_REG;
	*value = sframe_test_regs[reg];
	return 0;
}

static int failures;

static void check(bool ok, const char *what, long long got)
{
	if (ok) {
		pr_info("sframe_test: ok: %s\n", what);
	} else {
		pr_err("sframe_test: FAILED: %s (got %lld)\n", what, got);
		failures++;
	}
}

/* Is @pc in chain function @i (a caller's PC is a return address: pc - 1)? */
static bool in_func(unsigned int i, uint64_t pc, bool topmost)
{
	uint64_t p = topmost ? pc : pc - 1;

	return p >= sframe_test_chain[i].start && p < sframe_test_chain[i].end;
}

static struct sframe_frame frames[MAX_FRAMES];

static int sframe_test_run(void)
{
	struct test_map sec_map = { SFRAME_TEST_SECTION_VADDR, sizeof(sframe_test_section),
				    sframe_test_section };
	struct test_map stack_map = { SFRAME_TEST_STACK_ADDR, 0, NULL };
	struct sframe_module slots[1];
	struct sframe_module_table table;
	struct sframe_section sec;
	struct sframe_unwinder u = { 0 };
	struct sframe_regs regs = { 0 };
	struct sframe_row row;
	uint8_t *stack;
	uint32_t count, i;
	int ret;

	/* The stack, copied into a kernel heap buffer. */
	stack = kmemdup(sframe_test_stack, sizeof(sframe_test_stack), GFP_KERNEL);
	if (!stack)
		return -ENOMEM;
	stack_map.buf = stack;
	stack_map.len = sizeof(sframe_test_stack);

	ret = sframe_open(&sec, read_user, &sec_map, SFRAME_TEST_SECTION_VADDR,
			  sizeof(sframe_test_section), SFRAME_TEST_SECTION_VADDR);
	check(ret == 0, "sframe_open() through the copy_from_user-shaped callback", ret);
	if (ret)
		goto out;
	check(sframe_check(&sec, NULL) == 0, "sframe_check()", sframe_check(&sec, NULL));

	ret = sframe_lookup(&sec, SFRAME_TEST_PC, &row);
	check(ret == 0 && row.fde.func_start == sframe_test_chain[0].start,
	      "sframe_lookup() of the sampled PC finds its function", ret);

	sframe_modules_init(&table, slots, 1);
	ret = sframe_modules_add(&table, SFRAME_TEST_TEXT_START, SFRAME_TEST_TEXT_END, &sec, NULL);
	check(ret == 0, "sframe_modules_add()", ret);

	u.abi = sec.abi;
	u.modules = &table;
	u.read_stack = read_user;
	u.stack_ctx = &stack_map;
	u.get_reg = get_reg;
	regs.pc = SFRAME_TEST_PC;
	regs.sp = SFRAME_TEST_SP;
	regs.fp = SFRAME_TEST_FP;
	regs.ra = SFRAME_TEST_RA;
	regs.valid = SFRAME_REG_PC | SFRAME_REG_SP | SFRAME_REG_FP;
	if (u.abi != SFRAME_ABI_AMD64_LE)
		regs.valid |= SFRAME_REG_RA;

	/*
	 * The whole walk: every chain function up to main, then main's caller
	 * in the C library, which has no SFrame (Debian's static glibc is not
	 * assembled with --gsframe): the walk ends there with NOT_FOUND.
	 */
	ret = sframe_unwind_stack(&u, &regs, frames, MAX_FRAMES, &count);
	for (i = 0; i < count; i++)
		pr_info("sframe_test: #%u pc 0x%llx sp 0x%llx cfa 0x%llx %s\n", i,
			(unsigned long long)frames[i].pc, (unsigned long long)frames[i].sp,
			(unsigned long long)frames[i].cfa,
			i < NCHAIN ? sframe_test_chain[i].name : "(caller of main)");
	check(ret == -SFRAME_ERR_NOT_FOUND, "the walk ends at main's caller, which has no SFrame",
	      ret);
	check(count == NCHAIN + 1, "the walk finds every frame", count);
	for (i = 0; i < NCHAIN && i < count; i++) {
		if (!in_func(i, frames[i].pc, i == 0)) {
			check(false, "frame in its chain function", (long long)i);
			break;
		}
	}
	if (i == NCHAIN)
		check(true, "every frame in its chain function, in order", 0);

	/* A stack that ends just above SP: reading the RA faults. */
	stack_map.len = SFRAME_TEST_SP - SFRAME_TEST_STACK_ADDR + 8;
	ret = sframe_unwind_stack(&u, &regs, frames, MAX_FRAMES, &count);
	check(ret == -EFAULT && count == 1 && sframe_is_read_error(ret),
	      "a faulting stack read ends the walk with the callback's -EFAULT", ret);

	/* Only the header mapped: open works, the first FDE read faults. */
	sec_map.len = SFRAME_HDR_SIZE;
	ret = sframe_lookup(&sec, SFRAME_TEST_PC, &row);
	check(ret == -EFAULT, "a faulting section read returns the callback's -EFAULT", ret);
out:
	kfree(stack);
	return failures ? -EINVAL : 0;
}

static int __init sframe_test_init(void)
{
	int ret = sframe_test_run();

	if (ret)
		pr_err("sframe_test: %d check(s) FAILED\n", failures);
	else
		pr_info("sframe_test: all checks passed (%s)\n", SFRAME_TEST_COMBO);
	return ret;
}

static void __exit sframe_test_exit(void)
{
}

module_init(sframe_test_init);
module_exit(sframe_test_exit);
MODULE_LICENSE("Dual BSD/GPL");
MODULE_DESCRIPTION("SFrame core inside the kernel: read a section, unwind a stack");
