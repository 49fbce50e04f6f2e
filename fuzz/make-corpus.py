#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause
"""Write the fuzz targets' seeds, fuzz/corpus/<target>/seed-*, from the fixtures.

Usage: fuzz/make-corpus.py   (from anywhere; rewrites the seed-* files only;
the corpus's other files are inputs found by fuzzing, see fuzz/README.md)

Seeds per target (input formats: the comment at the top of each fuzz_*.c):
  open, iterate, check: every toolchain-made section, fixtures/v*/*.sframe,
      fixtures/lld-*/*.sframe (runs of sections as LLVM lld links them, and
      an empty one), fixtures/unwind/*/unwind.sframe, and the hand-built ones of
      fixtures/handmade/ (the hostile fixtures are replayed from
      fixtures/hostile/ directly);
  lookup: each of those sections at its own address, with up to 48 of its
      fixture PCs (fixtures/v*/*.pcs);
  unwind: each unwind fixture's section with 6 of its real samples
      (registers and stack copy from unwind.snap);
  elf: the real relocatable objects fixtures/v*/cfi.o, the small linked
      programs of fixtures/symbols/ (PLT layouts: x86_64 IBT and mark-plt,
      s390x), plus small ELF files built here around fixture sections:
      ELF64/ELF32, both byte orders, with section headers and program
      headers, segment-only, without SFrame (and with room after the program
      headers), and a raw section;
  core: the cores of fixtures/core/ (aarch64 little-endian, s390x
      big-endian) made small: their headers and notes as they are, each
      PT_LOAD segment's dumped bytes cut to their first 64; and the aarch64
      one with an NT_FILE note added (two mappings of two files).
Deterministic: the same fixtures give the same files.
"""
import os
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIX = os.path.join(ROOT, 'fixtures')
OUT = os.path.join(ROOT, 'fuzz', 'corpus')


def sections():
    """(name, bytes, vaddr, pcs) for every fixture section."""
    out = []
    for d in sorted(os.listdir(FIX)):
        if not ((d.startswith('v') or d.startswith('lld-')) and '-' in d):
            continue
        for f in sorted(os.listdir(os.path.join(FIX, d))):
            if not f.endswith('.sframe'):
                continue
            base = os.path.join(FIX, d, f[:-len('.sframe')])
            data = open(base + '.sframe', 'rb').read()
            addr = int(open(base + '.addr').read().split()[0], 16)
            pcs = []
            if os.path.exists(base + '.pcs'):
                pcs = [int(x, 16) for x in open(base + '.pcs').read().split()]
            out.append(('%s-%s' % (d, f[:-len('.sframe')]), data, addr, pcs))
    hdir = os.path.join(FIX, 'handmade')
    for f in sorted(os.listdir(hdir)):
        if f.endswith('.sframe'):
            base = os.path.join(hdir, f[:-len('.sframe')])
            addr = int(open(base + '.addr').read().split()[0], 16)
            out.append(('handmade-' + f[:-len('.sframe')], open(base + '.sframe', 'rb').read(),
                        addr, []))
    udir = os.path.join(FIX, 'unwind')
    for d in sorted(os.listdir(udir)):
        p = os.path.join(udir, d, 'unwind.sframe')
        if os.path.exists(p):
            addr = int(open(os.path.join(udir, d, 'unwind.addr')).read().split()[0], 16)
            out.append(('unwind-' + d, open(p, 'rb').read(), addr, []))
    return out


def write(target, name, data):
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, 'seed-' + name), 'wb') as f:
        f.write(data)


def lookup_seed(data, vaddr, pcs):
    out = struct.pack('<BQH', 0, vaddr, len(data)) + data
    for pc in pcs[:48]:
        off = (pc - vaddr) & 0xffffffffffffffff
        if off >= 1 << 63:
            off -= 1 << 64
        if -(1 << 31) <= off < (1 << 31):
            out += struct.pack('<i', off)
    return out


def samples(path, picks):
    """The records of a snapshot file at the given indices."""
    d = open(path, 'rb').read()
    e = '>' if d[8:12] == b'\x01\x02\x03\x04' else '<'
    pos, i, out = 16, 0, []
    while pos < len(d):
        _, nregs = struct.unpack(e + 'II', d[pos:pos + 8])
        pc, sp, fp, ra, saddr, slen = struct.unpack(e + '6Q', d[pos + 8:pos + 56])
        regs = list(struct.unpack(e + '%dQ' % nregs, d[pos + 56:pos + 56 + 8 * nregs]))
        body = pos + 56 + 8 * nregs
        if i in picks:
            out.append((pc, sp, fp, ra, saddr, regs, d[body:body + slen]))
        pos = body + ((slen + 7) & ~7)
        i += 1
    return out


def unwind_seed(sec, vaddr, abi, s):
    pc, sp, fp, ra, saddr, regs, stack = s
    mode = 0x02 | 0x10 | (0x20 if abi != 3 else 0)   # get_reg, FP valid, RA valid
    regs = regs[:32]
    out = struct.pack('<BBBBHHQQQQQQB', mode, 0, 0, 0, len(sec), 0, vaddr, saddr,
                      pc, sp, fp, ra, len(regs))
    out += b''.join(struct.pack('<Q', r) for r in regs)
    return out + sec + stack


# ---- Small ELF files --------------------------------------------------------

def elf(is64, be, machine, sec, addr, shdrs=True, phdrs=True, sframe=True, room=0):
    e = '>' if be else '<'
    ehsize, phent, shent = (64, 56, 64) if is64 else (52, 32, 40)
    text_addr, text_size = addr - 0x2000 if addr >= 0x2000 else 0, 0x2000
    shstr = b'\0.sframe\0.symtab\0.strtab\0.shstrtab\0.text\0'
    strtab = b'\0main\0leaf\0with_fp\0'
    syms = [(0, 0, 0, 0, 0)]  # name, info, shndx, value, size
    syms += [(1, 0x12, 1, text_addr + 0x100, 0x40), (6, 0x02, 1, text_addr + 0x140, 0x10),
             (11, 0x12, 1, text_addr + 0x100, 0)]
    symtab = b''
    for name, info, shndx, value, size in syms:
        if is64:
            symtab += struct.pack(e + 'IBBHQQ', name, info, 0, shndx, value, size)
        else:
            symtab += struct.pack(e + 'IIIBBH', name, value, size, info, 0, shndx)
    nph = 2 if phdrs else 0
    off = ehsize + nph * phent + room
    sec_off = off
    off += len(sec)
    sym_off = off
    off += len(symtab)
    str_off = off
    off += len(strtab)
    shstr_off = off
    off += len(shstr)
    off = (off + 7) & ~7
    sh_off = off
    # name, type, flags, addr, offset, size, link, info, align, entsize
    sh = [(0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
          (35, 8, 6, text_addr, 0, text_size, 0, 0, 16, 0),          # .text (NOBITS)
          (1, 0x6ffffff4, 2, addr, sec_off, len(sec), 0, 0, 8, 0)    # .sframe
          if sframe else (35, 1, 2, addr, sec_off, len(sec), 0, 0, 8, 0),
          (9, 2, 0, 0, sym_off, len(symtab), 4, 1, 8, 24 if is64 else 16),
          (17, 3, 0, 0, str_off, len(strtab), 0, 0, 1, 0),
          (25, 3, 0, 0, shstr_off, len(shstr), 0, 0, 1, 0)]
    nsh = len(sh) if shdrs else 0
    hdr = b'\x7fELF' + bytes([2 if is64 else 1, 2 if be else 1, 1]) + b'\0' * 9
    if is64:
        hdr += struct.pack(e + 'HHIQQQIHHHHHH', 2, machine, 1, text_addr, ehsize if nph else 0,
                           sh_off if nsh else 0, 0, ehsize, phent, nph, shent, nsh,
                           5 if nsh else 0)
    else:
        hdr += struct.pack(e + 'HHIIIIIHHHHHH', 2, machine, 1, text_addr, ehsize if nph else 0,
                           sh_off if nsh else 0, 0, ehsize, phent, nph, shent, nsh,
                           5 if nsh else 0)
    ph = b''
    if phdrs:
        # type, flags, offset, vaddr, filesz, memsz, align
        # With room: the first segment maps the headers and the zeros after them.
        for p in [(1, 5, 0, text_addr, sec_off if room else 0, text_size, 0x1000),
                  (0x6474e554 if sframe else 0, 4, sec_off, addr, len(sec), len(sec), 8)]:
            if is64:
                ph += struct.pack(e + 'IIQQQQQQ', p[0], p[1], p[2], p[3], p[3], p[4], p[5], p[6])
            else:
                ph += struct.pack(e + 'IIIIIIII', p[0], p[2], p[3], p[3], p[4], p[5], p[1], p[6])
    body = hdr + ph + b'\0' * room + sec + symtab + strtab + shstr
    body += b'\0' * (sh_off - len(body))
    if nsh:
        for s in sh:
            if is64:
                body += struct.pack(e + 'IIQQQQIIQQ', *s)
            else:
                body += struct.pack(e + 'IIIIIIIIII', *s)
    return body


def core_seed(path, file_note=False):
    """A small copy of the core at @path: headers and notes whole, each
    PT_LOAD's bytes cut to 64 (p_memsz kept), no section headers."""
    b = open(path, 'rb').read()
    e = '>' if b[5] == 2 else '<'
    phoff, = struct.unpack_from(e + 'Q', b, 32)
    phentsize, phnum = struct.unpack_from(e + 'HH', b, 54)
    ph = [list(struct.unpack_from(e + 'IIQQQQQQ', b, phoff + i * phentsize))
          for i in range(phnum)]
    notes = b''.join(b[p[2]:p[2] + p[5]] for p in ph if p[0] == 4)
    if file_note:
        loads = [p for p in ph if p[0] == 1][:2]
        names = b'/usr/bin/prog\0/usr/lib/libc.so.6\0'
        desc = struct.pack(e + 'QQ', len(loads), 4096)
        for i, p in enumerate(loads):
            desc += struct.pack(e + 'QQQ', p[3], p[3] + p[6], i)
        desc += names
        notes += struct.pack(e + 'III', 5, len(desc), 0x46494c45) + b'CORE\0\0\0\0'
        notes += desc + b'\0' * (-len(desc) % 4)
    ph = [p for p in ph if p[0] != 4]
    n = len(ph) + 1
    at = 64 + 56 * n
    out_ph = [struct.pack(e + 'IIQQQQQQ', 4, 0, at, 0, 0, len(notes), 0, 0)]
    data = notes
    for p in ph:
        keep = b[p[2]:p[2] + min(p[5], 64)] if p[0] == 1 else b''
        p = list(p)
        p[2] = at + len(data)
        if p[0] == 1:
            p[5] = len(keep)
        out_ph.append(struct.pack(e + 'IIQQQQQQ', *p))
        data += keep
    hdr = bytearray(b[:64])
    struct.pack_into(e + 'QQ', hdr, 32, 64, 0)           # e_phoff, e_shoff
    struct.pack_into(e + 'HHHHH', hdr, 54, 56, n, 64, 0, 0)  # phentsize..shstrndx
    return bytes(hdr) + b''.join(out_ph) + data


def core_seeds():
    cdir = os.path.join(FIX, 'core')
    for arch in ('aarch64', 's390x'):
        write('core', arch, core_seed(os.path.join(cdir, arch, 'core')))
    write('core', 'aarch64-nt-file', core_seed(os.path.join(cdir, 'aarch64', 'core'), True))


def main():
    # Only the seeds are rewritten; the other files are fuzzer-found inputs
    # merged in by hand (libFuzzer -merge=1), named by their SHA-1.
    for dp, _, fs in os.walk(OUT):
        for f in fs:
            if f.startswith('seed-'):
                os.remove(os.path.join(dp, f))
    secs = sections()
    for name, data, addr, pcs in secs:
        for t in ('open', 'iterate', 'check'):
            write(t, name, data)
        write('lookup', name, lookup_seed(data, addr, pcs))

    udir = os.path.join(FIX, 'unwind')
    for d in sorted(os.listdir(udir)):
        snap = os.path.join(udir, d, 'unwind.snap')
        if not os.path.exists(snap):
            continue
        sec = open(os.path.join(udir, d, 'unwind.sframe'), 'rb').read()
        addr = int(open(os.path.join(udir, d, 'unwind.addr')).read().split()[0], 16)
        for i, s in enumerate(samples(snap, {3, 333, 666, 1000, 1333, 1666})):
            write('unwind', '%s-%d' % (d, i), unwind_seed(sec, addr, sec[4], s))

    for d in sorted(os.listdir(FIX)):
        p = os.path.join(FIX, d, 'cfi.o')
        if d.startswith('v') and os.path.exists(p):
            write('elf', d + '-cfi.o', open(p, 'rb').read())
    for f in ('plt-x86_64-ibt', 'plt-x86_64-mark-plt', 'plt-s390x'):
        write('elf', f, open(os.path.join(FIX, 'symbols', f), 'rb').read())
    by = {n: (data, addr) for n, data, addr, _ in secs}
    x, xa = by['v3-x86_64-lib.so']
    s, sa = by['v3-s390x-exe']
    a, aa = by['v2-aarch64-exe']
    write('elf', 'elf64-le-x86_64', elf(True, False, 62, x, xa))
    write('elf', 'elf64-be-s390x', elf(True, True, 22, s, sa))
    write('elf', 'elf32-le-aarch64', elf(False, False, 183, a, aa))
    write('elf', 'elf32-be-s390x', elf(False, True, 22, s, sa))
    write('elf', 'elf64-segment-only', elf(True, False, 62, x, xa, shdrs=False))
    write('elf', 'elf64-sections-only', elf(True, False, 62, x, xa, phdrs=False))
    write('elf', 'raw-section', x)
    # No SFrame (the section renamed, PT_GNU_SFRAME made PT_NULL): what
    # "sframe convert --elf" copies without --force.
    write('elf', 'elf64-no-sframe', elf(True, False, 62, x, xa, sframe=False))
    write('elf', 'elf64-be-no-sframe', elf(True, True, 22, s, sa, sframe=False))
    # Zeros after the program headers, loaded: the table grows in place.
    write('elf', 'elf64-no-sframe-room', elf(True, False, 62, x, xa, sframe=False, room=112))
    core_seeds()
    total = sum(os.path.getsize(os.path.join(dp, f))
                for dp, _, fs in os.walk(OUT) for f in fs)
    print('fuzz/corpus: %d bytes' % total)
    return 0


if __name__ == '__main__':
    sys.exit(main())
