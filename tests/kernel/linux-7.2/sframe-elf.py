#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause
"""Rewrite the SFrame section of a linked x86_64 ELF program or shared library in place.

binutils 2.47 links SFrame v3 only; the kernel test also needs the sections older linkers
wrote and broken ones. Commands:

  to-v2 IN OUT [--pcrel]
      Re-encode the v3 section (found through PT_GNU_SFRAME; a .sframe section header, if
      any, must start at the same bytes) as v2: 20-byte FDEs, FREs byte for byte, the FRE
      blocks in their original order. Without --pcrel each function start is relative to
      the section's first byte (binutils 2.41-2.44); with --pcrel the header carries
      SFRAME_F_FDE_FUNC_START_PCREL and each start is relative to its own FDE's start
      field (binutils 2.45). v2 is smaller: the section keeps its address, PT_GNU_SFRAME
      p_filesz/p_memsz and sh_size take the new size, the freed bytes become zeros; the
      section type becomes that release's: SHT_PROGBITS (2.44), SHT_GNU_SFRAME (2.45).
      Refused (exit 1): what v2 cannot say (FLEX FDEs, signal frames, FDEs without FREs,
      which v3 reads as outermost frames, starts beyond 32 bits) and any layout the
      decoder would not write back byte for byte. Rows without data words ("RA
      undefined") are copied too: v2 has them since binutils 2.46 (Errata 2), readers
      of 2.44 did not know them.

  corrupt IN OUT KIND [--func NAME]
      Break the section one way, printing one line that says what changed:
        header  PT_GNU_SFRAME p_filesz/p_memsz and sh_size become 20: the 28-byte header
                does not fit (the bytes stay in the file)
        fde     the FDE of function NAME (--func, from .symtab or .dynsym) points at its
                FREs from the FRE area's end: its (v3: attribute record and) FREs lie
                past the area, so a lookup in NAME is corrupt, not "not found"
        fre     NAME's FRE count becomes the least count whose FREs, at two bytes each
                (the least an FRE takes), cannot end inside the FRE area (v3 refuses
                an area so large that the count would not fit in its 16 bits)
        rep     NAME's FDE becomes a PCMASK one (rows repeating, as a PLT's) of
                repetition size 0: a lookup in NAME would divide by zero, were it
                not refused
      v2 and v3 sections both work.

  nest IN OUT --func NAME
      NAME's FDE grows to the end of the next function's, which then lies nested
      inside it. Lookups still find the inner function for its own PCs (the
      function with the greatest start); "sframe check" calls the section corrupt
      (a sorted one whose functions overlap), a kernel does not validate whole
      sections. A reader that keeps the rows of NAME's PCs for the PCs around them
      must stop at the inner function's start. v2 and v3 sections both work.

  info FILE
      Print the section's address, file offset, size (sh_size, else p_filesz), the
      segment's size (p_filesz), the section type (if there is a section header), then
      the header's version, flags, FDE and FRE counts.

Input: 64-bit little-endian x86_64 ELF files only. Exit status: 0 done, 1 refused or bad
input, 2 usage error."""
import argparse
import os
import stat
import struct
import sys

PT_GNU_SFRAME = 0x6474E554
SHT_PROGBITS, SHT_SYMTAB, SHT_DYNSYM, SHT_GNU_SFRAME = 1, 2, 11, 0x6FFFFFF4
STT_FUNC = 2
MAGIC = 0xDEE2
ABI_AMD64 = 3
F_SORTED, F_FRAME_POINTER, F_PCREL = 0x1, 0x2, 0x4
HDR = struct.Struct("<HBBBbbBIIIII")  # 28 bytes: preamble, ABI, fixed offsets, counts, offsets
V2_FDE = struct.Struct("<iIIIBBH")  # start, size, FRE offset, FRE count, info, rep size, pad
V3_FDE = struct.Struct("<qII")  # start, size, offset of the attribute record
V3_ATTR = struct.Struct("<HBBB")  # FRE count, info, info2, rep size
PC_TYPE_MASK = 0x10  # the info byte's PC type: rows repeat every rep size bytes
FDE_SIZE = {2: V2_FDE.size, 3: V3_FDE.size}
ADDR_BYTES = (1, 2, 4)  # FRE start address by FRE type (info bits 0-3)
WORD_BYTES = (1, 2, 4)  # data word by size code (fre_info bits 5-6; 3 is invalid)
FRE_MIN_BYTES = 2  # a 1-byte start address and the info byte
CORRUPT_HEADER_SIZE = 20


class Refused(Exception):
    pass


class Elf:
    """The parts of an ELF64 little-endian x86_64 file this script reads and writes."""

    def __init__(self, path):
        self.path = path
        with open(path, "rb") as f:
            self.data = bytearray(f.read())
        d = self.data
        if len(d) < 64 or d[:4] != b"\x7fELF":
            raise Refused(f"{path}: not an ELF file")
        if d[4] != 2 or d[5] != 1:
            raise Refused(f"{path}: only 64-bit little-endian ELF files are supported "
                          f"(class {d[4]}, data {d[5]})")
        machine = struct.unpack_from("<H", d, 18)[0]
        if machine != 62:
            raise Refused(f"{path}: only x86_64 is supported (e_machine {machine})")
        phoff, shoff = struct.unpack_from("<QQ", d, 32)
        phentsize, phnum, shentsize, shnum, shstrndx = struct.unpack_from("<HHHHH", d, 54)
        self.phdr = None  # file offset of the PT_GNU_SFRAME program header
        for i in range(phnum):
            at = phoff + i * phentsize
            self._need(at, 56, "program header")
            if struct.unpack_from("<I", d, at)[0] == PT_GNU_SFRAME:
                self.phdr = at
        if self.phdr is None:
            raise Refused(f"{path}: no PT_GNU_SFRAME program header")
        self.offset, self.vaddr, _, self.filesz, self.memsz = \
            struct.unpack_from("<QQQQQ", d, self.phdr + 8)
        self.shdrs = []
        for i in range(shnum):
            at = shoff + i * shentsize
            self._need(at, 64, "section header")
            name, stype, _, addr, off, size, link, _, _, entsize = \
                struct.unpack_from("<IIQQQQIIQQ", d, at)
            self.shdrs.append(dict(at=at, name=name, type=stype, addr=addr, off=off,
                                   size=size, link=link, entsize=entsize))
        self.shdr = None  # the .sframe section header, if any
        if self.shdrs and shstrndx < len(self.shdrs):
            names = self.shdrs[shstrndx]
            for sh in self.shdrs:
                if self._cstr(names["off"] + sh["name"]) == b".sframe":
                    self.shdr = sh
        self._check_section_header()

    def _need(self, at, n, what):
        if at + n > len(self.data):
            raise Refused(f"{self.path}: {what} at 0x{at:x} runs past the end of the file")

    def _cstr(self, at):
        end = self.data.find(b"\0", at)
        return bytes(self.data[at:end if end >= 0 else len(self.data)])

    def _check_section_header(self):
        if self.filesz != self.memsz:
            raise Refused(f"{self.path}: PT_GNU_SFRAME p_filesz 0x{self.filesz:x} differs from "
                          f"p_memsz 0x{self.memsz:x}")
        self._need(self.offset, self.filesz, "PT_GNU_SFRAME segment")
        sh = self.shdr
        if sh is None:
            return
        # ld (2.44 and 2.47 alike) may make the segment longer than the section,
        # the rest zeros: every dynamically linked fixture has such a tail.
        if sh["off"] != self.offset or sh["addr"] != self.vaddr or sh["size"] > self.filesz:
            raise Refused(f"{self.path}: section .sframe (offset 0x{sh['off']:x}, address "
                          f"0x{sh['addr']:x}, 0x{sh['size']:x} bytes) is not the start of "
                          f"PT_GNU_SFRAME (offset 0x{self.offset:x}, address 0x{self.vaddr:x}, "
                          f"0x{self.filesz:x} bytes)")
        tail = self.data[self.offset + sh["size"]:self.offset + self.filesz]
        if any(tail):
            raise Refused(f"{self.path}: PT_GNU_SFRAME holds bytes past section .sframe "
                          "that are not zeros")

    @property
    def size(self):
        """The section's size: sh_size if there is a section header, else p_filesz."""
        return self.shdr["size"] if self.shdr else self.filesz

    def section(self):
        return bytes(self.data[self.offset:self.offset + self.size])

    def set_size(self, size):
        struct.pack_into("<QQ", self.data, self.phdr + 32, size, size)
        if self.shdr:
            struct.pack_into("<Q", self.data, self.shdr["at"] + 32, size)

    def replace_section(self, new):
        """Write @new at the section's place, zeros over what it no longer covers."""
        extent = max(self.filesz, self.size)
        if len(new) > extent:
            raise Refused(f"{self.path}: the new section (0x{len(new):x} bytes) does not fit "
                          f"in the old one (0x{extent:x} bytes)")
        self.data[self.offset:self.offset + extent] = new + bytes(extent - len(new))
        self.set_size(len(new))

    def function(self, name):
        """Address of the function symbol @name (.symtab first, then .dynsym)."""
        for want in (SHT_SYMTAB, SHT_DYNSYM):
            for sh in self.shdrs:
                if sh["type"] != want or sh["entsize"] != 24:
                    continue
                strtab = self.shdrs[sh["link"]]["off"]
                for at in range(sh["off"], sh["off"] + sh["size"], 24):
                    st_name, info, _, shndx, value, _ = struct.unpack_from("<IBBHQQ", self.data, at)
                    if info & 0xF == STT_FUNC and shndx != 0 and \
                            self._cstr(strtab + st_name) == name.encode():
                        return value
        raise Refused(f"{self.path}: no function symbol {name} in .symtab or .dynsym")

    def set_type(self, stype):
        if self.shdr:
            struct.pack_into("<I", self.data, self.shdr["at"] + 4, stype)

    def write(self, path):
        """Write the file to @path with the input's permissions (programs stay runnable)."""
        with open(path, "wb") as f:
            f.write(self.data)
        os.chmod(path, stat.S_IMODE(os.stat(self.path).st_mode))


class Section:
    """A decoded v2 or v3 amd64 section: header fields and one record per FDE."""

    def __init__(self, raw, vaddr, what):
        self.what = what
        if len(raw) < HDR.size:
            raise Refused(f"{what}: 0x{len(raw):x} bytes, shorter than the SFrame header")
        (magic, self.version, self.flags, self.abi, self.fixed_fp, self.fixed_ra, aux,
         num_fdes, self.num_fres, fre_len, fdeoff, freoff) = HDR.unpack_from(raw)
        if magic != MAGIC:
            raise Refused(f"{what}: bad magic 0x{magic:04x}")
        if self.version not in FDE_SIZE:
            raise Refused(f"{what}: SFrame version {self.version} (only 2 and 3 are read)")
        if self.abi != ABI_AMD64:
            raise Refused(f"{what}: ABI {self.abi}: only amd64 little endian (3) is supported")
        if aux:
            raise Refused(f"{what}: auxiliary header of {aux} bytes (no toolchain writes one)")
        esize = FDE_SIZE[self.version]
        self.fde_start = HDR.size + fdeoff
        self.fre_start = HDR.size + freoff
        self.fre_len = fre_len
        if self.fde_start + num_fdes * esize > self.fre_start or \
                self.fre_start + fre_len > len(raw):
            raise Refused(f"{what}: FDE or FRE area out of bounds")
        self.vaddr = vaddr
        self.fdes = []
        for i in range(num_fdes):
            self.fdes.append(self._decode_fde(raw, i, esize))

    def _decode_fde(self, raw, i, esize):
        at = self.fde_start + i * esize
        if self.version == 3:
            start, size, fre_off = V3_FDE.unpack_from(raw, at)
            if fre_off + V3_ATTR.size > self.fre_len:
                raise Refused(f"{self.what}: FDE {i}: attribute record out of bounds")
            nfres, info, info2, rep = V3_ATTR.unpack_from(raw, self.fre_start + fre_off)
            run = fre_off + V3_ATTR.size
        else:
            start, size, fre_off, nfres, info, rep, _ = V2_FDE.unpack_from(raw, at)
            info2 = 0
            run = fre_off
        base = at if self.flags & F_PCREL else 0
        fde = dict(index=i, entry=at, start=self.vaddr + base + start, size=size,
                   fre_off=fre_off, run=run, nfres=nfres, info=info, info2=info2, rep=rep)
        fre_type = info & 0xF
        if fre_type >= len(ADDR_BYTES):
            raise Refused(f"{self.what}: FDE {i}: FRE type {fre_type}")
        pos = self.fre_start + run
        end = self.fre_start + self.fre_len
        for j in range(nfres):
            if pos + ADDR_BYTES[fre_type] + 1 > end:
                raise Refused(f"{self.what}: FDE {i}: FRE {j} runs past the FRE area")
            fre_info = raw[pos + ADDR_BYTES[fre_type]]
            code = (fre_info >> 5) & 3
            if code == 3:
                raise Refused(f"{self.what}: FDE {i}: FRE {j}: data-word size code 3")
            pos += ADDR_BYTES[fre_type] + 1 + ((fre_info >> 1) & 0xF) * WORD_BYTES[code]
            if pos > end:
                raise Refused(f"{self.what}: FDE {i}: FRE {j} runs past the FRE area")
        fde["fres"] = raw[self.fre_start + run:pos]
        return fde

    def fde_of(self, addr, name):
        for fde in self.fdes:
            if fde["start"] <= addr < fde["start"] + fde["size"]:
                return fde
        raise Refused(f"{self.what}: no FDE covers {name} (0x{addr:x})")

    def encode(self, version, pcrel):
        """The section in @version; the FRE blocks keep their order in the FRE area."""
        esize = FDE_SIZE[version]
        flags = (self.flags & F_SORTED) | (F_PCREL if pcrel else 0)
        area = bytearray()
        offs = {}
        for fde in sorted(self.fdes, key=lambda f: (f["run"], f["index"])):
            offs[fde["index"]] = len(area)
            if version == 3:
                area += V3_ATTR.pack(fde["nfres"], fde["info"], fde["info2"], fde["rep"])
            area += fde["fres"]
        entries = bytearray()
        for i, fde in enumerate(self.fdes):
            start = fde["start"] - self.vaddr - (HDR.size + i * esize if pcrel else 0)
            if version == 3:
                entries += V3_FDE.pack(start, fde["size"], offs[i])
            else:
                if not -2**31 <= start < 2**31:
                    raise Refused(f"{self.what}: FDE {i}: start 0x{fde['start']:x} is "
                                  "beyond a v2 FDE's 32-bit reach")
                entries += V2_FDE.pack(start, fde["size"], offs[i], fde["nfres"], fde["info"],
                                       fde["rep"], 0)
        head = HDR.pack(MAGIC, version, flags, self.abi, self.fixed_fp, self.fixed_ra, 0,
                        len(self.fdes), sum(f["nfres"] for f in self.fdes), len(area), 0,
                        len(entries))
        return head + entries + area

    def check_v2_expressible(self):
        if self.version != 3:
            raise Refused(f"{self.what}: SFrame version {self.version}, not 3")
        if self.flags & ~(F_SORTED | F_PCREL):
            raise Refused(f"{self.what}: flags 0x{self.flags:x} beyond SORTED and PCREL")
        for fde in self.fdes:
            where = f"{self.what}: FDE {fde['index']} (function at 0x{fde['start']:x})"
            fde_type = fde["info2"] & 0x1F
            if fde_type:
                raise Refused(f"{where}: FDE type {fde_type} "
                              f"({'FLEX' if fde_type == 1 else 'reserved'}): v2 has DEFAULT "
                              "FDEs only")
            if fde["info2"]:
                raise Refused(f"{where}: unused attribute bits 0x{fde['info2']:x} set")
            if fde["info"] & 0x80:
                raise Refused(f"{where}: a signal frame, which v2 cannot mark")
            if fde["info"] & 0x40:
                raise Refused(f"{where}: unused info bit 6 set")
            if fde["nfres"] == 0:
                raise Refused(f"{where}: no FREs, which v3 reads as an outermost frame and "
                              "v2 as no information")


def load(path):
    elf = Elf(path)
    return elf, Section(elf.section(), elf.vaddr, f"{path}: .sframe")


def cmd_to_v2(args):
    elf, sec = load(args.input)
    sec.check_v2_expressible()
    # Only a layout the encoder writes back unchanged is understood well enough
    # to re-encode (no gaps, shared or reordered records, trailing bytes).
    if sec.encode(3, bool(sec.flags & F_PCREL)) != elf.section():
        raise Refused(f"{sec.what}: the section's layout is not the one gas and ld write "
                      "(re-encoding it as v3 does not give the same bytes)")
    new = sec.encode(2, args.pcrel)
    old = elf.size
    elf.replace_section(new)
    elf.set_type(SHT_GNU_SFRAME if args.pcrel else SHT_PROGBITS)
    elf.write(args.output)
    print(f"{args.output}: v3 -> v2{' PCREL' if args.pcrel else ''}, {len(sec.fdes)} FDEs, "
          f"0x{old:x} -> 0x{len(new):x} bytes at 0x{elf.vaddr:x}")


def cmd_corrupt(args):
    elf, sec = load(args.input)
    if args.kind == "header":
        old = elf.size
        elf.set_size(CORRUPT_HEADER_SIZE)
        msg = (f"header: PT_GNU_SFRAME p_filesz/p_memsz{' and .sframe sh_size' if elf.shdr else ''}"
               f" 0x{old:x} -> 0x{CORRUPT_HEADER_SIZE:x} (the header takes 0x{HDR.size:x})")
    else:
        if not args.func:
            raise Refused(f"corrupt {args.kind} needs --func NAME")
        fde = sec.fde_of(elf.function(args.func), args.func)
        func = (f"FDE {fde['index']} ({args.func} at 0x{fde['start']:x}, "
                f"0x{fde['size']:x} bytes)")
        if args.kind == "fde":
            field = fde["entry"] + (12 if sec.version == 3 else 8)
            struct.pack_into("<I", elf.data, elf.offset + field, sec.fre_len)
            msg = (f"fde: {func}: FRE offset 0x{fde['fre_off']:x} -> 0x{sec.fre_len:x} "
                   "(the FRE area's length)")
        elif args.kind == "rep":
            # The info byte's PC type bit (4) and the repetition size: in v3's
            # attribute record (count, info, info2, rep), in v2's FDE itself.
            if sec.version == 3:
                info_at = sec.fre_start + fde["fre_off"] + 2
                rep_at = info_at + 2
            else:
                info_at = fde["entry"] + 16
                rep_at = info_at + 1
            elf.data[elf.offset + info_at] = fde["info"] | PC_TYPE_MASK
            elf.data[elf.offset + rep_at] = 0
            msg = (f"rep: {func}: PC type PCMASK, repetition size {fde['rep']} -> 0 "
                   f"(info 0x{fde['info']:x} -> 0x{fde['info'] | PC_TYPE_MASK:x})")
        else:
            count = (sec.fre_len - fde["run"]) // FRE_MIN_BYTES + 1
            if sec.version == 3:
                if count > 0xFFFF:
                    raise Refused(f"{sec.what}: {func}: the FRE area is too large for a "
                                  "16-bit FRE count to run past its end")
                struct.pack_into("<H", elf.data, elf.offset + sec.fre_start + fde["fre_off"],
                                 count)
            else:
                struct.pack_into("<I", elf.data, elf.offset + fde["entry"] + 12, count)
            msg = (f"fre: {func}: FRE count {fde['nfres']} -> {count} (0x{sec.fre_len:x}-byte "
                   f"FRE area, its FREs from 0x{fde['run']:x})")
    elf.write(args.output)
    print(msg)


def cmd_nest(args):
    elf, sec = load(args.input)
    fde = sec.fde_of(elf.function(args.func), args.func)
    after = [f for f in sec.fdes if f["start"] > fde["start"]]
    if not after:
        raise Refused(f"{sec.what}: no function after {args.func}")
    inner = min(after, key=lambda f: f["start"])
    size = inner["start"] + inner["size"] - fde["start"]
    # The size follows the start: v3's 8-byte start, v2's 4-byte one.
    struct.pack_into("<I", elf.data, elf.offset + fde["entry"] + (8 if sec.version == 3 else 4),
                     size)
    elf.write(args.output)
    print(f"nest: FDE {fde['index']} ({args.func} at 0x{fde['start']:x}) 0x{fde['size']:x} -> "
          f"0x{size:x} bytes: FDE {inner['index']} (at 0x{inner['start']:x}, "
          f"0x{inner['size']:x} bytes) inside it")


def cmd_info(args):
    elf = Elf(args.file)
    raw = elf.section()
    names = [n for bit, n in ((F_SORTED, "SORTED"), (F_FRAME_POINTER, "FRAME_POINTER"),
                              (F_PCREL, "PCREL")) if len(raw) >= HDR.size and raw[3] & bit]
    print(f"address 0x{elf.vaddr:x}")
    print(f"offset 0x{elf.offset:x}")
    print(f"size 0x{elf.size:x}")
    print(f"segment-size 0x{elf.filesz:x}")
    if elf.shdr:
        print(f"section-type 0x{elf.shdr['type']:x}")
    if len(raw) < HDR.size:
        raise Refused(f"{args.file}: .sframe: 0x{len(raw):x} bytes, shorter than the header")
    hdr = HDR.unpack_from(raw)
    print(f"version {hdr[1]}")
    print(f"flags 0x{hdr[2]:x}{''.join(' ' + n for n in names)}")
    print(f"fdes {hdr[7]}")
    print(f"fres {hdr[8]}")


def main():
    p = argparse.ArgumentParser(prog="sframe-elf.py", description=__doc__.split("\n\n")[0],
                                epilog=__doc__.split("\n\n", 1)[1],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("to-v2", help="re-encode the v3 section as v2")
    s.add_argument("input")
    s.add_argument("output")
    s.add_argument("--pcrel", action="store_true",
                   help="function starts relative to their FDE field (binutils 2.45)")
    s.set_defaults(run=cmd_to_v2)
    s = sub.add_parser("corrupt", help="break the section one way")
    s.add_argument("input")
    s.add_argument("output")
    s.add_argument("kind", choices=("header", "fde", "fre", "rep"))
    s.add_argument("--func", help="the function whose FDE or FREs break (fde, fre)")
    s.set_defaults(run=cmd_corrupt)
    s = sub.add_parser("nest", help="nest the next function inside one")
    s.add_argument("input")
    s.add_argument("output")
    s.add_argument("--func", required=True, help="the function whose FDE grows")
    s.set_defaults(run=cmd_nest)
    s = sub.add_parser("info", help="print the section's header facts")
    s.add_argument("file")
    s.set_defaults(run=cmd_info)
    args = p.parse_args()
    try:
        args.run(args)
    except Refused as e:
        print(f"sframe-elf.py: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"sframe-elf.py: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
