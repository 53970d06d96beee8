#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Apply a Raspberry Pi overlay with parameters, the way the Pi firmware does.

    pi-dtmerge.py BASE.dtb OUT.dtb OVERLAY.dtbo [param[=value] ...]

Two `dtoverlay=` lines in config.txt are two runs, the second taking the
first one's OUT as its BASE.

The firmware (and Raspberry Pi's dtmerge tool, which shares its code) does
not use the kernel's overlay rules: parameters rewrite the overlay through
its __overrides__ node before the merge, a rewritten "reg" renames the
node's unit address, and fragments merge into the base by node name. Debian
has no such tool, so this is our own implementation of the subset the
lps001wp overlay uses, in this order:

 1. resolve __fixups__ against the base's __symbols__ (a base node without
    a phandle gets the next free one) and move every phandle the overlay
    defines above the base's highest (__local_fixups__ patch the
    references), so each instance has its own phandles;
 2. apply each parameter's __overrides__ entries:
      <0>,"+N-N=N!N"        enable/disable fragment@N (= and ! follow the value)
      <&n>,"prop:off"       a 32-bit cell at byte offset off (created if
                            absent, except "reg"); "reg:0" also sets the
                            node's unit address to the new value, in hex
      <&n>,"prop?"          a boolean: true sets an empty prop, false deletes it
      <&n>,"prop"           a string (for "status", booleans become okay/disabled)
      ...="lit" / ...=",<c> the literal string or the cell that follows
                            replaces the parameter's value
 3. merge the fragments whose target lies in the overlay itself into the
    overlay, then the others into the base: target (a phandle) or
    target-path (a path or an alias); properties are copied over, child
    nodes matched by full name (name@unit) and created when missing, so
    two nodes of the same name from two instances become one;
 4. the overlay's labels stay private (no __exports__ here), as on the Pi.

Anything else (byte strings, lookup tables, __exports__, ...) is refused
with a message rather than half done.
"""

import struct
import sys

FDT_MAGIC = 0xD00DFEED
FDT_BEGIN_NODE, FDT_END_NODE, FDT_PROP, FDT_NOP, FDT_END = 1, 2, 3, 4, 9


class Error(Exception):
    pass


class Node:
    def __init__(self, name, parent=None):
        self.name = name
        self.parent = parent
        self.props = {}  # name -> bytes, in insertion order
        self.children = []

    def child(self, name):
        for c in self.children:
            if c.name == name:
                return c
        return None

    def add_child(self, name):
        c = Node(name, self)
        self.children.append(c)
        return c

    def walk(self):
        yield self
        for c in self.children:
            yield from c.walk()

    def path(self):
        if self.parent is None:
            return "/"
        parent = self.parent.path()
        return (parent if parent != "/" else "") + "/" + self.name

    def phandle(self):
        v = self.props.get("phandle")
        return struct.unpack(">I", v[:4])[0] if v and len(v) >= 4 else 0


# ------------------------------------------------------------ FDT blobs

def load(path):
    with open(path, "rb") as f:
        blob = f.read()
    (magic, _size, off_struct, off_strings, _rsv, version, _last,
     _cpu, size_strings, size_struct) = struct.unpack(">10I", blob[:40])
    if magic != FDT_MAGIC or version < 17:
        raise Error(f"{path}: not a version 17 FDT")
    strings = blob[off_strings:off_strings + size_strings]
    pos, end = off_struct, off_struct + size_struct
    root, node = None, None

    def cstr(data, at):
        nul = data.index(b"\0", at)
        return data[at:nul].decode(), nul + 1

    while pos < end:
        (token,) = struct.unpack(">I", blob[pos:pos + 4])
        pos += 4
        if token == FDT_BEGIN_NODE:
            name, pos = cstr(blob, pos)
            pos = (pos + 3) & ~3
            if node is None:
                root = node = Node("")
            else:
                node = node.add_child(name)
        elif token == FDT_END_NODE:
            node = node.parent
        elif token == FDT_PROP:
            length, nameoff = struct.unpack(">II", blob[pos:pos + 8])
            pos += 8
            pname, _ = cstr(strings, nameoff)
            node.props[pname] = blob[pos:pos + length]
            pos = (pos + length + 3) & ~3
        elif token == FDT_NOP:
            continue
        elif token == FDT_END:
            break
        else:
            raise Error(f"{path}: bad FDT token {token}")
    return root


def save(root, path):
    strings, offsets, body = bytearray(), {}, bytearray()

    def string_off(name):
        if name not in offsets:
            offsets[name] = len(strings)
            strings.extend(name.encode() + b"\0")
        return offsets[name]

    def emit(node):
        body.extend(struct.pack(">I", FDT_BEGIN_NODE))
        body.extend(node.name.encode() + b"\0")
        body.extend(b"\0" * (-len(body) % 4))
        for name, value in node.props.items():
            body.extend(struct.pack(">III", FDT_PROP, len(value), string_off(name)))
            body.extend(value)
            body.extend(b"\0" * (-len(body) % 4))
        for c in node.children:
            emit(c)
        body.extend(struct.pack(">I", FDT_END_NODE))

    emit(root)
    body.extend(struct.pack(">I", FDT_END))
    rsvmap = b"\0" * 16
    off_rsv = 40
    off_struct = off_rsv + len(rsvmap)
    off_strings = off_struct + len(body)
    total = off_strings + len(strings)
    header = struct.pack(">10I", FDT_MAGIC, total, off_struct, off_strings,
                         off_rsv, 17, 16, 0, len(strings), len(body))
    with open(path, "wb") as f:
        f.write(header + rsvmap + bytes(body) + bytes(strings))


# ------------------------------------------------------------ tree helpers

def find_path(root, path):
    """A node by absolute path, or by alias (a path not starting with /)."""
    if not path.startswith("/"):
        alias, _, rest = path.partition("/")
        aliases = root.child("aliases")
        if aliases is None or alias not in aliases.props:
            return None
        path = aliases.props[alias].rstrip(b"\0").decode() + ("/" + rest if rest else "")
    node = root
    for part in filter(None, path.split("/")):
        node = node.child(part)
        if node is None:
            return None
    return node


def by_phandle(root, ph):
    for n in root.walk():
        if ph and n.phandle() == ph:
            return n
    return None


def max_phandle(root):
    return max((n.phandle() for n in root.walk()), default=0)


def get_u32(data, off):
    return struct.unpack(">I", data[off:off + 4])[0]


def put_u32(data, off, value):
    return data[:off] + struct.pack(">I", value & 0xFFFFFFFF) + data[off + 4:]


def strings_of(value):
    return [s.decode() for s in value.split(b"\0")[:-1]]


# ------------------------------------------------------------ 1. phandles

def resolve_fixups(base, ov):
    symbols = base.child("__symbols__")
    fixups = ov.child("__fixups__")
    if fixups is None:
        return
    for label, locations in fixups.props.items():
        if label.startswith("/"):
            target = find_path(base, label)
        elif symbols is None or label not in symbols.props:
            raise Error(f"overlay refers to label '{label}', which the base does not define")
        else:
            target = find_path(base, symbols.props[label].rstrip(b"\0").decode())
        if target is None:
            raise Error(f"base symbol '{label}' names a missing node")
        ph = target.phandle()
        if not ph:
            ph = max_phandle(base) + 1
            target.props["phandle"] = struct.pack(">I", ph)
        for loc in strings_of(locations):
            npath, prop, off = loc.rsplit(":", 2)
            node = find_path(ov, npath)
            if node is None or prop not in node.props:
                raise Error(f"fixup location {loc} does not exist")
            node.props[prop] = put_u32(node.props[prop], int(off), ph)


def relocate_phandles(base, ov):
    delta = max_phandle(base)
    for n in ov.walk():
        for p in ("phandle", "linux,phandle"):
            if p in n.props:
                n.props[p] = put_u32(n.props[p], 0, get_u32(n.props[p], 0) + delta)

    def patch(fix, node):
        for prop, offs in fix.props.items():
            for i in range(0, len(offs), 4):
                off = get_u32(offs, i)
                node.props[prop] = put_u32(node.props[prop], off,
                                           get_u32(node.props[prop], off) + delta)
        for c in fix.children:
            sub = node.child(c.name)
            if sub is None:
                raise Error(f"__local_fixups__ names {c.name}, not in the overlay")
            patch(c, sub)

    local = ov.child("__local_fixups__")
    if local is not None:
        patch(local, ov)


# ------------------------------------------------------------ 2. overrides

TRUE_WORDS = ("y", "yes", "on", "true", "down")
FALSE_WORDS = ("n", "no", "off", "false")


def as_int(value):
    try:
        return int(value, 0)
    except ValueError:
        pass
    if value in TRUE_WORDS:
        return 1
    if value in FALSE_WORDS:
        return 0
    raise Error(f"'{value}' is not a number")


def set_fragment(ov, num, active):
    frag = ov.child(f"fragment@{num}") or ov.child(f"fragment-{num}")
    if frag is None:
        raise Error(f"fragment {num} not found")
    want, other = ("__overlay__", "__dormant__") if active else ("__dormant__", "__overlay__")
    node = frag.child(other)
    if node is not None:
        node.name = want


def fragment_ops(ov, ops, value):
    i = 0
    while i < len(ops):
        op = ops[i]
        j = i + 1
        while j < len(ops) and ops[j].isdigit():
            j += 1
        if op not in "+-=!" or j == i + 1:
            raise Error(f"bad fragment operation in '{ops}'")
        num = int(ops[i + 1:j])
        on = value not in ("", "0") and value not in FALSE_WORDS
        set_fragment(ov, num, op == "+" or (op == "=" and on) or (op == "!" and not on))
        i = j


def apply_override(ov, param, value):
    overrides = ov.child("__overrides__")
    if overrides is None or param not in overrides.props:
        raise Error(f"unknown parameter '{param}'")
    data = overrides.props[param]
    pos = 0
    while pos < len(data):
        ph = get_u32(data, pos)
        pos += 4
        nul = data.index(b"\0", pos)
        spec = data[pos:nul].decode()
        pos = nul + 1
        if ph == 0:
            fragment_ops(ov, spec, value)
            continue
        node = by_phandle(ov, ph)
        if node is None:
            raise Error(f"{param}: phandle {ph} is not in the overlay")
        v = value
        name_end = len(spec)
        for k, ch in enumerate(spec):
            if ch in ".;:#?![{=":
                name_end = k
                break
        prop, rest = spec[:name_end], spec[name_end:]
        kind, off = "string", None
        if rest[:1] == "?":
            kind, rest = "bool", rest[1:]
        elif rest[:1] == ":":
            digits = ""
            rest = rest[1:]
            while rest[:1].isdigit():
                digits, rest = digits + rest[0], rest[1:]
            kind, off = "cell", int(digits or "0")
        elif rest[:1] in (".", ";", "#", "!", "[", "{"):
            raise Error(f"{param}: '{spec}' uses a form this tool does not implement")
        if rest[:1] == "=":
            literal = rest[1:]
            if literal:
                v = literal
            elif kind == "cell":
                v = str(get_u32(data, pos))
                pos += 4
            else:
                nul = data.index(b"\0", pos)
                v = data[pos:nul].decode()
                pos = nul + 1
        elif rest:
            raise Error(f"{param}: cannot parse '{spec}'")

        if kind == "cell":
            n = as_int(v)
            old = node.props.get(prop)
            if old is None or len(old) < off + 4:
                if prop != "reg":  # the firmware never creates or grows reg
                    grown = (old or b"").ljust(off + 4, b"\0")
                    node.props[prop] = put_u32(grown, off, n)
            else:
                node.props[prop] = put_u32(old, off, n)
            if prop == "reg" and off == 0 and "@" in node.name:
                node.name = node.name.split("@")[0] + f"@{n & 0xFFFFFFFF:x}"
        elif kind == "bool":
            if as_int(v):
                node.props[prop] = b""
            else:
                node.props.pop(prop, None)
        else:
            if prop == "status":
                if v in ("y", "yes", "on", "true", "enable", "1"):
                    v = "okay"
                elif v in ("n", "no", "off", "false", "0"):
                    v = "disabled"
            node.props[prop] = v.encode() + b"\0"


# ------------------------------------------------------------ 3. merge

def merge(target, src, depth=0):
    for name, value in src.props.items():
        if name == "name" or (depth == 0 and name in ("phandle", "linux,phandle")):
            continue
        target.props[name] = value
    for c in src.children:
        sub = target.child(c.name) or target.add_child(c.name)
        merge(sub, c, depth + 1)


def fragments(ov):
    return [c for c in ov.children
            if c.name.startswith("fragment@") or c.name.startswith("fragment-")]


def merge_overlay(base, ov):
    # Fragments aimed at the overlay's own nodes first (e.g. the INT1
    # properties merged into the sensor node), then disabled.
    for frag in fragments(ov):
        body = frag.child("__overlay__")
        if body is None or "target" not in frag.props:
            continue
        target = by_phandle(ov, get_u32(frag.props["target"], 0))
        if target is not None:
            merge(target, body)
            body.name = "__dormant__"
    for frag in fragments(ov):
        body = frag.child("__overlay__")
        if body is None:
            continue
        if "target-path" in frag.props:
            tpath = frag.props["target-path"].rstrip(b"\0").decode()
            target = find_path(base, tpath)
            what = f"target-path '{tpath}'"
        elif "target" in frag.props:
            ph = get_u32(frag.props["target"], 0)
            target = by_phandle(base, ph)
            what = f"target phandle {ph}"
        else:
            raise Error(f"{frag.name} has neither target nor target-path")
        if target is None:
            raise Error(f"{frag.name}: {what} is not in the base")
        merge(target, body)
    if ov.child("__exports__") is not None:
        raise Error("__exports__ is not implemented")


def main(argv):
    if len(argv) < 4:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    base_path, out_path, ov_path, params = argv[1], argv[2], argv[3], argv[4:]
    try:
        base, ov = load(base_path), load(ov_path)
        resolve_fixups(base, ov)
        relocate_phandles(base, ov)
        for p in params:
            name, eq, value = p.partition("=")
            apply_override(ov, name, value if eq else "true")
        merge_overlay(base, ov)
        save(base, out_path)
    except Error as e:
        print(f"pi-dtmerge: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
