#!/usr/bin/env python3
"""Generates the fixtures of the dev.ein4j.nn.io tests (run from any directory; numpy only).

    python3 make_fixtures.py

Writes, next to this script:
  npy/*.npy          arrays saved by numpy: every dtype the reader takes, ranks 0-4, zero-size,
                     big-endian, Fortran order, format versions 2.0 and 3.0, two arrays in one file
  bad/*.npy          valid numpy files the reader must reject (object, structured, complex, ...)
  npz/*.npz          np.savez and np.savez_compressed archives
  st/*.safetensors   safetensors files written by hand (struct + json: the safetensors package
                     is not needed), one with metadata and every dtype the reader takes
  expected.json      for every readable file, each array's dtype, shape and values in C order:
                     floats as their IEEE bit patterns (int32 / int64), ints as ints, bools as 0/1

The C-order little-endian float32/float64/int32/bool files double as the twins of the Java
writer: the tests build the same arrays from expected.json, write them and compare bytes.
"""
import io
import json
import os
import struct

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(20240601)
expected = {}


def path(name):
    full = os.path.join(HERE, name)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    return full


def record(key, array, target):
    """Expected content of `key` as the Java reader returns it: dtype `target`."""
    a = np.array(array, order="C")  # not ascontiguousarray: it makes 0-d arrays 1-d
    if target == "float32":
        values = a.astype(np.float32).view(np.int32).ravel().tolist()
    elif target == "float64":
        values = a.astype(np.float64).view(np.int64).ravel().tolist()
    elif target == "int32":
        values = [int(v) for v in a.ravel()]
    else:
        values = [int(bool(v)) for v in a.ravel()]
    expected[key] = {"dtype": target, "shape": list(a.shape), "values": values}


def values(dtype, shape):
    n = int(np.prod(shape, dtype=np.int64))
    if dtype == np.bool_:
        return (rng.integers(0, 2, n) == 1).reshape(shape)
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        v = rng.integers(max(info.min, -1000), min(info.max, 1000), n, endpoint=True).astype(dtype)
        special = [info.min, info.max, 0, -1 if info.min < 0 else 1]
    else:
        v = (rng.standard_normal(n) * 100).astype(dtype)
        finfo = np.finfo(dtype)
        special = [np.nan, np.inf, -np.inf, -0.0, finfo.tiny / 4, finfo.max, finfo.eps]
    for i in range(min(len(special), n)):
        v.flat[i] = special[i]
    return v.reshape(shape)


TARGET = {np.float32: "float32", np.float64: "float64", np.int32: "int32", np.bool_: "bool",
          np.float16: "float32", np.int8: "int32", np.uint8: "int32", np.int16: "int32",
          np.uint16: "int32", np.uint32: "int32", np.int64: "int32", np.uint64: "int32"}
CODE = {np.float32: "f4", np.float64: "f8", np.int32: "i4", np.bool_: "b1"}
SHAPES = [(), (5,), (2, 3), (2, 3, 4), (2, 1, 3, 2)]

# ---------------------------------------------------------------- npy, C order, native types
for dtype, code in CODE.items():
    for rank, shape in enumerate(SHAPES):
        a = values(dtype, shape)
        name = f"npy/{code}_r{rank}.npy"
        np.save(path(name), a)
        record(name, a, TARGET[dtype])
    for label, shape in [("zero", (2, 0, 3)), ("empty", (0,)), ("wide", (123456789, 0))]:
        a = np.zeros(shape, dtype)
        name = f"npy/{code}_{label}.npy"
        np.save(path(name), a)
        record(name, a, TARGET[dtype])
# a first length with many digits: numpy's spare header space shrinks to match
a = values(np.float32, (1000000, 0))
np.save(path("npy/f4_million.npy"), a)
record("npy/f4_million.npy", a, "float32")

# ---------------------------------------------------------------- other types, read as wider or narrower ones
for dtype, shape in [(np.float16, (3, 4)), (np.int8, (6,)), (np.uint8, (2, 5)), (np.int16, (4, 2)),
                     (np.uint16, (7,)), (np.uint32, (5,)), (np.int64, (2, 3)), (np.uint64, (4,))]:
    a = values(dtype, shape)
    if dtype in (np.uint32, np.uint64):
        a = np.minimum(a, np.iinfo(np.int32).max).astype(dtype)
    if dtype == np.int64:
        a = np.clip(a, np.iinfo(np.int32).min, np.iinfo(np.int32).max).astype(dtype)
        a.flat[0], a.flat[1] = np.iinfo(np.int32).min, np.iinfo(np.int32).max
    name = f"npy/{np.dtype(dtype).str[1:]}.npy"
    np.save(path(name), a)
    record(name, a, TARGET[dtype])

# ---------------------------------------------------------------- big-endian
for dtype, shape in [(">f4", (3, 4)), (">f8", (2, 3)), (">i4", (5,)), (">i8", (2, 2)), (">i2", (3,)),
                     (">f2", (4,))]:
    base = np.dtype(dtype).newbyteorder("=").type
    a = values(base, shape)
    if base == np.int64:
        a = np.clip(a, -2**31, 2**31 - 1).astype(np.int64)
    name = f"npy/be_{dtype[1:]}.npy"
    np.save(path(name), a.astype(dtype))
    record(name, a, TARGET[base])

# ---------------------------------------------------------------- Fortran order
for dtype, shape, label in [(np.float32, (3, 4), "f4_2d"), (np.int32, (2, 3, 4), "i4_3d"),
                            (np.float64, (2, 3, 1, 2), "f8_4d"), (np.bool_, (3, 5), "b1_2d"),
                            (np.float32, (4, 0), "f4_zero")]:
    a = np.asfortranarray(values(dtype, shape))
    name = f"npy/fortran_{label}.npy"
    np.save(path(name), a)
    record(name, a, TARGET[dtype])
a = np.asfortranarray(values(np.float32, (3, 2))).astype(">f4", order="F")
np.save(path("npy/fortran_be_f4.npy"), a)
record("npy/fortran_be_f4.npy", a, "float32")
with open(path("npy/fortran_be_f4.npy"), "rb") as f:
    assert b"'fortran_order': True" in f.read(128)

# ---------------------------------------------------------------- format versions 2.0 and 3.0
for version in [(2, 0), (3, 0)]:
    a = values(np.float32, (2, 3))
    name = f"npy/v{version[0]}.npy"
    with open(path(name), "wb") as f:
        np.lib.format.write_array(f, a, version=version)
    record(name, a, "float32")

# ---------------------------------------------------------------- two arrays in one file, read in turn from a stream
first, second = values(np.int32, (3,)), values(np.float64, (2, 2))
with open(path("npy/two_arrays.npy"), "wb") as f:
    np.save(f, first)
    np.save(f, second)
record("npy/two_arrays.npy#0", first, "int32")
record("npy/two_arrays.npy#1", second, "float64")

# ---------------------------------------------------------------- valid numpy files the reader rejects
np.save(path("bad/object.npy"), np.array([1, "a", None], dtype=object), allow_pickle=True)
np.save(path("bad/structured.npy"), np.zeros(3, dtype=[("x", "<f4"), ("y", "<i4")]))
np.save(path("bad/complex.npy"), np.ones(3, dtype=np.complex64))
np.save(path("bad/unicode.npy"), np.array(["ab", "c"]))
np.save(path("bad/datetime.npy"), np.array(["2020-01-01"], dtype="datetime64[D]"))
np.save(path("bad/i8_overflow.npy"), np.array([1, 2**31, 3], dtype=np.int64))
np.save(path("bad/u4_overflow.npy"), np.array([2**32 - 1], dtype=np.uint32))
np.save(path("bad/f16.npy"), np.ones(2, dtype=np.float64).astype(np.longdouble))

# ---------------------------------------------------------------- npz
arrays = {"weight": values(np.float32, (3, 4)), "bias": values(np.float64, (4,)),
          "labels": values(np.int32, (5,)), "mask": values(np.bool_, (2, 2)),
          "scalar": values(np.float32, ()), "empty": np.zeros((0, 3), np.int32),
          "nested/name": values(np.int16, (2,))}
np.savez(path("npz/stored.npz"), **arrays)
np.savez_compressed(path("npz/compressed.npz"), **arrays)
for key, a in arrays.items():
    for kind in ("stored", "compressed"):
        record(f"npz/{kind}.npz#{key}", a, TARGET[a.dtype.type])


# ---------------------------------------------------------------- safetensors, written by hand
def safetensors(name, tensors, metadata=None, order=None, pad=True):
    """tensors: list of (name, code, shape, little-endian bytes); data follows in list order."""
    header, offset = {}, 0
    if metadata is not None:
        header["__metadata__"] = metadata
    for tname, code, shape, data in tensors:
        header[tname] = {"dtype": code, "shape": list(shape), "data_offsets": [offset, offset + len(data)]}
        offset += len(data)
    text = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode()
    if pad:
        text += b" " * (-len(text) % 8)
    with open(path(name), "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + b"".join(t[3] for t in tensors))


def bf16(a):
    """bfloat16 bytes of float32 values (truncated) and the float32 values they stand for."""
    bits = a.astype("<f4").view("<u4") >> 16
    return bits.astype("<u2").tobytes(), (bits.astype(np.uint32) << 16).view(np.float32)


st = []
for code, dtype, shape in [("F64", np.float64, (2, 2)), ("I64", np.int64, (3,)), ("U64", np.uint64, (2,)),
                           ("F32", np.float32, (2, 3)), ("I32", np.int32, (4,)), ("U32", np.uint32, (2,)),
                           ("F16", np.float16, (2, 2)), ("I16", np.int16, (3,)), ("U16", np.uint16, (3,)),
                           ("I8", np.int8, (2,)), ("U8", np.uint8, (2, 2)), ("BOOL", np.bool_, (5,)),
                           ("F32", np.float32, ()), ("F32", np.float32, (0, 3)), ("I32", np.int32, (1, 1, 2, 1))]:
    a = values(dtype, shape)
    if dtype in (np.int64, np.uint32, np.uint64):
        a = np.clip(a, 0 if dtype != np.int64 else -2**31, 2**31 - 1).astype(dtype)
    tname = f"{code.lower()}_{len(shape)}d" + ("_empty" if a.size == 0 else "")
    st.append((tname, code, shape, a.astype(np.dtype(dtype).newbyteorder("<")).tobytes()))
    record(f"st/all.safetensors#{tname}", a, TARGET[dtype])
raw, widened = bf16(values(np.float32, (2, 3)))
st.append(("bf16_2d", "BF16", (2, 3), raw))
record("st/all.safetensors#bf16_2d", widened, "float32")
safetensors("st/all.safetensors", st, metadata={"format": "pt", "note": "ünïcode ✓"})
expected["st/all.safetensors#__metadata__"] = {"format": "pt", "note": "ünïcode ✓"}

# unpadded header, no metadata, a name that needs JSON escapes
w = values(np.float32, (2, 2))
safetensors("st/plain.safetensors", [('a "quoted"\\name', "F32", (2, 2), w.tobytes())], pad=False)
record('st/plain.safetensors#a "quoted"\\name', w, "float32")

# an empty file of tensors: the 8-byte length and "{}"
safetensors("st/empty.safetensors", [], pad=False)

with open(path("expected.json"), "w") as f:
    json.dump(expected, f, indent=0, sort_keys=True, ensure_ascii=False)
    f.write("\n")
print(f"{len(expected)} expected arrays")
