/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * cfi_read.c - the bytes of .eh_frame and .debug_frame: entries, CIEs, FDEs,
 * LEB128, pointer encodings, and the few expression shapes SFrame can say.
 */
#include "convert_internal.h"

/* DW_EH_PE_* pointer encodings: the low nibble the format, then how applied. */
#define PE_ABSPTR	0x00
#define PE_ULEB128	0x01
#define PE_UDATA2	0x02
#define PE_UDATA4	0x03
#define PE_UDATA8	0x04
#define PE_SLEB128	0x09
#define PE_SDATA2	0x0a
#define PE_SDATA4	0x0b
#define PE_SDATA8	0x0c
#define PE_PCREL	0x10
#define PE_DATAREL	0x30
#define PE_ALIGNED	0x50
#define PE_INDIRECT	0x80
#define PE_OMIT		0xff

/* Every address these ABIs use is 64 bits wide. */
#define ADDR_SIZE	8

/* The one checked read: every other reader is built on it. */
void cv_bytes(struct cv_cursor *c, void *dst, uint64_t n)
{
	uint8_t *d = dst;
	uint64_t i;

	if (c->bad || n > c->end || c->pos > c->end - n) {
		c->bad = true;
		for (i = 0; i < n; i++)
			d[i] = 0;
		return;
	}
	for (i = 0; i < n; i++)
		d[i] = c->data[c->pos + i];
	c->pos += n;
}

void cv_skip(struct cv_cursor *c, uint64_t n)
{
	if (c->bad || n > c->end || c->pos > c->end - n) {
		c->bad = true;
		return;
	}
	c->pos += n;
}

/* cv_uint() when the bytes may not be there: through the checked read. */
uint64_t cv_uint_slow(struct cv_cursor *c, unsigned int width)
{
	uint8_t b[8];
	uint64_t v = 0;
	unsigned int i;

	cv_bytes(c, b, width);
	for (i = 0; i < width; i++)
		v |= (uint64_t)b[c->be ? i : width - 1 - i] << (8 * (width - 1 - i));
	return v;
}

/*
 * LEB128 of at most 64 bits: ten bytes at most, the tenth holding only
 * bit 63 (and, signed, its sign copies); anything longer is refused.
 */
static uint64_t leb(struct cv_cursor *c, bool sign)
{
	uint64_t v = 0;
	unsigned int shift = 0;
	uint8_t b;

	for (;;) {
		cv_bytes(c, &b, 1);
		if (c->bad)
			return 0;
		if (shift == 63) {
			uint8_t p = b & 0x7f;

			if ((b & 0x80) || !(sign ? p == 0 || p == 0x7f : p <= 1)) {
				c->bad = true;
				return 0;
			}
			return v | ((uint64_t)(p & 1) << 63);
		}
		v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			break;
	}
	if (sign && shift < 64 && (b & 0x40))
		v |= ~(uint64_t)0 << shift;
	return v;
}

uint64_t cv_uleb_slow(struct cv_cursor *c)
{
	return leb(c, false);
}

int64_t cv_sleb_slow(struct cv_cursor *c)
{
	uint64_t v = leb(c, true);

	return (int64_t)v;
}

static int64_t sext(uint64_t v, unsigned int width)
{
	uint64_t m = (uint64_t)1 << (8 * width - 1);

	if (width >= 8)
		return (int64_t)v;
	return (int64_t)((v ^ m) - m);
}

/*
 * Read a pointer stored with encoding @enc. PC-relative values count from
 * the field's own address; "aligned" reads a pointer at the next multiple
 * of the address size. Bases this converter cannot know (text, data,
 * function; indirect) make it fail, as does an unknown format.
 */
bool cv_pointer(struct cv_cursor *c, uint8_t enc, uint64_t *val)
{
	uint64_t field = c->addr + c->pos;
	uint64_t v;

	if (enc == PE_OMIT || (enc & PE_INDIRECT))
		return false;
	if (enc == PE_ALIGNED) {
		uint64_t pad = (ADDR_SIZE - (field & (ADDR_SIZE - 1))) & (ADDR_SIZE - 1);

		cv_skip(c, pad);
		*val = cv_uint(c, ADDR_SIZE);
		return !c->bad;
	}
	switch (enc & 0x0f) {
	case PE_ABSPTR:
	case PE_UDATA8:
	case PE_SDATA8:
		v = cv_uint(c, 8);
		break;
	case PE_ULEB128:
		v = cv_uleb(c);
		break;
	case PE_UDATA2:
		v = cv_uint(c, 2);
		break;
	case PE_UDATA4:
		v = cv_uint(c, 4);
		break;
	case PE_SLEB128:
		v = (uint64_t)cv_sleb(c);
		break;
	case PE_SDATA2:
		v = (uint64_t)sext(cv_uint(c, 2), 2);
		break;
	case PE_SDATA4:
		v = (uint64_t)sext(cv_uint(c, 4), 4);
		break;
	default:
		return false;
	}
	if (c->bad)
		return false;
	switch (enc & 0x70) {
	case 0:
		break;
	case PE_PCREL:
		v += field;
		break;
	default:
		return false;
	}
	*val = v;
	return true;
}

/* Step over a pointer that is not needed (a personality routine). */
bool cv_skip_pointer(struct cv_cursor *c, uint8_t enc)
{
	uint64_t field = c->addr + c->pos;

	if (enc == PE_OMIT)
		return true;
	if ((enc & 0x7f) == PE_ALIGNED) {
		cv_skip(c, (ADDR_SIZE - (field & (ADDR_SIZE - 1))) & (ADDR_SIZE - 1));
		cv_skip(c, ADDR_SIZE);
		return !c->bad;
	}
	switch (enc & 0x0f) {
	case PE_ABSPTR:
	case PE_UDATA8:
	case PE_SDATA8:
		cv_skip(c, 8);
		break;
	case PE_ULEB128:
		cv_uleb(c);
		break;
	case PE_SLEB128:
		cv_sleb(c);
		break;
	case PE_UDATA2:
	case PE_SDATA2:
		cv_skip(c, 2);
		break;
	case PE_UDATA4:
	case PE_SDATA4:
		cv_skip(c, 4);
		break;
	default:
		return false;
	}
	return !c->bad;
}

/*
 * A header pointer: the encodings cv_pointer() reads, and also datarel,
 * whose one meaning in .eh_frame_hdr is "from the header's start".
 */
static bool hdr_pointer(struct cv_cursor *c, uint8_t enc, uint64_t *val)
{
	if (enc == PE_OMIT || (enc & 0x70) != PE_DATAREL)
		return cv_pointer(c, enc, val);
	if (!cv_pointer(c, enc & 0x0f, val))
		return false;
	*val += c->addr;
	return true;
}

/* The width of a table field, which binary search needs fixed; 0 if not. */
static unsigned int hdr_field_width(uint8_t enc)
{
	if ((enc & 0x70) != 0 && (enc & 0x70) != PE_DATAREL)
		return 0;
	switch (enc & 0x0f) {
	case PE_UDATA2:
	case PE_SDATA2:
		return 2;
	case PE_UDATA4:
	case PE_SDATA4:
		return 4;
	case PE_ABSPTR:
	case PE_UDATA8:
	case PE_SDATA8:
		return 8;
	default:
		return 0;
	}
}

/*
 * Version 1, then the encodings of the .eh_frame pointer, the count and the
 * table, then the pointer and the count. A table whose fields have no fixed
 * width, or that runs past the end, is as none (@h->count 0); false only
 * when the header itself cannot be read.
 */
bool cv_hdr_read(const uint8_t *data, uint64_t size, uint64_t addr, bool be, struct cv_hdr *h)
{
	uint8_t ptr_enc, count_enc;

	*h = (struct cv_hdr){ .c = { .data = data, .end = size, .addr = addr, .be = be } };
	if (cv_uint(&h->c, 1) != 1)
		return false;
	ptr_enc = (uint8_t)cv_uint(&h->c, 1);
	count_enc = (uint8_t)cv_uint(&h->c, 1);
	h->table_enc = (uint8_t)cv_uint(&h->c, 1);
	if (h->c.bad)
		return false;
	if (ptr_enc != PE_OMIT) {
		if (!hdr_pointer(&h->c, ptr_enc, &h->eh_frame))
			return false;
		h->has_eh_frame = true;
	}
	h->width = hdr_field_width(h->table_enc);
	/*
	 * An entry is 2 * width bytes, a power of two: shifted, not divided,
	 * since a 64-bit division calls libgcc (__udivdi3) on 32-bit hosts.
	 */
	if (count_enc == PE_OMIT || h->table_enc == PE_OMIT || !h->width ||
	    !hdr_pointer(&h->c, count_enc, &h->count) ||
	    h->count > (h->c.end - h->c.pos) >> (h->width == 2 ? 2 : h->width == 4 ? 3 : 4)) {
		h->count = 0;
		return true;
	}
	h->table = h->c.pos;
	return true;
}

/* Table entry @i (< @h->count): a function's first address and its FDE's. */
bool cv_hdr_entry(struct cv_hdr *h, uint64_t i, uint64_t *start, uint64_t *fde)
{
	h->c.pos = h->table + i * 2 * h->width;
	h->c.bad = false;
	return hdr_pointer(&h->c, h->table_enc, start) && hdr_pointer(&h->c, h->table_enc, fde);
}

/*
 * The entry at @off: its length (32-bit, or 64-bit after the 0xffffffff
 * escape) and CIE id or pointer. .eh_frame ends at a zero length, as every
 * unwinder stops there; .debug_frame has no terminator, and a zero word
 * there is padding some assemblers leave.
 */
enum cv_entry_result cv_entry(const struct cv_cursor *sec, enum cv_kind kind, uint64_t off,
			      struct cv_entry *e)
{
	struct cv_cursor c = *sec;
	uint64_t len, left;

	for (;;) {
		if (sec->end - off < 4 || off > sec->end)
			return CV_ENTRY_END;
		c.pos = off;
		c.bad = false;
		len = cv_uint(&c, 4);
		if (len != 0)
			break;
		if (kind == CV_EH_FRAME)
			return CV_ENTRY_END;
		off += 4;
	}
	e->off = off;
	e->is64 = len == 0xffffffffu;
	if (e->is64)
		len = cv_uint(&c, 8);
	left = c.end - c.pos;
	if (c.bad || len > left || len < (e->is64 ? 8u : 4u))
		return CV_ENTRY_BAD;
	e->end = c.pos + len;
	e->id_off = c.pos;
	e->id = cv_uint(&c, e->is64 ? 8 : 4);
	e->body = c.pos;
	if (kind == CV_EH_FRAME) {
		e->is_cie = e->id == 0;
		/* gcc and ld never write 64-bit .eh_frame; no unwinder reads it. */
		if (e->is64)
			return CV_ENTRY_SKIP;
	} else {
		e->is_cie = e->id == (e->is64 ? ~(uint64_t)0 : 0xffffffffu);
	}
	return CV_ENTRY_OK;
}

/* The CIE an FDE entry names, as a section offset. */
bool cv_cie_of(const struct cv_cursor *sec, enum cv_kind kind, const struct cv_entry *e,
	       uint64_t *cie_off)
{
	if (kind == CV_EH_FRAME) {
		/* Relative to the pointer field, backwards. */
		if (e->id == 0 || e->id > e->id_off)
			return false;
		*cie_off = e->id_off - e->id;
	} else {
		if (e->id >= sec->end)
			return false;
		*cie_off = e->id;
	}
	return true;
}

/*
 * Augmentation letters: "z" first gives the data's length, so letters
 * after an unknown one can be stepped over; but only when "R" came before
 * it is the FDE's pointer encoding known (cv_parse_cie()). Without "z",
 * only "" and g++ 2's "eh" (a pointer follows the string) are understood.
 */
static bool cie_augmentation(const char *aug, unsigned int n, struct cv_cie *cie, bool *eh)
{
	unsigned int i = 0;

	*eh = n >= 2 && aug[0] == 'e' && aug[1] == 'h';
	if (*eh)
		i = 2;
	if (i == n)
		return true;
	if (aug[i] != 'z')
		return false;
	cie->aug_z = true;
	return true;
}

bool cv_parse_cie(struct cv_cursor *sec, const struct cv_entry *e, struct cv_cie *cie)
{
	struct cv_cursor c = *sec;
	char aug[16];
	unsigned int n = 0, i;
	uint8_t version, b;
	bool eh, have_r = false;
	uint64_t data_len = 0, data_end = 0;

	c.pos = e->body;
	c.end = e->end;
	c.bad = false;
	*cie = (struct cv_cie){ .off = e->off, .fde_enc = PE_ABSPTR };

	version = (uint8_t)cv_uint(&c, 1);
	if (version != 1 && version != 3 && version != 4)
		return false;
	for (;;) {
		cv_bytes(&c, &b, 1);
		if (c.bad)
			return false;
		if (b == 0)
			break;
		if (n == sizeof(aug))
			return false;
		aug[n++] = (char)b;
	}
	if (!cie_augmentation(aug, n, cie, &eh))
		return false;
	if (eh)
		cv_skip(&c, ADDR_SIZE);
	if (version == 4) {
		/* Address and segment selector sizes: only 8 and 0 here. */
		if (cv_uint(&c, 1) != ADDR_SIZE || cv_uint(&c, 1) != 0)
			return false;
	}
	cie->code_align = cv_uleb(&c);
	cie->data_align = cv_sleb(&c);
	cie->ra_col = version == 1 ? cv_uint(&c, 1) : cv_uleb(&c);
	if (c.bad)
		return false;
	if (cie->aug_z) {
		data_len = cv_uleb(&c);
		if (c.bad || data_len > c.end - c.pos)
			return false;
		data_end = c.pos + data_len;
		for (i = eh ? 3 : 1; i < n; i++) {
			switch (aug[i]) {
			case 'P':
				b = (uint8_t)cv_uint(&c, 1);
				if (!cv_skip_pointer(&c, b))
					return false;
				continue;
			case 'L':
				cv_skip(&c, 1);
				continue;
			case 'R':
				cie->fde_enc = (uint8_t)cv_uint(&c, 1);
				have_r = true;
				continue;
			case 'S':
				cie->signal = true;
				continue;
			case 'B':
				cie->bkey = true;
				continue;
			case 'G':
				/* AArch64 memory tagging: nothing for SFrame. */
				continue;
			default:
				break;
			}
			/* Unknown: the rest is skipped, if its encoding is known. */
			if (!have_r)
				return false;
			break;
		}
		if (c.bad || c.pos > data_end)
			return false;
		c.pos = data_end;
	}
	cie->insns = c.pos;
	cie->insns_end = e->end;
	return !c.bad;
}

bool cv_parse_fde(struct cv_cursor *sec, const struct cv_entry *e, const struct cv_cie *cie,
		  uint64_t cie_off, struct cv_fde *fde)
{
	struct cv_cursor c = *sec;
	uint64_t range, len;

	c.pos = e->body;
	c.end = e->end;
	c.bad = false;
	fde->off = e->off;
	fde->cie_off = cie_off;
	if (!cv_pointer(&c, cie->fde_enc, &fde->pc_begin))
		return false;
	/* The range is a plain number: the encoding's format, not its base. */
	switch (cie->fde_enc & 0x0f) {
	case PE_ULEB128:
		range = cv_uleb(&c);
		break;
	case PE_SLEB128:
		range = (uint64_t)cv_sleb(&c);
		break;
	case PE_UDATA2:
	case PE_SDATA2:
		range = cv_uint(&c, 2);
		break;
	case PE_UDATA4:
	case PE_SDATA4:
		range = cv_uint(&c, 4);
		break;
	default:
		range = cv_uint(&c, 8);
		break;
	}
	fde->pc_range = range;
	if (cie->aug_z) {
		len = cv_uleb(&c);
		cv_skip(&c, len);
	}
	fde->insns = c.pos;
	fde->insns_end = e->end;
	return !c.bad;
}

/* DW_OP_* bytes of the shapes recognised. */
#define OP_DEREF	0x06
#define OP_AND		0x1a
#define OP_PLUS		0x22
#define OP_SHL		0x24
#define OP_GE		0x2a
#define OP_LIT0		0x30
#define OP_BREG0	0x70
#define OP_BREGX	0x92

/* One DW_OP_breg<n> or DW_OP_bregx: register and offset. */
static bool breg(struct cv_cursor *c, uint32_t *reg, int64_t *off)
{
	uint8_t op = (uint8_t)cv_uint(c, 1);
	uint64_t r;

	if (op >= OP_BREG0 && op < OP_BREG0 + 32) {
		*reg = op - OP_BREG0;
	} else if (op == OP_BREGX) {
		r = cv_uleb(c);
		if (r > 0xffffffffu)
			return false;
		*reg = (uint32_t)r;
	} else {
		return false;
	}
	*off = cv_sleb(c);
	return !c->bad;
}

/*
 * Recognise an expression of @len bytes at the cursor: reg + off,
 * *(reg + off), or the x86-64 PLT's CFA. Nothing is evaluated; anything
 * else is CV_EXPR_OTHER. The cursor ends after the expression.
 */
void cv_expr_shape(struct cv_cursor *c, uint64_t len, struct cv_expr *x)
{
	static const uint8_t plt_tail[] = { OP_AND, 0, OP_GE, OP_LIT0 + 3, OP_SHL, OP_PLUS };
	struct cv_cursor e = *c;
	uint32_t reg;
	int64_t off;
	uint8_t b;
	unsigned int i;

	*x = (struct cv_expr){ .shape = CV_EXPR_OTHER };
	cv_skip(c, len);
	if (c->bad)
		return;
	e.end = c->pos;
	if (!breg(&e, &x->reg, &x->off))
		return;
	if (e.pos == e.end) {
		x->shape = CV_EXPR_BREG;
		return;
	}
	b = (uint8_t)cv_uint(&e, 1);
	if (b == OP_DEREF && e.pos == e.end) {
		x->shape = CV_EXPR_BREG_DEREF;
		return;
	}
	/* breg7 8; breg16 0; lit15; and; lit<k>; ge; lit3; shl; plus */
	e.pos--;
	if (x->reg != SFRAME_AMD64_DWARF_SP || x->off != 8 || !breg(&e, &reg, &off) ||
	    reg != SFRAME_AMD64_DWARF_RA || off != 0 || cv_uint(&e, 1) != OP_LIT0 + 15)
		return;
	for (i = 0; i < sizeof(plt_tail); i++) {
		b = (uint8_t)cv_uint(&e, 1);
		if (i == 1) {
			if (b <= OP_LIT0 || b >= OP_LIT0 + 16)
				return;
			x->k = (uint8_t)(b - OP_LIT0);
		} else if (b != plt_tail[i]) {
			return;
		}
	}
	if (!e.bad && e.pos == e.end)
		x->shape = CV_EXPR_PLT;
}
