#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause
"""Write fuzz-convert's seeds, fuzz/corpus/convert/seed-*, from the fixtures.

Usage: fuzz/make-convert-corpus.py   (from anywhere; rewrites the seed-*
files of fuzz/corpus/convert/ only)

The input format is the comment at the top of fuzz/fuzz_convert.c: a
43-byte option prefix (machine, version, sections, .eh_frame address,
sframe_addr, text ranges), then the CFI bytes. Seeds:
  real-*: the .eh_frame of every linked fixture (fixtures/v2-*, v3-*,
      lld-x86_64, symbols, reencode, perf) at its own address, with the
      file's .sframe address and executable PT_LOAD segments; and
      .debug_frame alone and after .eh_frame where a fixture has one (lld);
  obj-*: the relocatable objects' .eh_frame with their relocations applied
      (each code section placed at an address of its own);
  chunk-*: the big .eh_frame of the static unwind fixtures (glibc's CFI),
      cut into pieces of at most 8 KB at entry boundaries (CI fuzzes with
      -max_len=8192), each piece preceded by copies of the CIEs its FDEs use,
      CIE pointers and PC-relative starts rewritten for the new offsets;
  be-*: AArch64 fixtures' .eh_frame rewritten big-endian, field by field;
  hostile-*: hand-made CFI: hundreds of remember_state, a huge
      advance_loc4, lengths and offsets past the end, the 64-bit length
      escape, CIE pointers to the FDE itself / forward / outside, pointer
      encodings out of range (0x0d, aligned, indirect, omit), unknown
      augmentations with and without "z", LEB128 numbers of 11 and more
      bytes, a pc_range near 2^64, zero terminators in the middle, and the
      rules SFrame cannot say (expressions, other registers, PAuth).
Deterministic: the same fixtures give the same files.
"""
import os
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIX = os.path.join(ROOT, 'fixtures')
OUT = os.path.join(ROOT, 'fuzz', 'corpus', 'convert')

PREFIX_LEN = 43
MAX_LEN = 8192
CHUNK = MAX_LEN - PREFIX_LEN

M_X86_64, M_AARCH64, M_AARCH64_BE, M_S390X = 0, 1, 2, 3
EM = {62: M_X86_64, 183: M_AARCH64, 22: M_S390X}
VERSION_CODE = {3: 0, 2: 1, 0: 2}
S_EH, S_DEBUG, S_BOTH, S_SAME = 0, 1, 2, 3
MASK64 = (1 << 64) - 1


def prefix(mach, version, sections, addr, sframe_addr, texts=(), split=0):
    """The option prefix of fuzz_convert.c; texts: (start, end) addresses."""
    texts = list(texts)[:3]
    mode = mach | VERSION_CODE[version] << 2 | sections << 4 | len(texts) << 6
    out = struct.pack('<BHQQ', mode, split, addr & MASK64, (sframe_addr - addr) & MASK64)
    for i in range(3):
        if i < len(texts):
            off = texts[i][0] - addr
            assert -(1 << 31) <= off < (1 << 31), 'text range too far from .eh_frame'
            out += struct.pack('<iI', off, (texts[i][1] - texts[i][0]) & 0xffffffff)
        else:
            out += struct.pack('<iI', 0, 0)
    assert len(out) == PREFIX_LEN
    return out


def write(name, data):
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, 'seed-' + name), 'wb') as f:
        f.write(data)


# ---- ELF ---------------------------------------------------------------------

class Elf:
    """Sections, segments, symbols and relocations of a 64-bit ELF file."""

    def __init__(self, path):
        d = open(path, 'rb').read()
        assert d[:4] == b'\x7fELF' and d[4] == 2, path
        self.d = d
        self.be = d[5] == 2
        self.e = '>' if self.be else '<'
        e = self.e
        (self.type, self.machine) = struct.unpack_from(e + 'HH', d, 16)
        phoff, shoff = struct.unpack_from(e + 'QQ', d, 32)
        phentsize, phnum, shentsize, shnum, shstrndx = struct.unpack_from(e + 'HHHHH', d, 54)
        self.secs = []
        for i in range(shnum):
            f = struct.unpack_from(e + 'IIQQQQIIQQ', d, shoff + i * shentsize)
            self.secs.append({'name_off': f[0], 'type': f[1], 'flags': f[2], 'addr': f[3],
                              'off': f[4], 'size': f[5], 'link': f[6], 'info': f[7]})
        strtab = self.secs[shstrndx]
        for s in self.secs:
            a = strtab['off'] + s['name_off']
            s['name'] = d[a:d.index(b'\0', a)].decode()
        self.loads = []
        for i in range(phnum):
            ptype, pflags, poff, pvaddr, ppaddr, pfilesz, pmemsz = struct.unpack_from(
                e + 'IIQQQQQ', d, phoff + i * phentsize)
            if ptype == 1 and pflags & 1:
                self.loads.append((pvaddr, pvaddr + pmemsz))

    def sec(self, name):
        for s in self.secs:
            if s['name'] == name:
                return s
        return None

    def data(self, s):
        return self.d[s['off']:s['off'] + s['size']]

    def symbols(self):
        st = next(s for s in self.secs if s['type'] == 2)
        out = []
        for i in range(st['size'] // 24):
            name, info, other, shndx, value, size = struct.unpack_from(
                self.e + 'IBBHQQ', self.d, st['off'] + 24 * i)
            out.append((shndx, value))
        return out


# ---- CFI parsing ---------------------------------------------------------------

def uleb(d, p):
    v = shift = 0
    while True:
        b = d[p]
        p += 1
        v |= (b & 0x7f) << shift
        shift += 7
        if not b & 0x80:
            return v, p


def sleb(d, p):
    v = shift = 0
    while True:
        b = d[p]
        p += 1
        v |= (b & 0x7f) << shift
        shift += 7
        if not b & 0x80:
            if b & 0x40:
                v -= 1 << shift
            return v, p


def enc_size(enc):
    """Bytes of a pointer of this encoding, or None (LEB128)."""
    return {0x0: 8, 0x2: 2, 0x3: 4, 0x4: 8, 0xa: 2, 0xb: 4, 0xc: 8}.get(enc & 0x0f)


def entries(d, e):
    """(offset, length in bytes with the length field, is_cie, cie_offset) per entry."""
    out = []
    p = 0
    while p + 4 <= len(d):
        (ln,) = struct.unpack_from(e + 'I', d, p)
        if ln == 0:
            break
        assert ln != 0xffffffff
        (cid,) = struct.unpack_from(e + 'I', d, p + 4)
        out.append((p, ln + 4, cid == 0, p + 4 - cid if cid else None))
        p += ln + 4
    return out


def parse_cie(d, p, e):
    """The CIE at p: its fields, and where its instructions start."""
    ver = d[p + 8]
    q = p + 9
    aug_end = d.index(b'\0', q)
    aug = d[q:aug_end].decode('latin-1')
    q = aug_end + 1
    if 'eh' in aug:
        q += 8
    code, q = uleb(d, q)
    data, q = sleb(d, q)
    if ver == 1:
        q += 1
    else:
        _, q = uleb(d, q)
    cie = {'aug': aug, 'r': 0, 'l': None, 'p_at': None, 'p_enc': None}
    if aug.startswith('z'):
        alen, q = uleb(d, q)
        a = q
        for c in aug[1:]:
            if c == 'R':
                cie['r'] = d[a]
                a += 1
            elif c == 'L':
                cie['l'] = d[a]
                a += 1
            elif c == 'P':
                cie['p_enc'] = d[a]
                cie['p_at'] = a + 1
                a += 1 + enc_size(d[a])
        q += alen
    cie['insns'] = q
    return cie


# ---- Real sections ----------------------------------------------------------------

def version_of(path):
    name = os.path.basename(os.path.dirname(path))
    return 2 if name.startswith('v2-') else 3


def mach_of(elf):
    return EM[elf.machine]


def sframe_addr_of(elf, eh):
    s = elf.sec('.sframe')
    if s is not None and s['addr']:
        return s['addr']
    return (eh['addr'] + eh['size'] + 0xfff) & ~0xfff


def real_seeds():
    files = []
    for d in sorted(os.listdir(FIX)):
        if not (d.startswith('v2-') or d.startswith('v3-')):
            continue
        for f in ('exe', 'lib.so'):
            files.append(os.path.join(d, f))
    for d in ('lld-x86_64', 'symbols', 'reencode'):
        for f in sorted(os.listdir(os.path.join(FIX, d))):
            p = os.path.join(FIX, d, f)
            if open(p, 'rb').read(4) == b'\x7fELF':
                files.append(os.path.join(d, f))
    files.append(os.path.join('perf', 'loop'))
    for rel in files:
        elf = Elf(os.path.join(FIX, rel))
        name = rel.replace('/', '-')
        eh = elf.sec('.eh_frame')
        version = version_of(rel)
        mach = mach_of(elf)
        if eh is not None and eh['size']:
            cfi = elf.data(eh)
            assert len(cfi) <= CHUNK, rel
            write('real-' + name, prefix(mach, version, S_EH, eh['addr'],
                                         sframe_addr_of(elf, eh), elf.loads) + cfi)
        dbg = elf.sec('.debug_frame')
        if dbg is not None and dbg['size']:
            dcfi = elf.data(dbg)
            write('real-' + name + '-debug-frame',
                  prefix(mach, version, S_DEBUG, eh['addr'], sframe_addr_of(elf, eh),
                         elf.loads) + dcfi)
            # Both: every function described twice (duplicates), and v2 output.
            write('real-' + name + '-both',
                  prefix(mach, 2, S_BOTH, eh['addr'], sframe_addr_of(elf, eh), elf.loads,
                         split=len(cfi)) + cfi + dcfi)


# ---- Relocatable objects --------------------------------------------------------------

RELOC_PC32 = {62: 2, 183: 261, 22: 5}	# R_X86_64_PC32, R_AARCH64_PREL32, R_390_PC32


def obj_seeds():
    for d in sorted(os.listdir(FIX)):
        if not d.startswith('v3-'):
            continue
        for f in sorted(os.listdir(os.path.join(FIX, d))):
            if not f.endswith('.o'):
                continue
            elf = Elf(os.path.join(FIX, d, f))
            eh = elf.sec('.eh_frame')
            if eh is None:
                continue
            # Code sections at 0x10000, 0x20000, ...; .eh_frame after them.
            addr = {}
            nxt = 0x10000
            for i, s in enumerate(elf.secs):
                if s['flags'] & 4 and s['size']:	# SHF_EXECINSTR
                    addr[i] = nxt
                    nxt += (s['size'] + 0xffff) & ~0xffff
            eh_addr = nxt
            texts = sorted((a, a + elf.secs[i]['size']) for i, a in addr.items())
            cfi = bytearray(elf.data(eh))
            syms = elf.symbols()
            eh_idx = elf.secs.index(eh)
            for rs in elf.secs:
                if rs['type'] != 4 or rs['info'] != eh_idx:	# SHT_RELA
                    continue
                for k in range(rs['size'] // 24):
                    off, info, addend = struct.unpack_from(elf.e + 'QQq', elf.d,
                                                           rs['off'] + 24 * k)
                    sym, typ = info >> 32, info & 0xffffffff
                    assert typ == RELOC_PC32[elf.machine], (d, f, typ)
                    shndx, value = syms[sym]
                    v = addr.get(shndx, 0) + value + addend - (eh_addr + off)
                    struct.pack_into(elf.e + 'i', cfi, off, v)
            mach = mach_of(elf)
            write('obj-%s-%s' % (d, f[:-2]),
                  prefix(mach, 3, S_EH, eh_addr, eh_addr + 0x10000, texts[:3]) + bytes(cfi))


# ---- Pieces of big sections ---------------------------------------------------------------

def piece(d, e, ents, cies):
    """The entries ents (consecutive), preceded by copies of the CIEs they use
    and do not hold; CIE pointers and PC-relative starts moved with them."""
    held = {o for (o, _, is_cie, _) in ents if is_cie}
    need = sorted({c for (_, _, is_cie, c) in ents if not is_cie and c not in held})
    layout = [(o, n, True, None) for (o, n) in ((c, cies[c]) for c in need)] + list(ents)
    new_off = {}
    out = bytearray()
    for (o, n, is_cie, _) in layout:
        if is_cie and o not in new_off:
            new_off[o] = len(out)
        out += d[o:o + n]
    pos = 0
    for (o, n, is_cie, c) in layout:
        if not is_cie:
            struct.pack_into(e + 'I', out, pos + 4, pos + 4 - new_off[c])
            enc = parse_cie(d, c, e)['r']
            size = enc_size(enc)
            if enc & 0x70 == 0x10 and size:
                fmt = {2: 'h', 4: 'i', 8: 'q'}[size]
                (v,) = struct.unpack_from(e + fmt, d, o + 8)
                struct.pack_into(e + fmt, out, pos + 8, v + (o - pos))
        pos += n
    return bytes(out)


def pieces(d, e, limit):
    ents = entries(d, e)
    cies = {o: n for (o, n, is_cie, _) in ents if is_cie}
    out = []
    cur = []
    for ent in ents:
        trial = cur + [ent]
        if cur and len(piece(d, e, trial, cies)) > limit:
            out.append(piece(d, e, cur, cies))
            cur = [ent]
        else:
            cur = trial
    if cur:
        out.append(piece(d, e, cur, cies))
    return out


def chunk_seeds():
    udir = os.path.join(FIX, 'unwind')
    for d in sorted(os.listdir(udir)):
        if not d.startswith('v3-'):
            continue
        elf = Elf(os.path.join(udir, d, 'unwind'))
        eh = elf.sec('.eh_frame')
        cfi = elf.data(eh)
        mach = mach_of(elf)
        for i, p in enumerate(pieces(cfi, elf.e, CHUNK)):
            assert len(p) <= CHUNK
            # Both output versions, alternately.
            write('chunk-%s-%02d' % (d, i),
                  prefix(mach, 3 if i % 2 == 0 else 2, S_EH, eh['addr'],
                         sframe_addr_of(elf, eh), elf.loads) + p)


# ---- Big-endian AArch64 -----------------------------------------------------------------

def swap_expr(b, p, end):
    """Byte-swap a DWARF expression's fixed-size operands in place."""
    fixed = {0x03: 8, 0x08: 1, 0x09: 1, 0x0a: 2, 0x0b: 2, 0x0c: 4, 0x0d: 4, 0x0e: 8,
             0x0f: 8, 0x15: 1, 0x28: 2, 0x2f: 2, 0x94: 1, 0x95: 1}
    while p < end:
        op = b[p]
        p += 1
        if op in fixed:
            n = fixed[op]
            b[p:p + n] = b[p:p + n][::-1]
            p += n
        elif op in (0x10, 0x23, 0x90):
            _, p = uleb(b, p)
        elif op in (0x11, 0x91) or 0x70 <= op <= 0x8f:
            _, p = sleb(b, p)
        elif op == 0x92:
            _, p = uleb(b, p)
            _, p = sleb(b, p)


def swap_insns(b, p, end, renc):
    """Byte-swap the fixed-size operands of CFA instructions in place."""
    while p < end:
        op = b[p]
        p += 1
        if op & 0xc0 == 0x80:
            _, p = uleb(b, p)
            continue
        if op & 0xc0:
            continue
        if op == 0x01:
            n = enc_size(renc)
            b[p:p + n] = b[p:p + n][::-1]
            p += n
        elif op == 0x02:
            p += 1
        elif op in (0x03, 0x04, 0x1d):
            n = {0x03: 2, 0x04: 4, 0x1d: 8}[op]
            b[p:p + n] = b[p:p + n][::-1]
            p += n
        elif op in (0x06, 0x07, 0x08, 0x0d, 0x0e, 0x2e):
            _, p = uleb(b, p)
        elif op == 0x13:
            _, p = sleb(b, p)
        elif op in (0x05, 0x09, 0x0c, 0x14, 0x2f):
            _, p = uleb(b, p)
            _, p = uleb(b, p)
        elif op in (0x11, 0x12, 0x15):
            _, p = uleb(b, p)
            _, p = sleb(b, p)
        elif op == 0x0f:
            n, p = uleb(b, p)
            swap_expr(b, p, p + n)
            p += n
        elif op in (0x10, 0x16):
            _, p = uleb(b, p)
            n, p = uleb(b, p)
            swap_expr(b, p, p + n)
            p += n


def to_big_endian(d):
    """A little-endian .eh_frame, every multi-byte field reversed."""
    b = bytearray(d)
    cies = {}
    for (o, n, is_cie, c) in entries(d, '<'):
        end = o + n
        if is_cie:
            cie = parse_cie(d, o, '<')
            cies[o] = cie
            if cie['p_at'] is not None:
                k = enc_size(cie['p_enc'])
                b[cie['p_at']:cie['p_at'] + k] = b[cie['p_at']:cie['p_at'] + k][::-1]
            swap_insns(b, cie['insns'], end, cie['r'])
        else:
            cie = cies[c]
            k = enc_size(cie['r'])
            q = o + 8
            b[q:q + k] = b[q:q + k][::-1]
            b[q + k:q + 2 * k] = b[q + k:q + 2 * k][::-1]
            q += 2 * k
            if cie['aug'].startswith('z'):
                alen, a = uleb(d, q)
                if cie['l'] is not None and alen:
                    m = enc_size(cie['l'])
                    b[a:a + m] = b[a:a + m][::-1]
                q = a + alen
            swap_insns(b, q, end, cie['r'])
        b[o:o + 4] = b[o:o + 4][::-1]
        b[o + 4:o + 8] = b[o + 4:o + 8][::-1]
    return bytes(b)


def be_seeds():
    for rel in ('v3-aarch64/exe', 'v3-aarch64/lib.so', 'symbols/plt-aarch64-bti-pac'):
        elf = Elf(os.path.join(FIX, rel))
        eh = elf.sec('.eh_frame')
        write('be-' + rel.replace('/', '-'),
              prefix(M_AARCH64_BE, 3, S_EH, eh['addr'], sframe_addr_of(elf, eh), elf.loads) +
              to_big_endian(elf.data(eh)))
    elf = Elf(os.path.join(FIX, 'unwind', 'v3-aarch64', 'unwind'))
    eh = elf.sec('.eh_frame')
    p = pieces(elf.data(eh), '<', CHUNK)[0]
    write('be-chunk-unwind-v3-aarch64',
          prefix(M_AARCH64_BE, 2, S_EH, eh['addr'], sframe_addr_of(elf, eh), elf.loads) +
          to_big_endian(p))


# ---- Hand-made CFI ------------------------------------------------------------------------

def u(v):
    """ULEB128."""
    out = bytearray()
    while True:
        b = v & 0x7f
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def s(v):
    """SLEB128."""
    out = bytearray()
    while True:
        b = v & 0x7f
        v >>= 7
        if (v == 0 and not b & 0x40) or (v == -1 and b & 0x40):
            out.append(b)
            return bytes(out)
        out.append(b | 0x80)


# CFA instructions.
def adv(n):
    return bytes([0x40 | n]) if n < 64 else b'\x02' + bytes([n])


def def_cfa(r, o):
    return b'\x0c' + u(r) + u(o)


def cfa_off(o):
    return b'\x0e' + u(o)


def cfa_reg(r):
    return b'\x0d' + u(r)


def offset(r, n):
    return bytes([0x80 | r]) + u(n) if r < 64 else b'\x05' + u(r) + u(n)


REMEMBER, RESTORE_STATE, NOP = b'\x0a', b'\x0b', b'\x00'
TEXT, EH_ADDR, SFRAME_ADDR = 0x1000, 0x2000, 0x3000


class Cfi:
    """An .eh_frame (or .debug_frame) put together entry by entry."""

    def __init__(self, be=False, debug=False, addr=EH_ADDR):
        self.e = '>' if be else '<'
        self.debug = debug
        self.addr = addr
        self.b = bytearray()

    def raw(self, data):
        self.b += data
        return self

    def entry(self, body, length=None):
        off = len(self.b)
        self.b += struct.pack(self.e + 'I', len(body) if length is None else length) + body
        return off

    def cie(self, insns, aug='zR', aug_data=b'\x1b', code=1, data=-8, ra=16, version=1,
            length=None, cie_id=None, extra=b''):
        body = struct.pack(self.e + 'I',
                           (0xffffffff if self.debug else 0) if cie_id is None else cie_id)
        body += bytes([version]) + aug.encode('latin-1') + b'\0' + extra
        body += u(code) + s(data) + (bytes([ra]) if version == 1 else u(ra))
        if aug.startswith('z'):
            body += u(len(aug_data)) + aug_data
        return self.entry(body + insns, length)

    def fde(self, cie, start, size, insns, enc=0x1b, aug_data=b'', length=None, cie_ptr=None,
            pc=None, z=True):
        off = len(self.b)
        if cie_ptr is None:
            cie_ptr = cie if self.debug else off + 4 - cie
        body = struct.pack(self.e + 'I', cie_ptr & 0xffffffff)
        if pc is not None:
            body += pc
        elif self.debug or enc == 0x00:
            body += struct.pack(self.e + 'QQ', start & MASK64, size & MASK64)
        else:
            rel = start - (self.addr + off + 8)
            body += struct.pack(self.e + 'iI', rel, size)
        if not self.debug and z:
            body += u(len(aug_data)) + aug_data
        return self.entry(body + insns, length)

    def set_cie_ptr(self, fde, value):
        struct.pack_into(self.e + 'I', self.b, fde + 4, value & 0xffffffff)

    def bytes(self):
        return bytes(self.b)


X86_CIE = def_cfa(7, 8) + offset(16, 1)
A64_CIE = def_cfa(31, 0)
S390_CIE = def_cfa(15, 160)
X86_PUSH_RBP = adv(1) + cfa_off(16) + offset(6, 2) + adv(3) + cfa_reg(6) + adv(8) + def_cfa(7, 8)


def hseed(name, cfi, mach=M_X86_64, version=3, sections=S_EH, texts=((TEXT, EH_ADDR),),
          split=0, addr=EH_ADDR):
    write('hostile-' + name, prefix(mach, version, sections, addr, SFRAME_ADDR, texts, split) +
          cfi)


def x86(insns, size=0x40, **kw):
    c = Cfi(**kw)
    k = c.cie(X86_CIE)
    c.fde(k, TEXT, size, insns)
    return c


def hostile_seeds():
    # State stacks: deep, unbalanced, and restore without remember.
    hseed('remember-300', x86((adv(1) + REMEMBER + cfa_off(16)) * 300 +
                              (adv(1) + RESTORE_STATE) * 300, size=0x400).bytes())
    hseed('remember-1000-unbalanced', x86(REMEMBER * 1000 + adv(1) + cfa_off(24)).bytes())
    hseed('restore-without-remember', x86(adv(1) + RESTORE_STATE + adv(1) + cfa_off(16)).bytes())
    # Advances: huge, past the function's end, with a huge code alignment.
    hseed('advance-loc4-huge', x86(adv(1) + cfa_off(16) + b'\x04' + struct.pack('<I', 0xffffffff) +
                                   cfa_off(8)).bytes())
    c = Cfi()
    k = c.cie(X86_CIE, code=0xffffffffffffffff)
    c.fde(k, TEXT, 0x40, adv(2) + cfa_off(16) + adv(1) + cfa_off(8))
    hseed('code-align-2^64-1', c.bytes())
    hseed('advance-loc8-mips', x86(b'\x1d' + struct.pack('<Q', 1 << 63) + cfa_off(16)).bytes())
    hseed('set-loc-backwards', x86(adv(8) + cfa_off(16) + b'\x01' + struct.pack('<i', -100) +
                                   cfa_off(8), ).bytes())
    # Many rows, and rows merging.
    hseed('rows-2000', x86((adv(1) + cfa_off(16) + adv(1) + cfa_off(8)) * 1000,
                           size=0x1000).bytes(), texts=())
    hseed('rows-same', x86((adv(1) + cfa_off(8)) * 100, size=0x100).bytes())
    # Lengths and offsets past the end.
    c = Cfi()
    k = c.cie(X86_CIE)
    c.fde(k, TEXT, 0x40, X86_PUSH_RBP, length=0x1000)
    hseed('fde-length-past-end', c.bytes())
    c = Cfi()
    c.cie(X86_CIE, length=0xfffffff0)
    hseed('cie-length-reserved', c.bytes())
    c = Cfi()
    k = c.cie(X86_CIE)
    c.fde(k, TEXT, 0x40, X86_PUSH_RBP)
    hseed('cut-mid-fde', c.bytes()[:-7])
    c = Cfi()
    k = c.cie(X86_CIE, aug_data=b'\x1b')
    c.b[-len(X86_CIE) - 2] = 0x7f	# the augmentation data length
    c.fde(k, TEXT, 0x40, X86_PUSH_RBP)
    hseed('aug-length-past-cie', c.bytes())
    hseed('uleb-cut-at-end', x86(X86_PUSH_RBP).bytes() + b'\x10\x00\x00\x00\x00\x00\x00\x00'
                                                          b'\x01zR\x00\x81\x80')
    hseed('fde-operand-past-end', x86(X86_PUSH_RBP + b'\x0c\x87\x80\x80').bytes())
    # The 64-bit length escape (DWARF64) in .eh_frame: sane and huge.
    c = Cfi()
    k = c.cie(X86_CIE)
    body = struct.pack('<Q', 0) + b'\x01zR\x00' + u(1) + s(-8) + b'\x10' + u(1) + b'\x1b' + X86_CIE
    c.raw(struct.pack('<IQ', 0xffffffff, len(body)) + body)
    c.fde(k, TEXT, 0x40, X86_PUSH_RBP)
    hseed('dwarf64-cie', c.bytes())
    c = Cfi()
    k = c.cie(X86_CIE)
    c.raw(struct.pack('<IQ', 0xffffffff, 0xfffffffffffffff0) + b'\0' * 16)
    c.fde(k, TEXT, 0x40, X86_PUSH_RBP)
    hseed('dwarf64-length-huge', c.bytes())
    # CIE pointers: to the FDE itself, forward, before the section, to the middle of a CIE.
    for name in ('self', 'forward', 'outside', 'mid-cie', 'fde'):
        c = Cfi()
        k = c.cie(X86_CIE)
        f0 = c.fde(k, TEXT, 0x40, X86_PUSH_RBP)
        f = c.fde(k, TEXT + 0x40, 0x40, X86_PUSH_RBP)
        k2 = c.cie(X86_CIE)
        c.fde(k2, TEXT + 0x80, 0x40, X86_PUSH_RBP)
        target = {'self': f, 'forward': k2, 'outside': -0x1000, 'mid-cie': k + 2,
                  'fde': f0}[name]
        c.set_cie_ptr(f, f + 4 - target)
        hseed('cie-pointer-' + name, c.bytes())
    # .debug_frame: the same pointers, offsets from the section's start.
    for name in ('self', 'forward', 'outside', 'mid-cie', 'fde'):
        c = Cfi(debug=True)
        k = c.cie(X86_CIE, aug='')
        f0 = c.fde(k, TEXT, 0x40, X86_PUSH_RBP)
        f = c.fde(k, TEXT + 0x40, 0x40, X86_PUSH_RBP)
        k2 = c.cie(X86_CIE, aug='')
        c.fde(k2, TEXT + 0x80, 0x40, X86_PUSH_RBP)
        target = {'self': f, 'forward': k2, 'outside': 0x10000, 'mid-cie': k + 2,
                  'fde': f0}[name]
        c.set_cie_ptr(f, target)
        hseed('debug-frame-cie-pointer-' + name, c.bytes(), sections=S_DEBUG)
    # .debug_frame CIE versions 3 and 4 (address and segment sizes), and bad ones.
    for name, ver, extra in (('v3', 3, b''), ('v4', 4, b'\x08\x00'), ('v4-addr4', 4, b'\x04\x00'),
                             ('v4-segment', 4, b'\x08\x04'), ('v2', 2, b''), ('v255', 255, b'')):
        c = Cfi(debug=True)
        k = c.cie(X86_CIE, aug='', version=ver, extra=extra)
        c.fde(k, TEXT, 0x40, X86_PUSH_RBP)
        hseed('debug-frame-cie-' + name, c.bytes(), sections=S_DEBUG)
    # Pointer encodings: invalid format, aligned, indirect, omit, and the valid kinds.
    for name, enc in (('0d', 0x0d), ('aligned-50', 0x50), ('indirect-9b', 0x9b), ('omit-ff', 0xff),
                      ('datarel-3b', 0x3b), ('textrel-2b', 0x2b), ('funcrel-4b', 0x4b),
                      ('uleb-01', 0x01), ('udata2-02', 0x02), ('sdata8-1c', 0x1c),
                      ('absptr-00', 0x00)):
        c = Cfi()
        k = c.cie(X86_CIE, aug_data=bytes([enc]))
        if enc == 0x01:
            c.fde(k, 0, 0, X86_PUSH_RBP, pc=u(TEXT) + u(0x40))
        elif enc == 0x02:
            c.fde(k, 0, 0, X86_PUSH_RBP, pc=struct.pack('<HH', TEXT, 0x40))
        elif enc == 0x1c:
            c.fde(k, 0, 0, X86_PUSH_RBP, pc=struct.pack('<qQ', TEXT - (EH_ADDR + len(c.b) + 8),
                                                         0x40))
        elif enc in (0x00, 0x0d, 0xff, 0x50):
            c.fde(k, TEXT, 0x40, X86_PUSH_RBP, enc=0x00)
        else:
            c.fde(k, TEXT, 0x40, X86_PUSH_RBP)
        hseed('encoding-' + name, c.bytes())
    # Personality and LSDA (what C++ code has), with an indirect personality.
    c = Cfi()
    k = c.cie(X86_CIE, aug='zPLR', aug_data=b'\x9b' + struct.pack('<i', 0x100) + b'\x1b\x1b')
    c.fde(k, TEXT, 0x40, X86_PUSH_RBP, aug_data=struct.pack('<i', 0x200))
    hseed('personality-lsda', c.bytes())
    c = Cfi()
    k = c.cie(X86_CIE, aug='zPLR', aug_data=b'\x0d' + struct.pack('<i', 0x100) + b'\x1b\x1b')
    c.fde(k, TEXT, 0x40, X86_PUSH_RBP, aug_data=struct.pack('<i', 0x200))
    hseed('personality-bad-encoding', c.bytes())
    # Augmentations: unknown with and without "z", "eh", empty, signal "S", "B" on x86-64.
    for name, aug, data, extra in (('zQR', 'zQR', b'\x00\x1b', b''), ('zRQ', 'zRQ', b'\x1b\x00', b''),
                                   ('Q', 'Q', b'', b''), ('eh', 'eh', b'', b'\0' * 8),
                                   ('empty', '', b'', b''), ('zRS', 'zRS', b'\x1b', b''),
                                   ('zRB', 'zRB', b'\x1b', b''), ('z-only', 'z', b'', b'')):
        c = Cfi()
        k = c.cie(X86_CIE, aug=aug, aug_data=data, extra=extra)
        c.fde(k, TEXT, 0x40, X86_PUSH_RBP, enc=0x1b if 'R' in aug else 0x00,
              z=aug.startswith('z'))
        hseed('augmentation-' + name, c.bytes())
    # LEB128 numbers of 11 and more bytes.
    long_uleb = b'\x80' * 10 + b'\x01'
    long_sleb = b'\xff' * 11 + b'\x7f'
    c = Cfi()
    body = struct.pack('<I', 0) + b'\x01zR\x00' + long_uleb + long_sleb + b'\x10' + u(1) + \
        b'\x1b' + X86_CIE
    k = c.entry(body)
    c.fde(k, TEXT, 0x40, X86_PUSH_RBP)
    hseed('leb128-11-bytes-in-cie', c.bytes())
    hseed('leb128-11-bytes-in-insns', x86(adv(1) + b'\x0e' + long_uleb + adv(1) + b'\x0c' + long_uleb +
                                          u(8) + adv(1) + b'\x13' + long_sleb +
                                          adv(1) + b'\x80' + long_uleb).bytes())
    hseed('leb128-20-bytes-register', x86(b'\x05' + b'\x81' * 19 + b'\x00' + u(2)).bytes())
    # A pc_range near 2^64, a start near 2^64, a start of 0.
    c = Cfi()
    k = c.cie(X86_CIE, aug_data=b'\x00')
    c.fde(k, 0xfffffffffffff000, 0xffffffffffffff00, X86_PUSH_RBP, enc=0x00)
    c.fde(k, TEXT, 0xfffffffffffffff0, X86_PUSH_RBP, enc=0x00)
    c.fde(k, 0xffffffffffffffc0, 0x40, X86_PUSH_RBP, enc=0x00)
    c.fde(k, 0, 0x40, X86_PUSH_RBP, enc=0x00)
    hseed('pc-range-near-2^64', c.bytes(), texts=())
    # Zero terminators in the middle, and padding after.
    c = Cfi()
    k = c.cie(X86_CIE)
    c.fde(k, TEXT, 0x40, X86_PUSH_RBP)
    c.raw(b'\0' * 4)
    c.fde(k, TEXT + 0x40, 0x40, X86_PUSH_RBP)
    c.raw(b'\0' * 4)
    hseed('terminator-in-middle', c.bytes())
    hseed('terminator-in-middle-debug-frame', c.bytes(), sections=S_SAME)
    # Overlapping and duplicate FDEs; and an unsorted section.
    c = Cfi()
    k = c.cie(X86_CIE)
    c.fde(k, TEXT + 0x80, 0x40, X86_PUSH_RBP)
    c.fde(k, TEXT, 0x40, X86_PUSH_RBP)
    c.fde(k, TEXT + 0x20, 0x40, X86_PUSH_RBP)
    c.fde(k, TEXT, 0x40, adv(1) + cfa_off(16))
    c.fde(k, TEXT + 0x80, 0, X86_PUSH_RBP)
    hseed('overlapping-fdes', c.bytes())
    # Rules SFrame cannot say, or says with FLEX: one function each.
    c = Cfi()
    k = c.cie(X86_CIE)
    k2 = c.cie(X86_CIE, ra=15)
    at = TEXT
    for insns in (
            b'\x0f\x02\x77\x08',			# def_cfa_expression: breg7 +8
            def_cfa(3, 16),				# CFA on rbx
            def_cfa(10, 0) + b'\x10\x06\x02\x76\x00' +	# stack realignment (gcc):
            b'\x0f\x03\x76\x78\x06',			# rbp = *(rbp), CFA = *(rbp - 8)
            b'\x10\x10\x02\x77\x00',			# RA: expression
            b'\x16\x10\x02\x77\x00',			# RA: val_expression
            b'\x14\x10\x01',				# RA: val_offset
            b'\x09\x10\x03',				# RA in rbx
            b'\x07\x10',				# RA undefined: outermost
            b'\x09\x06\x03',				# FP in rbx
            b'\x10\x06\x02\x77\x00',			# FP: expression
            offset(16, 3),				# RA at an unusual slot
            offset(6, 1),				# FP at CFA - 8
            b'\x08\x07' + def_cfa(6, 16),		# SP same value
            b'\x14\x07\x00',			# SP = CFA
            b'\x2d',				# negate_ra_state on x86-64
            b'\x2e\x10',				# GNU_args_size
            b'\x2f\x06\x02',			# GNU_negative_offset_extended
            b'\x06\x10' + b'\xd0',			# restore_extended, restore r16
            b'\x1e\x01',				# an unknown instruction
            def_cfa(7, 0x7fffffff) + adv(1) + b'\x12\x07\x7f',	# huge and negative CFA offsets
    ):
        c.fde(k, at, 0x20, adv(1) + cfa_off(16) + adv(1) + insns + adv(4) + def_cfa(7, 8))
        at += 0x20
    c.fde(k2, at, 0x20, X86_PUSH_RBP)				# another RA column
    hseed('rules-x86_64', c.bytes())
    hseed('rules-x86_64-v2', c.bytes(), version=2)
    # The x86-64 PLT's CFA expression, as GNU ld writes it.
    c = Cfi()
    k = c.cie(X86_CIE)
    plt = cfa_off(16) + adv(6) + cfa_off(24) + adv(10) + \
        b'\x0f\x0b\x77\x08\x80\x00\x3f\x1a\x3b\x2a\x33\x24\x22'
    c.fde(k, TEXT, 0x40, plt)
    hseed('plt-x86_64', c.bytes())
    # AArch64: PAuth, the B key, FP without RA, FLEX forms; little- and big-endian.
    for be, mach in ((False, M_AARCH64), (True, M_AARCH64_BE)):
        c = Cfi(be=be)
        k = c.cie(A64_CIE, code=4, ra=30)
        kb = c.cie(A64_CIE, code=4, ra=30, aug='zRB')
        at = TEXT
        for insns in (
                b'\x2d' + adv(1) + cfa_off(16) + offset(29, 2) + offset(30, 1) + adv(1) + b'\x2d',
                b'\x2d' + b'\x2d' + b'\x2d',
                b'\x2c',					# negate_ra_state_with_pc
                b'\x2b\x01',					# set_ra_state
                cfa_off(16) + offset(29, 2),			# FP without RA
                cfa_off(16) + offset(30, 1) + offset(29, 2),
                def_cfa(29, 16) + offset(30, 1) + offset(29, 2),
                def_cfa(19, 32),				# CFA on x19
                b'\x09\x1e\x13',				# RA in x19
                b'\x07\x1e',					# outermost
        ):
            c.fde(k, at, 0x40, adv(1) + insns + adv(4) + def_cfa(31, 0))
            at += 0x40
        c.fde(kb, at, 0x40, b'\x2d' + adv(1) + cfa_off(16) + offset(30, 1))
        hseed('rules-aarch64' + ('-be' if be else ''), c.bytes(), mach=mach)
    # s390x: the CFA - 160 SP, offsets not multiple of 8, registers saved.
    c = Cfi(be=True)
    k = c.cie(S390_CIE, code=2, ra=14)
    at = TEXT
    for insns in (
            cfa_off(320) + offset(14, 8) + offset(15, 7) + offset(11, 10),
            cfa_off(164),					# not a multiple of 8
            def_cfa(11, 160),				# CFA on the FP
            b'\x09\x0e\x01',				# RA in r1
            b'\x09\x0b\x10',				# FP in f0
            b'\x07\x0e',					# outermost
    ):
        c.fde(k, at, 0x40, adv(1) + insns + adv(4) + def_cfa(15, 160))
        at += 0x40
    hseed('rules-s390x', c.bytes(), mach=M_S390X)
    hseed('rules-s390x-v2', c.bytes(), mach=M_S390X, version=2)
    # .eh_frame and .debug_frame together: the same function in both, and one in each.
    eh = Cfi()
    k = eh.cie(X86_CIE)
    eh.fde(k, TEXT, 0x40, X86_PUSH_RBP)
    dbg = Cfi(debug=True)
    k = dbg.cie(X86_CIE, aug='', version=4, extra=b'\x08\x00')
    dbg.fde(k, TEXT, 0x40, adv(1) + cfa_off(16))
    dbg.fde(k, TEXT + 0x40, 0x40, X86_PUSH_RBP)
    hseed('both-sections', eh.bytes() + dbg.bytes(), sections=S_BOTH, split=len(eh.bytes()))
    # Text ranges leaving functions out, and none at all.
    c = Cfi()
    k = c.cie(X86_CIE)
    for i in range(6):
        c.fde(k, TEXT + 0x100 * i, 0x80, X86_PUSH_RBP)
    hseed('text-ranges', c.bytes(), texts=((TEXT, TEXT + 0x100), (TEXT + 0x280, TEXT + 0x300),
                                          (TEXT + 0x480, TEXT + 0x481)))
    hseed('text-ranges-empty', c.bytes(), texts=((TEXT, TEXT),))
    # An sframe_addr far from the code: starts beyond 32 bits.
    write('hostile-sframe-addr-far', prefix(M_X86_64, 3, S_EH, EH_ADDR, EH_ADDR + (1 << 40),
                                            ((TEXT, EH_ADDR),)) + c.bytes())
    # An empty input, and a lone terminator.
    hseed('empty', b'')
    hseed('terminator-only', b'\0' * 4)


def main():
    if len(sys.argv) != 1:
        sys.exit(__doc__)
    if os.path.isdir(OUT):
        for f in os.listdir(OUT):
            if f.startswith('seed-'):
                os.unlink(os.path.join(OUT, f))
    real_seeds()
    obj_seeds()
    chunk_seeds()
    be_seeds()
    hostile_seeds()


if __name__ == '__main__':
    main()
