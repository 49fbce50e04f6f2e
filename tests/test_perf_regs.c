/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_perf_regs.c - perf's user registers as an unwinder's sample
 * (src/tool/target/perf_regs.c).
 *
 * Every sample here has perf register n hold 0x1000 + n, so each expected
 * value below names the perf register that must land in a DWARF slot. The
 * perf numbers are those of the kernel's uapi asm/perf_regs.h:
 *   x86_64:  ax 0, bx 1, cx 2, dx 3, si 4, di 5, bp 6, sp 7, ip 8, flags 9,
 *            cs 10, ss 11, ds 12, es 13, fs 14, gs 15, r8-r15 16-23;
 *   aarch64: x0-x28 0-28, x29 29, lr 30, sp 31, pc 32;
 *   s390x:   r0-r15 0-15, f0-f15 16-31, PSW mask 32, PSW address (pc) 33.
 * The DWARF numbers are the psABIs':
 *   x86_64:  rax 0, rdx 1, rcx 2, rbx 3, rsi 4, rdi 5, rbp 6, rsp 7,
 *            r8-r15 8-15, return address (rip) 16;
 *   aarch64: x0-x30 0-30, sp 31;
 *   s390x:   r0-r15 0-15.
 */
#include <setjmp.h>
#include <elf.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <sframe/sframe.h>

#include "target/perf_regs.h"

/* The masks perf 6.1 records with --call-graph=dwarf. */
#define MASK_X86_64	UINT64_C(0xff0fff)	/* all but ds, es, fs, gs */
#define MASK_AARCH64	((UINT64_C(1) << 33) - 1)
#define MASK_S390X	((UINT64_C(1) << 34) - 1)

static const unsigned char stack_copy[64] = { 1, 2, 3 };

/* A 64-bit sample of @mask: perf register n holds 0x1000 + n. */
static void make_sample(struct sf_perf_sample *ps, uint64_t mask)
{
	unsigned n;

	memset(ps, 0, sizeof(*ps));
	ps->regs_abi = SF_PERF_REGS_ABI_64;
	for (n = 0; n < 64; n++)
		if (mask >> n & 1)
			ps->regs[ps->nregs++] = 0x1000 + n;
	ps->stack_size = sizeof(stack_copy);
	ps->stack = stack_copy;
	ps->stack_dyn_size = 40;
}

static void convert(uint16_t machine, uint64_t mask, const struct sf_perf_sample *ps,
		    struct sf_sample *out)
{
	char err[256] = "";

	if (sf_perf_regs_sample(machine, mask, ps, out, err, sizeof(err)) != 0)
		fail_msg("%s", err);
}

static void expect_reg(struct sf_sample *s, unsigned dwarf, uint64_t value)
{
	uint64_t v = 0;

	assert_int_equal(sf_sample_get_reg(s, dwarf, &v), 0);
	assert_int_equal(v, value);
}

static void expect_no_reg(struct sf_sample *s, unsigned dwarf)
{
	uint64_t v;

	assert_int_equal(sf_sample_get_reg(s, dwarf, &v), -SFRAME_ERR_NO_REG);
}

/* The roles, the register count and the stack window of a converted sample. */
static void expect_sample(struct sf_sample *s, uint64_t pc, uint64_t sp, uint64_t fp, uint64_t ra,
			  uint32_t nregs)
{
	assert_int_equal(s->pc, pc);
	assert_int_equal(s->sp, sp);
	assert_int_equal(s->fp, fp);
	assert_int_equal(s->ra, ra);
	assert_int_equal(s->nregs, nregs);
	expect_no_reg(s, nregs);
	/* The stack copy starts at the user SP. */
	assert_ptr_equal(s->stack, stack_copy);
	assert_int_equal(s->stack_addr, sp);
	assert_int_equal(s->stack_len, 40);
}

static void test_arch_names(void **state)
{
	(void)state;
	assert_int_equal(sf_perf_arch_machine("x86_64"), EM_X86_64);
	assert_int_equal(sf_perf_arch_machine("aarch64"), EM_AARCH64);
	assert_int_equal(sf_perf_arch_machine("arm64"), EM_AARCH64);
	assert_int_equal(sf_perf_arch_machine("aarch64_be"), EM_AARCH64);
	assert_int_equal(sf_perf_arch_machine("s390x"), EM_S390);
	assert_int_equal(sf_perf_arch_machine("s390"), EM_S390);
	assert_int_equal(sf_perf_arch_machine("i686"), 0);
	assert_int_equal(sf_perf_arch_machine("x86_64 "), 0);
	assert_int_equal(sf_perf_arch_machine(""), 0);
}

static void test_x86_64(void **state)
{
	/* DWARF 0..16 is rax rdx rcx rbx rsi rdi rbp rsp r8..r15 rip: perf's numbers. */
	static const unsigned perf_of_dwarf[17] = {
		0, 3, 2, 1, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 8,
	};
	struct sf_perf_sample ps;
	struct sf_sample s;
	unsigned d;

	(void)state;
	make_sample(&ps, MASK_X86_64);
	assert_int_equal(ps.nregs, 20);
	convert(EM_X86_64, MASK_X86_64, &ps, &s);
	expect_sample(&s, 0x1008, 0x1007, 0x1006, 0, 17);
	for (d = 0; d < 17; d++)
		expect_reg(&s, d, 0x1000 + perf_of_dwarf[d]);
}

static void test_aarch64(void **state)
{
	struct sf_perf_sample ps;
	struct sf_sample s;
	unsigned d;

	(void)state;
	make_sample(&ps, MASK_AARCH64);
	convert(EM_AARCH64, MASK_AARCH64, &ps, &s);
	expect_sample(&s, 0x1020, 0x101f, 0x101d, 0x101e, 32);
	for (d = 0; d < 32; d++)
		expect_reg(&s, d, 0x1000 + d);
}

static void test_s390x(void **state)
{
	/* perf's own mask, and the general registers with PSW mask and address only. */
	static const uint64_t masks[2] = { MASK_S390X, UINT64_C(0x30000ffff) };
	struct sf_perf_sample ps;
	struct sf_sample s;
	unsigned d, k;

	(void)state;
	for (k = 0; k < 2; k++) {
		make_sample(&ps, masks[k]);
		convert(EM_S390, masks[k], &ps, &s);
		/* DWARF 16 is f0: not taken from perf's f registers. */
		expect_sample(&s, 0x1021, 0x100f, 0x100b, 0x100e, 16);
		for (d = 0; d < 16; d++)
			expect_reg(&s, d, 0x1000 + d);
	}
}

/* A mask without some registers: those are refused, not read as zero. */
static void test_missing_registers(void **state)
{
	/* x86_64 without bp (6) and r10 (18); aarch64 without x29 and lr. */
	uint64_t mx = MASK_X86_64 & ~(UINT64_C(1) << 6 | UINT64_C(1) << 18);
	uint64_t ma = MASK_AARCH64 & ~(UINT64_C(3) << 29);
	struct sf_perf_sample ps;
	struct sf_sample s;

	(void)state;
	make_sample(&ps, mx);
	convert(EM_X86_64, mx, &ps, &s);
	assert_int_equal(s.fp, 0);
	expect_no_reg(&s, 6);
	expect_no_reg(&s, 10);
	/* The registers after them in the packed array still land right. */
	expect_reg(&s, 7, 0x1007);
	expect_reg(&s, 11, 0x1013);
	expect_reg(&s, 16, 0x1008);
	assert_int_equal(s.pc, 0x1008);

	make_sample(&ps, ma);
	convert(EM_AARCH64, ma, &ps, &s);
	assert_int_equal(s.fp, 0);
	assert_int_equal(s.ra, 0);
	expect_no_reg(&s, 29);
	expect_no_reg(&s, 30);
	expect_reg(&s, 28, 0x101c);
	expect_reg(&s, 31, 0x101f);
	assert_int_equal(s.pc, 0x1020);
}

/* A snapshot's sample read after a perf one has every register again. */
static void test_snapshot_registers_all_there(void **state)
{
	struct sf_sample s;

	(void)state;
	memset(&s, 0, sizeof(s));
	s.nregs = 17;
	s.regs[6] = 66;
	expect_reg(&s, 6, 66);
	s.regs_missing = UINT64_C(1) << 6;
	expect_no_reg(&s, 6);
	expect_reg(&s, 5, 0);
}

static void expect_error(uint16_t machine, uint64_t mask, const struct sf_perf_sample *ps,
			 int code, const char *text)
{
	struct sf_sample s;
	char err[256] = "";

	assert_int_equal(sf_perf_regs_sample(machine, mask, ps, &s, err, sizeof(err)), code);
	if (!strstr(err, text))
		fail_msg("message \"%s\" lacks \"%s\"", err, text);
}

static void test_errors(void **state)
{
	const char *nopcsp = "the samples carry no user PC/SP (record with --call-graph=dwarf)";
	struct sf_perf_sample ps;
	uint64_t m;

	(void)state;
	make_sample(&ps, MASK_X86_64);
	expect_error(EM_386, MASK_X86_64, &ps, SF_PERF_REGS_EMACHINE, "machine 3");
	ps.regs_abi = SF_PERF_REGS_ABI_32;
	expect_error(EM_X86_64, MASK_X86_64, &ps, SF_PERF_REGS_E32,
		     "a 32-bit task: its stack cannot be unwound with x86_64 SFrame");
	ps.regs_abi = SF_PERF_REGS_ABI_NONE;
	expect_error(EM_X86_64, MASK_X86_64, &ps, SF_PERF_REGS_ENONE, "no user registers");
	ps.regs_abi = 3;
	expect_error(EM_X86_64, MASK_X86_64, &ps, SF_PERF_REGS_EFORMAT, "ABI 3");
	/* One register fewer than the mask has bits. */
	make_sample(&ps, MASK_X86_64);
	ps.nregs--;
	expect_error(EM_X86_64, MASK_X86_64, &ps, SF_PERF_REGS_EFORMAT,
		     "19 user registers for a mask of 20 (0xff0fff)");
	/* No ip (x86_64 8), no sp (aarch64 31), no PSW address (s390x 33). */
	m = MASK_X86_64 & ~(UINT64_C(1) << 8);
	make_sample(&ps, m);
	expect_error(EM_X86_64, m, &ps, SF_PERF_REGS_ENOPCSP, nopcsp);
	m = MASK_AARCH64 & ~(UINT64_C(1) << 31);
	make_sample(&ps, m);
	expect_error(EM_AARCH64, m, &ps, SF_PERF_REGS_ENOPCSP, nopcsp);
	m = UINT64_C(0x1ffff);
	make_sample(&ps, m);
	expect_error(EM_S390, m, &ps, SF_PERF_REGS_ENOPCSP, nopcsp);
}

/* Without STACK_USER the window is empty. */
static void test_no_stack(void **state)
{
	struct sf_perf_sample ps;
	struct sf_sample s;
	uint64_t v;

	(void)state;
	make_sample(&ps, MASK_AARCH64);
	ps.stack = NULL;
	ps.stack_size = 0;
	ps.stack_dyn_size = 0;
	convert(EM_AARCH64, MASK_AARCH64, &ps, &s);
	assert_int_equal(s.stack_len, 0);
	assert_int_equal(sf_sample_read(&s, s.sp, &v, 8), -14);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arch_names),
		cmocka_unit_test(test_x86_64),
		cmocka_unit_test(test_aarch64),
		cmocka_unit_test(test_s390x),
		cmocka_unit_test(test_missing_registers),
		cmocka_unit_test(test_snapshot_registers_all_there),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_no_stack),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
