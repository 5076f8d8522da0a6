#!/usr/bin/env python3
"""Minimal CQL native-protocol (v4) client, standard library only.

Used by scripts/cassandra.sh to check that a node really answers CQL (not just
that its port is open) and to run the odd statement in tests without cqlsh or
a driver.

    cql.py [--host H] [--port P] [--timeout S] [--consistency CL] [--quiet] [STATEMENT ...]

Without a statement it runs `SELECT release_version FROM system.local`.
Each statement is sent as a QUERY at consistency ONE, or --consistency
(ONE, QUORUM, ALL: scripts/cassandra-cluster.sh writes at ALL through each
node to prove every node sees the others up). Rows are printed as
tab-separated values, schema changes as `SCHEMA_CHANGE ...`.
Exit status: 0 on success, 1 when the server answers with an error,
2 when the server cannot be reached or speaks something else.
"""

import argparse
import socket
import struct
import sys
import uuid

VERSION = 0x04  # protocol v4: simple 9-byte frame header, supported by 3.x-5.x

OP_ERROR = 0x00
OP_STARTUP = 0x01
OP_READY = 0x02
OP_OPTIONS = 0x05
OP_SUPPORTED = 0x06
OP_QUERY = 0x07
OP_RESULT = 0x08

CONSISTENCY = {"ANY": 0x0000, "ONE": 0x0001, "TWO": 0x0002, "THREE": 0x0003, "QUORUM": 0x0004,
               "ALL": 0x0005, "LOCAL_QUORUM": 0x0006, "LOCAL_ONE": 0x000A}


class ProtocolError(Exception):
    pass


class ServerError(Exception):
    pass


class Reader:
    def __init__(self, data):
        self.data = data
        self.pos = 0

    def take(self, n):
        if self.pos + n > len(self.data):
            raise ProtocolError("truncated frame body")
        b = self.data[self.pos:self.pos + n]
        self.pos += n
        return b

    def byte(self):
        return self.take(1)[0]

    def short(self):
        return struct.unpack(">H", self.take(2))[0]

    def int(self):
        return struct.unpack(">i", self.take(4))[0]

    def string(self):
        return self.take(self.short()).decode("utf-8", "replace")

    def long_string(self):
        return self.take(self.int()).decode("utf-8", "replace")

    def bytes(self):
        n = self.int()
        return None if n < 0 else self.take(n)

    def string_list(self):
        return [self.string() for _ in range(self.short())]

    def string_multimap(self):
        return {self.string(): self.string_list() for _ in range(self.short())}


def enc_string(s):
    b = s.encode("utf-8")
    return struct.pack(">H", len(b)) + b


def enc_long_string(s):
    b = s.encode("utf-8")
    return struct.pack(">i", len(b)) + b


class Conn:
    def __init__(self, host, port, timeout):
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.sock.settimeout(timeout)
        self.stream = 0

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass

    def _recv_exact(self, n):
        buf = b""
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise ProtocolError("connection closed by server")
            buf += chunk
        return buf

    def request(self, opcode, body=b""):
        self.stream = (self.stream + 1) % 32768
        header = struct.pack(">BBhBi", VERSION, 0, self.stream, opcode, len(body))
        self.sock.sendall(header + body)
        while True:
            h = self._recv_exact(9)
            version, flags, stream, op, length = struct.unpack(">BBhBi", h)
            if version & 0x7F != VERSION or not version & 0x80:
                raise ProtocolError("unexpected response version byte 0x%02x" % version)
            body = self._recv_exact(length)
            if stream != self.stream:
                continue  # an event or a stale answer: not ours
            r = Reader(body)
            if flags & 0x02:  # tracing id
                r.take(16)
            if flags & 0x08:  # warnings
                r.string_list()
            if flags & 0x04:  # custom payload
                for _ in range(r.short()):
                    r.string()
                    r.bytes()
            if flags & 0x01:
                raise ProtocolError("compressed frame received, none requested")
            if op == OP_ERROR:
                code = r.int()
                raise ServerError("error 0x%04x: %s" % (code, r.string()))
            return op, r

    def handshake(self):
        op, r = self.request(OP_OPTIONS)
        if op != OP_SUPPORTED:
            raise ProtocolError("OPTIONS answered with opcode 0x%02x" % op)
        supported = r.string_multimap()
        cql_version = (supported.get("CQL_VERSION") or ["3.0.0"])[0]
        body = struct.pack(">H", 1) + enc_string("CQL_VERSION") + enc_string(cql_version)
        op, _ = self.request(OP_STARTUP, body)
        if op != OP_READY:
            raise ProtocolError("STARTUP answered with opcode 0x%02x (auth required?)" % op)
        return supported

    def query(self, stmt, consistency=CONSISTENCY["ONE"]):
        body = enc_long_string(stmt) + struct.pack(">HB", consistency, 0)
        op, r = self.request(OP_QUERY, body)
        if op != OP_RESULT:
            raise ProtocolError("QUERY answered with opcode 0x%02x" % op)
        return parse_result(r)


# --- result decoding -------------------------------------------------------

def read_type(r):
    tid = r.short()
    if tid == 0x0000:
        return ("custom", r.string())
    if tid in (0x0020, 0x0022):  # list, set
        return ({0x20: "list", 0x22: "set"}[tid], read_type(r))
    if tid == 0x0021:
        return ("map", read_type(r), read_type(r))
    if tid == 0x0030:  # udt
        ks, name = r.string(), r.string()
        fields = [(r.string(), read_type(r)) for _ in range(r.short())]
        return ("udt", ks, name, fields)
    if tid == 0x0031:
        return ("tuple", [read_type(r) for _ in range(r.short())])
    return ("simple", tid)


def decode(t, b):
    if b is None:
        return "null"
    if t[0] == "simple":
        tid = t[1]
        if tid in (0x0001, 0x000D):  # ascii, varchar/text
            return b.decode("utf-8", "replace")
        if tid in (0x0002, 0x0005, 0x0009, 0x000E, 0x0013, 0x0014):  # ints, varint, counter
            return str(int.from_bytes(b, "big", signed=True))
        if tid == 0x0004:
            return "true" if b != b"\x00" else "false"
        if tid == 0x0007:
            return repr(struct.unpack(">d", b)[0])
        if tid == 0x0008:
            return repr(struct.unpack(">f", b)[0])
        if tid in (0x000C, 0x000F):
            return str(uuid.UUID(bytes=b))
        if tid == 0x0010:
            return socket.inet_ntop(socket.AF_INET if len(b) == 4 else socket.AF_INET6, b)
    if t[0] in ("list", "set"):
        r = Reader(b)
        items = [decode(t[1], r.bytes()) for _ in range(r.int())]
        return ("[%s]" if t[0] == "list" else "{%s}") % ", ".join(items)
    if t[0] == "map":
        r = Reader(b)
        items = []
        for _ in range(r.int()):
            k = decode(t[1], r.bytes())
            items.append("%s: %s" % (k, decode(t[2], r.bytes())))
        return "{%s}" % ", ".join(items)
    return "0x" + b.hex()


def parse_result(r):
    kind = r.int()
    if kind == 0x0001:
        return ("void",)
    if kind == 0x0003:
        return ("set_keyspace", r.string())
    if kind == 0x0004:
        return ("prepared",)
    if kind == 0x0005:
        change, target = r.string(), r.string()
        names = [r.string()]
        if target != "KEYSPACE":
            names.append(r.string())
        return ("schema_change", change, target, ".".join(names))
    if kind != 0x0002:
        raise ProtocolError("unknown result kind %d" % kind)
    flags = r.int()
    ncols = r.int()
    if flags & 0x0002:  # has_more_pages
        r.bytes()
    cols = []
    if not flags & 0x0004:  # metadata present
        global_spec = flags & 0x0001
        if global_spec:
            r.string()
            r.string()
        for _ in range(ncols):
            if not global_spec:
                r.string()
                r.string()
            cols.append((r.string(), read_type(r)))
    rows = []
    for _ in range(r.int()):
        row = []
        for i in range(ncols):
            t = cols[i][1] if cols else ("blob",)
            row.append(decode(t, r.bytes()))
        rows.append(row)
    return ("rows", [c[0] for c in cols], rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=9042)
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--consistency", default="ONE", type=str.upper, choices=sorted(CONSISTENCY))
    ap.add_argument("--quiet", action="store_true", help="print nothing on success")
    ap.add_argument("--header", action="store_true", help="print column names before rows")
    ap.add_argument("statements", nargs="*")
    args = ap.parse_args()
    stmts = args.statements or ["SELECT release_version FROM system.local"]

    try:
        conn = Conn(args.host, args.port, args.timeout)
    except OSError as e:
        print("cql: cannot connect to %s:%d: %s" % (args.host, args.port, e), file=sys.stderr)
        return 2
    try:
        conn.handshake()
        for stmt in stmts:
            res = conn.query(stmt, CONSISTENCY[args.consistency])
            if args.quiet:
                continue
            if res[0] == "rows":
                if args.header:
                    print("\t".join(res[1]))
                for row in res[2]:
                    print("\t".join(row))
            elif res[0] == "schema_change":
                print("SCHEMA_CHANGE %s %s %s" % res[1:])
            elif res[0] == "set_keyspace":
                print("USE %s" % res[1])
    except ServerError as e:
        print("cql: %s" % e, file=sys.stderr)
        return 1
    except (OSError, ProtocolError) as e:
        print("cql: %s:%d: %s" % (args.host, args.port, e), file=sys.stderr)
        return 2
    finally:
        conn.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
