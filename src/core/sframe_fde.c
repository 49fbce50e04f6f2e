/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * sframe_fde.c - function descriptor entries of every version.
 */
#include "sframe_internal.h"

/*
 * The stored start is relative to the section start, or, with the PCREL
 * flag, to the start field itself. Either way, convert it to an offset from
 * the section start. A v3 start is 64 bits wide, so adding the field's
 * offset can overflow: such a section is corrupt, not something to wrap.
 */
static int fde_offset(const struct sframe_section *sec, int64_t field, uint64_t field_off,
		      int64_t *offset)
{
	if (!(sec->flags & SFRAME_F_FDE_FUNC_START_PCREL)) {
		*offset = field;
		return 0;
	}
	/* field_off < 2^33, far below INT64_MAX. */
	if (field > INT64_MAX - (int64_t)field_off)
		return -SFRAME_ERR_FDE;
	*offset = field + (int64_t)field_off;
	return 0;
}

int sf_fde_key(const struct sframe_section *sec, uint32_t index, int64_t *key, uint32_t *size)
{
	uint8_t tmp[12];
	const uint8_t *b;
	uint64_t off;
	int64_t field;
	int ret;

	if (index >= sec->num_fdes)
		return -SFRAME_ERR_INVAL;
	off = sec->fde_start + (uint64_t)index * sec->fde_size;
	if (sec->version == SFRAME_VERSION_3) {
		ret = sf_view(sec, off, 12, tmp, -SFRAME_ERR_FDE, &b);
		if (ret)
			return ret;
		field = sf_s64(sf_u64(sec, b));
		*size = sf_u32(sec, b + SFRAME_V3_FDE_SIZE_FIELD);
	} else {
		ret = sf_view(sec, off, 8, tmp, -SFRAME_ERR_FDE, &b);
		if (ret)
			return ret;
		field = sf_s32(sf_u32(sec, b));
		*size = sf_u32(sec, b + SFRAME_V12_FDE_SIZE_FIELD);
	}
	return fde_offset(sec, field, off + SFRAME_FDE_START, key);
}

/*
 * @assume: SFRAME_ASSUME_VALID_FDES skips the checks sframe_check() proved
 * (attribute record and FRE run inside the FRE area, FRE type, FDE type);
 * the reads stay bounds-checked and no arithmetic can overflow.
 */
static int get_fde(const struct sframe_section *sec, uint32_t index, struct sframe_fde *fde,
		   unsigned int assume)
{
	const bool check = !(assume & SFRAME_ASSUME_VALID_FDES);
	uint8_t tmp[SFRAME_V2_FDE_SIZE];
	const uint8_t *b;
	struct sframe_fde f = { 0 };
	uint64_t off, run;
	uint32_t fre_off;
	int ret;

	if (!sec || !fde || index >= sec->num_fdes)
		return -SFRAME_ERR_INVAL;
	off = sec->fde_start + (uint64_t)index * sec->fde_size;
	ret = sf_view(sec, off, sec->fde_size, tmp, -SFRAME_ERR_FDE, &b);
	if (ret)
		return ret;

	f.index = index;
	f.start_field_off = off + SFRAME_FDE_START;
	if (sec->version == SFRAME_VERSION_3) {
		uint8_t atmp[SFRAME_V3_FDE_ATTR_SIZE];
		const uint8_t *a;

		f.start_field = sf_s64(sf_u64(sec, b));
		f.func_size = sf_u32(sec, b + SFRAME_V3_FDE_SIZE_FIELD);
		fre_off = sf_u32(sec, b + SFRAME_V3_FDE_FRE_OFF);
		/* The attribute record must lie inside the FRE area. */
		if (check &&
		    (fre_off > sec->fre_len || SFRAME_V3_FDE_ATTR_SIZE > sec->fre_len - fre_off))
			return -SFRAME_ERR_FDE;
		ret = sf_view(sec, sec->fre_start + fre_off, sizeof(atmp), atmp, -SFRAME_ERR_FDE, &a);
		if (ret)
			return ret;
		f.num_fres = sf_u16(sec, a + SFRAME_V3_ATTR_NUM_FRES);
		f.info = a[SFRAME_V3_ATTR_INFO];
		f.info2 = a[SFRAME_V3_ATTR_INFO2];
		f.rep_size = a[SFRAME_V3_ATTR_REP_SIZE];
		run = (uint64_t)fre_off + SFRAME_V3_FDE_ATTR_SIZE;
	} else {
		f.start_field = sf_s32(sf_u32(sec, b));
		f.func_size = sf_u32(sec, b + SFRAME_V12_FDE_SIZE_FIELD);
		fre_off = sf_u32(sec, b + SFRAME_V12_FDE_FRE_OFF);
		f.num_fres = sf_u32(sec, b + SFRAME_V12_FDE_NUM_FRES);
		f.info = b[SFRAME_V12_FDE_INFO];
		if (sec->version == SFRAME_VERSION_2)
			f.rep_size = b[SFRAME_V2_FDE_REP_SIZE];
		run = fre_off;
	}
	/*
	 * Each FRE takes at least two bytes: a function claiming more FREs than
	 * its remaining area can hold is corrupt. This bounds every FRE loop
	 * by the section size as well as by the count.
	 */
	if (check && (run > sec->fre_len || (uint64_t)f.num_fres * 2 > sec->fre_len - run))
		return -SFRAME_ERR_FDE;
	f.fres_off = sec->fre_start + run;

	f.fre_type = (uint8_t)SFRAME_INFO_FRE_TYPE(f.info);
	/* (sf_parse_fre() refuses types 3..15 whatever the assume mask.) */
	if (check && f.fre_type > SFRAME_FRE_TYPE_ADDR4)
		return -SFRAME_ERR_FRE_TYPE;
	f.pc_type = (uint8_t)SFRAME_INFO_PC_TYPE(f.info);
	f.pauth_key = (uint8_t)SFRAME_INFO_PAUTH_KEY(f.info);
	if (sec->version == SFRAME_VERSION_3) {
		f.signal = SFRAME_INFO_SIGNAL(f.info);
		f.fde_type = (uint8_t)SFRAME_INFO2_FDE_TYPE(f.info2);
		if (check && f.fde_type > SFRAME_FDE_TYPE_FLEX)
			return -SFRAME_ERR_FDE_TYPE;
		/* FLEX rules exist for amd64 and s390x; aarch64 has none. */
		if (check && f.fde_type == SFRAME_FDE_TYPE_FLEX &&
		    (sec->abi == SFRAME_ABI_AARCH64_BE || sec->abi == SFRAME_ABI_AARCH64_LE))
			return -SFRAME_ERR_FDE_TYPE;
	}

	ret = fde_offset(sec, f.start_field, f.start_field_off, &f.func_offset);
	if (ret)
		return ret;
	/*
	 * The run-time address is vaddr + offset modulo 2^64: a raw section
	 * opened at the wrong vaddr (0 by default) has functions "below" it,
	 * and must still dump. Lookups never wrap (sframe_lookup() checks
	 * containment on addresses); the offset range itself may not overflow.
	 */
	f.func_start = sec->vaddr + (uint64_t)f.func_offset;
	if (f.func_size && f.func_offset > INT64_MAX - (int64_t)(f.func_size - 1))
		return -SFRAME_ERR_FDE;

	*fde = f;
	return 0;
}

int sframe_get_fde(const struct sframe_section *sec, uint32_t index, struct sframe_fde *fde)
{
	return get_fde(sec, index, fde, 0);
}

int sf_lookup_fde(const struct sframe_section *sec, uint32_t index, struct sframe_fde *fde)
{
	return get_fde(sec, index, fde, SF_LOOKUP_ASSUME);
}
