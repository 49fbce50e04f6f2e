/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * sframe_fde.c - function descriptor entries of every version.
 */
#include "sframe_decode.h"

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
	/* A start past INT64_MAX sorts after every PC (see sf_fde_key() in sframe_internal.h). */
	if (sf_fde_offset(sec, field, off + SFRAME_FDE_START, key))
		*key = SFRAME_INT64_MAX;
	return 0;
}

int sframe_get_fde(const struct sframe_section *sec, uint32_t index, struct sframe_fde *fde)
{
	return sf_decode_fde(sec, index, fde, 0);
}
