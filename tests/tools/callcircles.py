#!/usr/bin/env python3
"""callcircles.py DIR - the call circles between the files of one folder.

A file calls another when it calls a non-static function defined there.
Prints each strongly connected set of more than one file, largest first:
"N file file ...".  Regex-based (C as this project writes it: a function
definition starts at column 0 and its '{' ends the signature), so it needs
no cscope database; docs/architecture.md says why circles matter."""
import os
import re
import signal
import sys

signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # read by `head -1`


def graph(d):
    files = sorted(os.path.join(r, f) for r, _, fs in os.walk(d) for f in fs if f.endswith(".c"))
    defs, bodies = {}, {}
    for f in files:
        s = open(f, encoding="utf-8", errors="replace").read()
        s = re.sub(r"/\*.*?\*/", "", s, flags=re.S)
        s = re.sub(r'"(?:[^"\\]|\\.)*"', '""', s)
        for m in re.finditer(r"^[a-z][^\n;]*?\b([a-z_][a-z0-9_]*)\(([^;{]*?)\)\s*\{", s, flags=re.M):
            if not m.group(0).startswith("static"):
                defs[m.group(1)] = f
        bodies[f] = s
    edges = {f: set() for f in files}
    for f, s in bodies.items():
        for name in set(re.findall(r"\b([a-z_][a-z0-9_]*)\s*\(", s)):
            g = defs.get(name)
            if g and g != f:
                edges[f].add(g)
    return files, edges


def circles(files, edges):
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(os.path.basename(x) for x in comp))

    sys.setrecursionlimit(10000)
    for v in files:
        if v not in index:
            visit(v)
    return sorted(out, key=len, reverse=True)


if __name__ == "__main__":
    for c in circles(*graph(sys.argv[1])):
        print(len(c), " ".join(c))
