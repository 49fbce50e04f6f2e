/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * perf_data.h - read a perf.data file as written by "perf record" (hosted
 * tool): the file header, the event attributes with their sample ids, and
 * the records of the data section, one at a time and in place.
 *
 * The file is mapped read-only (see sf_input_bytes()), or is the caller's
 * bytes (sf_perf_open_bytes()); records are handed out as pointers into
 * it, never copied. A file written on a host of the other byte order is
 * read as it is: every field is decoded in the writer's byte order, which
 * the magic tells. Every offset and size taken from the
 * file is checked against the file (and a record's fields against the
 * record) before a byte behind it is read, overflow first.
 *
 * Both layouts perf writes are read, and sf_perf_open() tells them apart:
 *   - the "file" layout (perf record -o FILE): a header (magic PERFILE2)
 *     giving the attribute and data sections, then the feature sections
 *     behind the data section, found by a table of (offset, size) pairs
 *     that follows the data section, one per bit set in the header's
 *     feature bitmap, in bit order;
 *   - the "pipe" layout (perf record -o - > FILE): a 16-byte header (the
 *     same magic, then its own size, 16), then records only. perf's own
 *     records carry what the file layout has in sections: HEADER_ATTR (an
 *     event's attribute, then its ids), HEADER_FEATURE (a feature id, then
 *     the feature's section bytes), HEADER_BUILD_ID (one build id).
 * After sf_perf_open() the two look alike: the events, their ids and
 * names, the architecture and the build ids are known, and sf_perf_next() iterates the
 * records (in the pipe layout: all records after the 16-byte header,
 * perf's own included).
 *
 * Only uncompressed data is read: sf_perf_next() refuses a COMPRESSED
 * record (perf record -z) with SF_PERF_EUNSUPPORTED when it meets one.
 */
#ifndef SFRAME_TOOL_PERF_DATA_H
#define SFRAME_TOOL_PERF_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "read/elf_input.h"

/* Return values: 0 (or 1 from sf_perf_next()) on success, else one of these. */
#define SF_PERF_EIO		(-1)	/* the file could not be read */
#define SF_PERF_EFORMAT		(-2)	/* its content is not a valid perf.data file */
#define SF_PERF_ENOMEM		(-3)	/* out of memory */
#define SF_PERF_EUNSUPPORTED	(-4)	/* valid, but a feature not read here (compression) */

/* Record types (perf_event_header.type) decoded here. */
#define SF_PERF_RECORD_MMAP	1
#define SF_PERF_RECORD_LOST	2
#define SF_PERF_RECORD_COMM	3
#define SF_PERF_RECORD_EXIT	4
#define SF_PERF_RECORD_FORK	7
#define SF_PERF_RECORD_SAMPLE	9
#define SF_PERF_RECORD_MMAP2	10

/*
 * Record types of perf's own records (perf writes them, the kernel never
 * does): every type from SF_PERF_RECORD_HEADER_ATTR on.
 */
#define SF_PERF_RECORD_HEADER_ATTR		64
#define SF_PERF_RECORD_HEADER_EVENT_TYPE	65
#define SF_PERF_RECORD_HEADER_TRACING_DATA	66
#define SF_PERF_RECORD_HEADER_BUILD_ID		67
#define SF_PERF_RECORD_FINISHED_ROUND		68
#define SF_PERF_RECORD_ID_INDEX			69
#define SF_PERF_RECORD_AUXTRACE_INFO		70
#define SF_PERF_RECORD_AUXTRACE			71
#define SF_PERF_RECORD_AUXTRACE_ERROR		72
#define SF_PERF_RECORD_THREAD_MAP		73
#define SF_PERF_RECORD_CPU_MAP			74
#define SF_PERF_RECORD_STAT_CONFIG		75
#define SF_PERF_RECORD_STAT			76
#define SF_PERF_RECORD_STAT_ROUND		77
#define SF_PERF_RECORD_EVENT_UPDATE		78
#define SF_PERF_RECORD_TIME_CONV		79
#define SF_PERF_RECORD_HEADER_FEATURE		80
#define SF_PERF_RECORD_COMPRESSED		81
#define SF_PERF_RECORD_FINISHED_INIT		82
#define SF_PERF_RECORD_COMPRESSED2		83

/* Feature bits (of the file header's bitmap, and HEADER_FEATURE's ids) read here. */
#define SF_PERF_FEAT_BUILD_ID	2
#define SF_PERF_FEAT_ARCH	6
#define SF_PERF_FEAT_EVENT_DESC	12

/* The size of a build id's bytes in a build id record (SHA-1's). */
#define SF_PERF_BUILD_ID_MAX	20

/* perf_event_attr.sample_type bits, in the order a sample lays them out. */
#define SF_PERF_SAMPLE_IP		(1ULL << 0)
#define SF_PERF_SAMPLE_TID		(1ULL << 1)
#define SF_PERF_SAMPLE_TIME		(1ULL << 2)
#define SF_PERF_SAMPLE_ADDR		(1ULL << 3)
#define SF_PERF_SAMPLE_READ		(1ULL << 4)
#define SF_PERF_SAMPLE_CALLCHAIN	(1ULL << 5)
#define SF_PERF_SAMPLE_ID		(1ULL << 6)
#define SF_PERF_SAMPLE_CPU		(1ULL << 7)
#define SF_PERF_SAMPLE_PERIOD		(1ULL << 8)
#define SF_PERF_SAMPLE_STREAM_ID	(1ULL << 9)
#define SF_PERF_SAMPLE_RAW		(1ULL << 10)
#define SF_PERF_SAMPLE_BRANCH_STACK	(1ULL << 11)
#define SF_PERF_SAMPLE_REGS_USER	(1ULL << 12)
#define SF_PERF_SAMPLE_STACK_USER	(1ULL << 13)
#define SF_PERF_SAMPLE_WEIGHT		(1ULL << 14)
#define SF_PERF_SAMPLE_DATA_SRC		(1ULL << 15)
#define SF_PERF_SAMPLE_IDENTIFIER	(1ULL << 16)
#define SF_PERF_SAMPLE_TRANSACTION	(1ULL << 17)
#define SF_PERF_SAMPLE_REGS_INTR	(1ULL << 18)
#define SF_PERF_SAMPLE_PHYS_ADDR	(1ULL << 19)
#define SF_PERF_SAMPLE_AUX		(1ULL << 20)
#define SF_PERF_SAMPLE_CGROUP		(1ULL << 21)
#define SF_PERF_SAMPLE_DATA_PAGE_SIZE	(1ULL << 22)
#define SF_PERF_SAMPLE_CODE_PAGE_SIZE	(1ULL << 23)
#define SF_PERF_SAMPLE_WEIGHT_STRUCT	(1ULL << 24)

/* perf_event_attr.read_format bits. */
#define SF_PERF_FORMAT_TOTAL_TIME_ENABLED	(1ULL << 0)
#define SF_PERF_FORMAT_TOTAL_TIME_RUNNING	(1ULL << 1)
#define SF_PERF_FORMAT_ID			(1ULL << 2)
#define SF_PERF_FORMAT_GROUP			(1ULL << 3)
#define SF_PERF_FORMAT_LOST			(1ULL << 4)

/* perf_event_attr.branch_sample_type bits that change a sample's layout. */
#define SF_PERF_BRANCH_HW_INDEX		(1ULL << 17)
#define SF_PERF_BRANCH_COUNTERS		(1ULL << 19)

/* Values of a sample's register ABI word (no registers follow for NONE). */
#define SF_PERF_REGS_ABI_NONE	0
#define SF_PERF_REGS_ABI_32	1
#define SF_PERF_REGS_ABI_64	2

/**
 * struct sf_perf_attr - one event's attributes, as the file gives them.
 * @type: perf_event_attr.type.
 * @size: perf_event_attr.size (an old file's 0 read as 64, the first size).
 * @config: perf_event_attr.config.
 * @sample_period: perf_event_attr.sample_period: a sample's period when
 *	@sample_type has no SF_PERF_SAMPLE_PERIOD (a fixed period; with
 *	@freq set it is a frequency and every sample carries its period).
 * @freq: perf_event_attr.freq.
 * @sample_type: SF_PERF_SAMPLE_* bits.
 * @read_format: SF_PERF_FORMAT_* bits.
 * @branch_sample_type: 0 when @size ends before it.
 * @sample_regs_user: the user registers a sample carries, by bit (0 when
 *	@size ends before it).
 * @sample_stack_user: bytes of user stack requested per sample (0 likewise).
 * @sample_regs_intr: the interrupted registers a sample carries (0 likewise).
 * @sample_id_all: records other than samples end with a sample id trailer.
 * @attr_off: file offset of the attribute (in the attribute section, or
 *	in its HEADER_ATTR record).
 * @ids_off: file offset of the event's ids (u64 each).
 * @nids: their number.
 * @name: the event as perf record was told it ("cycles:u",
 *	"cpu-clock"), from the EVENT_DESC feature, NUL-terminated inside the
 *	file; NULL when the file does not say.
 */
struct sf_perf_attr {
	uint32_t type;
	uint32_t size;
	uint64_t config;
	uint64_t sample_period;
	bool freq;
	uint64_t sample_type;
	uint64_t read_format;
	uint64_t branch_sample_type;
	uint64_t sample_regs_user;
	uint32_t sample_stack_user;
	uint64_t sample_regs_intr;
	bool sample_id_all;
	uint64_t attr_off;
	uint64_t ids_off;
	uint64_t nids;
	const char *name;
};

/**
 * struct sf_perf_build_id - one build id perf recorded for a file it saw
 *	(a HEADER_BUILD_ID record, or an entry of the build id feature).
 * @offset: the file offset of its record.
 * @pid: the process it was seen in (-1 for the kernel, or any).
 * @misc: the record's misc field (cpumode: kernel, user, guest).
 * @size: the length of @id: the record's own when misc bit
 *	PERF_RECORD_MISC_BUILD_ID_SIZE is set, else 20 (at most 20).
 * @id: its bytes, inside the file.
 * @filename: the file's name, NUL-terminated, inside the file.
 */
struct sf_perf_build_id {
	uint64_t offset;
	int32_t pid;
	uint16_t misc;
	uint8_t size;
	const unsigned char *id;
	const char *filename;
};

/**
 * struct sf_perf_file - an open perf.data file.
 * @path: the name given to sf_perf_open(), for messages (not copied).
 * @in: the file's bytes (@in.file, @in.file_size).
 * @borrowed: @in's bytes are the caller's (sf_perf_open_bytes()): not
 *	released by sf_perf_close().
 * @be: the writer was big-endian.
 * @pipe: the file has the pipe layout (see above); @header_size is then 16
 *	and the attribute section fields and @features are zero.
 * @unfinished: a file-layout header whose data size is 0: perf record was
 *	stopped before it rewrote the header at its end (killed, or out of
 *	space). perf (6.1, 7.2) warns and reads no record of such a file;
 *	here the data section is taken to run to the end of the file, so
 *	that what was written can be read, and no feature section is read
 *	(the table was never written: @features is zeroed, as perf does).
 * @header_size: the file header's size: 104, or 72 in files older than the
 *	feature bitmap (16 in the pipe layout).
 * @attr_entry_size: the size of one entry of the attribute section.
 * @attrs_off: the attribute section.
 * @attrs_size: its size.
 * @data_off: the data section (the records; in the pipe layout, all that
 *	follows the 16-byte header).
 * @data_size: its size (with @pipe or @unfinished: to the end of the
 *	file, where the last record may be cut short; see sf_perf_next()).
 * @features: the header's feature bitmap (which feature sections follow
 *	the data section), zero in a 72-byte header.
 * @arch: the recording machine's architecture as uname -m names it
 *	("x86_64", "aarch64", "s390x"; from the ARCH feature), NUL-terminated
 *	inside the file, or NULL when the file does not say.
 * @build_ids: the build ids of the BUILD_ID feature (file layout) or of
 *	the HEADER_BUILD_ID records and build id feature records (pipe
 *	layout), in file order (owned).
 * @nbuild_ids: their number.
 * @attrs: the events (owned).
 * @nattrs: their number (at least one).
 * @ids: every event id, sorted, with the index of its event in @attrs (owned).
 * @nids: their number.
 * @event_desc_off: the EVENT_DESC feature's bytes (the events' names),
 *	read once the events are known.
 * @event_desc_size: their size (0: no such feature).
 */
struct sf_perf_file {
	const char *path;
	struct sf_input in;
	bool borrowed;
	bool be;
	bool pipe;
	bool unfinished;
	uint64_t header_size;
	uint64_t attr_entry_size;
	uint64_t attrs_off;
	uint64_t attrs_size;
	uint64_t data_off;
	uint64_t data_size;
	uint64_t features[4];
	const char *arch;
	struct sf_perf_build_id *build_ids;
	size_t nbuild_ids;
	struct sf_perf_attr *attrs;
	size_t nattrs;
	struct sf_perf_id {
		uint64_t id;
		size_t attr;
	} *ids;
	size_t nids;
	uint64_t event_desc_off;
	uint64_t event_desc_size;
};

/**
 * struct sf_perf_record - one record of the data section, in place.
 * @type: perf_event_header.type (any value: unknown types are the
 *	caller's to skip).
 * @misc: perf_event_header.misc.
 * @size: the record's size, header included (at least the header's 8).
 * @offset: the record's file offset.
 * @bytes: its @size bytes, header included, inside the mapped file.
 * @payload: the bytes that follow the record outside its @size, which
 *	perf skips with it: the tracing data of HEADER_TRACING_DATA (its
 *	size field's count), the trace data of AUXTRACE (likewise); NULL for
 *	other types.
 * @payload_size: their number (0 for other types).
 */
struct sf_perf_record {
	uint32_t type;
	uint16_t misc;
	uint16_t size;
	uint64_t offset;
	const unsigned char *bytes;
	const unsigned char *payload;
	uint64_t payload_size;
};

/**
 * struct sf_perf_sample_id - the fields a sample id trailer may carry.
 * @present: which of them the record had: SF_PERF_SAMPLE_TID, _TIME, _ID
 *	(also set by _IDENTIFIER), _STREAM_ID, _CPU bits; 0 without a trailer.
 * @pid: process id.
 * @tid: thread id.
 * @time: timestamp.
 * @id: event id.
 * @stream_id: stream id.
 * @cpu: cpu.
 */
struct sf_perf_sample_id {
	uint64_t present;
	uint32_t pid;
	uint32_t tid;
	uint64_t time;
	uint64_t id;
	uint64_t stream_id;
	uint32_t cpu;
};

/**
 * struct sf_perf_sample - a decoded PERF_RECORD_SAMPLE.
 * @attr: the event it belongs to.
 * @sid: the fields a sample shares with a sample id trailer (pid, tid,
 *	time, id, stream_id, cpu), @sid.present saying which the sample has.
 * @ip: SF_PERF_SAMPLE_IP.
 * @addr: SF_PERF_SAMPLE_ADDR.
 * @period: SF_PERF_SAMPLE_PERIOD, else the event's fixed sample_period.
 * @callchain_nr: SF_PERF_SAMPLE_CALLCHAIN: number of entries.
 * @callchain: their bytes (u64 each in the file's byte order: sf_perf_u64()).
 * @raw_size: SF_PERF_SAMPLE_RAW: bytes of raw data.
 * @raw: the raw data.
 * @regs_abi: SF_PERF_SAMPLE_REGS_USER: SF_PERF_REGS_ABI_*.
 * @nregs: registers in @regs: one per set bit of the event's
 *	sample_regs_user, lowest bit first; 0 when @regs_abi is NONE.
 * @regs: their values.
 * @stack_size: SF_PERF_SAMPLE_STACK_USER: bytes of stack copied (the
 *	size recorded, of which @stack_dyn_size are valid).
 * @stack: the copy, starting at the sampled stack pointer; its words are
 *	in the sampled program's byte order.
 * @stack_dyn_size: how many bytes of @stack the kernel filled (at most
 *	@stack_size; 0 when @stack_size is 0).
 * @data_src: SF_PERF_SAMPLE_DATA_SRC.
 */
struct sf_perf_sample {
	const struct sf_perf_attr *attr;
	struct sf_perf_sample_id sid;
	uint64_t ip;
	uint64_t addr;
	uint64_t period;
	uint64_t callchain_nr;
	const unsigned char *callchain;
	uint32_t raw_size;
	const unsigned char *raw;
	uint64_t regs_abi;
	uint32_t nregs;
	uint64_t regs[64];
	uint64_t stack_size;
	const unsigned char *stack;
	uint64_t stack_dyn_size;
	uint64_t data_src;
};

/**
 * struct sf_perf_mmap - a decoded PERF_RECORD_MMAP or PERF_RECORD_MMAP2.
 * @sid: the sample id trailer.
 * @pid: process id.
 * @tid: thread id.
 * @addr: start of the mapping.
 * @len: its length.
 * @pgoff: file offset of its first byte.
 * @has_build_id: MMAP2 carrying a build id instead of device and inode
 *	(misc bit PERF_RECORD_MISC_MMAP_BUILD_ID).
 * @maj: MMAP2 device major (without build id).
 * @min: MMAP2 device minor.
 * @ino: MMAP2 inode.
 * @ino_generation: MMAP2 inode generation.
 * @build_id_size: MMAP2 with build id: its length (at most 20).
 * @build_id: its bytes.
 * @prot: MMAP2 PROT_* bits.
 * @flags: MMAP2 MAP_* bits.
 * @filename: NUL-terminated, inside the file.
 */
struct sf_perf_mmap {
	struct sf_perf_sample_id sid;
	uint32_t pid;
	uint32_t tid;
	uint64_t addr;
	uint64_t len;
	uint64_t pgoff;
	bool has_build_id;
	uint32_t maj;
	uint32_t min;
	uint64_t ino;
	uint64_t ino_generation;
	uint8_t build_id_size;
	const unsigned char *build_id;
	uint32_t prot;
	uint32_t flags;
	const char *filename;
};

/**
 * struct sf_perf_comm - a decoded PERF_RECORD_COMM.
 * @sid: the sample id trailer.
 * @pid: process id.
 * @tid: thread id.
 * @comm: the new name, NUL-terminated, inside the file.
 */
struct sf_perf_comm {
	struct sf_perf_sample_id sid;
	uint32_t pid;
	uint32_t tid;
	const char *comm;
};

/**
 * struct sf_perf_task - a decoded PERF_RECORD_FORK or PERF_RECORD_EXIT.
 * @sid: the sample id trailer.
 * @pid: process id.
 * @ppid: parent process id.
 * @tid: thread id.
 * @ptid: parent thread id.
 * @time: timestamp.
 */
struct sf_perf_task {
	struct sf_perf_sample_id sid;
	uint32_t pid;
	uint32_t ppid;
	uint32_t tid;
	uint32_t ptid;
	uint64_t time;
};

/**
 * struct sf_perf_lost - a decoded PERF_RECORD_LOST.
 * @sid: the sample id trailer.
 * @id: the event id.
 * @lost: how many records were lost.
 */
struct sf_perf_lost {
	struct sf_perf_sample_id sid;
	uint64_t id;
	uint64_t lost;
};

/**
 * sf_perf_open() - map @path and read its header, event attributes and
 *	the features read here (architecture, build ids), in either layout.
 * @path: the file (kept for messages: must outlive @f).
 * @f: filled on success; all zero on failure.
 * @err: "PATH: message" on failure (with the file offset at fault).
 * @errlen: size of @err.
 *
 * In the pipe layout every record is looked at once here, wherever it is:
 * HEADER_ATTR records add their event (one met after samples adds it
 * too, so the events are the same whatever the order), HEADER_FEATURE
 * records give features, HEADER_BUILD_ID records build ids. The look
 * stops quietly where sf_perf_next() would stop (the end, a cut-short
 * record) or fail (the error is then the iteration's to report), so that a
 * stream with a bad record in its middle still opens. Unknown features
 * are ignored; a feature read here that does not decode, or a feature
 * section outside the file, makes the file invalid (as perf does for
 * the latter).
 *
 * Return: 0, SF_PERF_EIO, SF_PERF_EFORMAT or SF_PERF_ENOMEM.
 */
int sf_perf_open(const char *path, struct sf_perf_file *f, char *err, size_t errlen);

/**
 * sf_perf_open_bytes() - sf_perf_open() of a perf.data file already in memory.
 * @bytes: the file's bytes (not copied: must outlive @f; never written).
 * @size: their number.
 * @name: the name for messages (must outlive @f).
 * @f: filled on success; all zero on failure.
 * @err: "NAME: message" on failure.
 * @errlen: size of @err.
 *
 * Return: 0, SF_PERF_EFORMAT or SF_PERF_ENOMEM.
 */
int sf_perf_open_bytes(const void *bytes, size_t size, const char *name, struct sf_perf_file *f,
		       char *err, size_t errlen);

/**
 * sf_perf_close() - release @f.
 * @f: opened, or zeroed by a failed open; zeroed again.
 */
void sf_perf_close(struct sf_perf_file *f);

/**
 * sf_perf_next() - the record at a position of the data section.
 * @f: an open file.
 * @pos: the record's offset from the data section's start (0 for the
 *	first); advanced past it on success.
 * @rec: filled on success.
 * @err: message on failure.
 * @errlen: its size.
 *
 * With @f->pipe or @f->unfinished, the data section ends at the end of the
 * file, where the writer may have stopped in the middle of a record: a
 * record (or its payload) cut short there is the end of the records, as
 * perf reads a pipe (it ends its reading with a message, not an error).
 * *@pos is then left at that record, below @f->data_size, which tells the
 * caller that a partial record was left out.
 *
 * Return: 1 with @rec filled, 0 at the end of the data section,
 * SF_PERF_EFORMAT for a record shorter than its header, or whose size (or
 * payload: see &struct sf_perf_record) runs past the data section in the
 * file layout, or too short for its payload's size field,
 * SF_PERF_EUNSUPPORTED for a COMPRESSED record ("compressed records (perf
 * record -z) are not supported"): the iteration cannot go on.
 */
int sf_perf_next(const struct sf_perf_file *f, uint64_t *pos, struct sf_perf_record *rec,
		 char *err, size_t errlen);

/**
 * sf_perf_record_is_header() - whether a record type is one of perf's own.
 * @type: perf_event_header.type.
 *
 * perf's own records (SF_PERF_RECORD_HEADER_ATTR and later types: event
 * attributes, features, build ids, FINISHED_ROUND, FINISHED_INIT, ...)
 * describe the recording or order its stream; the kernel never writes
 * them, and what sf_perf_open() needs of them it has read.
 *
 * Return: true for those types.
 */
bool sf_perf_record_is_header(uint32_t type);

/**
 * sf_perf_u64() - a u64 of the file, such as a callchain entry.
 * @f: the file.
 * @p: its first byte.
 *
 * Return: the value, in host order.
 */
uint64_t sf_perf_u64(const struct sf_perf_file *f, const unsigned char *p);

/**
 * sf_perf_attr_of_id() - the event an id belongs to.
 * @f: the file.
 * @id: an event id.
 *
 * Return: the event, or NULL when no event has @id. Id 0, which the kernel
 * never gives, is that of the records perf made itself (the trailers of
 * synthesized MMAP and COMM records): the first event, as for perf.
 */
const struct sf_perf_attr *sf_perf_attr_of_id(const struct sf_perf_file *f, uint64_t id);

/*
 * The decoders of the records: 0 with the result filled, or SF_PERF_EFORMAT
 * with "PATH: offset 0x...: message" in @err when a field runs past the
 * record, a string is not terminated, or the record's event is unknown.
 * Fields the event's attributes do not select are left zero; the sample id
 * trailer is read only when the events set sample_id_all.
 */
int sf_perf_decode_sample(const struct sf_perf_file *f, const struct sf_perf_record *rec,
			  struct sf_perf_sample *s, char *err, size_t errlen);
int sf_perf_decode_mmap(const struct sf_perf_file *f, const struct sf_perf_record *rec,
			struct sf_perf_mmap *m, char *err, size_t errlen);
int sf_perf_decode_comm(const struct sf_perf_file *f, const struct sf_perf_record *rec,
			struct sf_perf_comm *c, char *err, size_t errlen);
int sf_perf_decode_task(const struct sf_perf_file *f, const struct sf_perf_record *rec,
			struct sf_perf_task *t, char *err, size_t errlen);
int sf_perf_decode_lost(const struct sf_perf_file *f, const struct sf_perf_record *rec,
			struct sf_perf_lost *l, char *err, size_t errlen);
/*
 * A HEADER_BUILD_ID record: pid, 20 bytes of build id then its size byte
 * and reserved bytes, then the NUL-terminated file name filling the
 * record. Also refused: a size above 20.
 */
int sf_perf_decode_build_id(const struct sf_perf_file *f, const struct sf_perf_record *rec,
			    struct sf_perf_build_id *b, char *err, size_t errlen);

#endif /* SFRAME_TOOL_PERF_DATA_H */
