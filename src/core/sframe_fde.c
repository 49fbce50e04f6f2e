/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * sframe_fde.c - function descriptor entries of every version.
 */
#include "sframe_decode.h"

int sf_fde_key(const struct sframe_section *sec, uint32_t index, int64_t *key, uint32_t *size)
{
	uint8_t tmp[SF_ENTRY_KEY_BYTES(true)];
	const uint8_t *b;
	uint64_t off;
	bool v3;
	int ret;

	if (index >= sec->num_fdes)
		return -SFRAME_ERR_INVAL;
	off = sec->fde_start + (uint64_t)index * sec->fde_size;
	v3 = sec->version == SFRAME_VERSION_3;
	ret = sf_view(sec, off, SF_ENTRY_KEY_BYTES(v3), tmp, -SFRAME_ERR_FDE, &b);
	if (ret)
		return ret;
	/* (The version again: not one more register kept across the read.) */
	v3 = sec->version == SFRAME_VERSION_3;
	*size = sf_entry_size(b, v3, sec->big_endian);
	/* A start past INT64_MAX sorts after every PC (see sf_fde_key() in sframe_internal.h). */
	if (sf_fde_offset(sec, sf_entry_start(b, v3, sec->big_endian), off + SFRAME_FDE_START, key))
		*key = SFRAME_INT64_MAX;
	return 0;
}

int sframe_get_fde(const struct sframe_section *sec, uint32_t index, struct sframe_fde *fde)
{
	return sf_decode_fde(sec, index, fde, 0);
}
