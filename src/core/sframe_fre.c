/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * sframe_fre.c - frame row entries: decoding and the per-ABI rules.
 */
#include "sframe_decode.h"

int sframe_fre_iter_init(const struct sframe_section *sec, const struct sframe_fde *fde,
			 struct sframe_fre_iter *it)
{
	if (!sec || !fde || !it || fde->fre_type > SFRAME_FRE_TYPE_ADDR4)
		return -SFRAME_ERR_INVAL;
	it->off = fde->fres_off;
	it->end = sec->fre_start + sec->fre_len;
	it->next = 0;
	it->count = fde->num_fres;
	it->fre_type = fde->fre_type;
	return 0;
}

int sframe_fre_iter_next(const struct sframe_section *sec, struct sframe_fre_iter *it,
			 struct sframe_fre *fre)
{
	uint8_t b[SF_FRE_MAX_BYTES];
	uint64_t left;
	size_t n;
	int ret;

	if (!sec || !it || !fre)
		return -SFRAME_ERR_INVAL;
	if (it->next >= it->count)
		return 0;
	if (it->off > it->end || it->end > sec->size)
		return -SFRAME_ERR_INVAL;
	left = it->end - it->off;
	if (left < SF_FRE_MIN_BYTES)
		return -SFRAME_ERR_FRE;
	n = left < sizeof(b) ? (size_t)left : sizeof(b);
	ret = sf_read(sec, it->off, b, n, -SFRAME_ERR_FRE);
	if (ret)
		return ret;
	ret = sf_decode_fre(sec, it->fre_type, b, n, fre, 0);
	if (ret < 0)
		return ret;
	it->off += (unsigned int)ret;
	it->next++;
	return 1;
}

int sf_rep_size(const struct sframe_section *sec, const struct sframe_fde *fde)
{
	if (sec->version == SFRAME_VERSION_1) {
		/*
		 * v1 has no repetition size. Its only PCMASK producer is the
		 * amd64 linker's description of 16-byte PLT entries, so that is
		 * the block size used there; elsewhere the meaning is unknown.
		 */
		if (sec->abi == SFRAME_ABI_AMD64_LE)
			return 16;
		return -SFRAME_ERR_UNSUPPORTED;
	}
	if (fde->rep_size == 0)
		return -SFRAME_ERR_REP_SIZE;
	return fde->rep_size;
}

int sframe_fre_rules(const struct sframe_section *sec, const struct sframe_fde *fde,
		     const struct sframe_fre *fre, struct sframe_rules *rules)
{
	return sf_decode_rules(sec, fde, fre, rules, 0);
}
