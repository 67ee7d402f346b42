#!/usr/bin/env python3
"""The README's Limits table is analyzer/base/limits.h (ctest docs.limits).

Every macro defined in limits.h has a row in the table under "## Limits" of doc/reliability.md
with the same value, and every row of the table names a macro of
limits.h. Values in the README are written for people ("16 MiB", "4,000",
"1,000,000 s"); limits.h's are C expressions, evaluated here. Each macro
in limits.h must also come with a comment (why that value, what happens
past it): the line before its #define closes a comment or is a #define of
the same group.

    python3 tests/test_limits.py [-v]
"""
import ast, os, re, sys, unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIMITS = os.path.join(ROOT, "analyzer", "base", "limits.h")
README = os.path.join(ROOT, "doc", "reliability.md")
HEADING = "## Limits"

DEFINE = re.compile(r"^#define\s+(SM_\w+)\s+(.+?)\s*(?:/\*.*)?$")
UNITS = {None: 1, "": 1, "s": 1, "bytes": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}


def c_value(expr, known):
    """The value of a C constant expression of limits.h: integer and
    floating literals with suffixes, casts to integer types, + - * / << >>
    and earlier macros."""
    e = re.sub(r"\(\s*(?:size_t|uint64_t|uintptr_t|unsigned(?: long)*|long(?: long)?|int)\s*\)", "", expr)
    e = re.sub(r"\b(0x[0-9a-fA-F]+|\d+)(?:[uU]?[lL]{0,2}|[lL]{1,2}[uU]?)\b", r"\1", e)
    tree = ast.parse(e, mode="eval")
    ops = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
           ast.Div: lambda a, b: a // b if isinstance(a, int) and isinstance(b, int) else a / b,
           ast.LShift: lambda a, b: a << b, ast.RShift: lambda a, b: a >> b}

    def ev(n):
        if isinstance(n, ast.Expression):
            return ev(n.body)
        if isinstance(n, ast.Constant) and isinstance(n.value, (int, float)):
            return n.value
        if isinstance(n, ast.BinOp) and type(n.op) in ops:
            return ops[type(n.op)](ev(n.left), ev(n.right))
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub):
            return -ev(n.operand)
        if isinstance(n, ast.Name) and n.id in known:
            return known[n.id]
        raise ValueError(f"cannot evaluate {expr!r}")
    return ev(tree)


def limits():
    """{macro: value} of limits.h, and the macros with no comment."""
    with open(LIMITS, encoding="utf-8") as f:
        lines = f.read().splitlines()
    values, bare = {}, []
    for k, line in enumerate(lines):
        m = DEFINE.match(line)
        if not m or m.group(1) == "SMEMLINT_BASE_LIMITS_H":
            continue
        name, expr = m.groups()
        values[name] = c_value(expr, values)
        prev = lines[k - 1].strip() if k else ""
        if not (prev.endswith("*/") or DEFINE.match(prev)):
            bare.append(name)
    return values, bare


def readme_value(cell):
    m = re.match(r"^([0-9][0-9,]*(?:\.[0-9]+)?)\s*(KiB|MiB|GiB|bytes|s)?(?:\s|$)", cell.strip())
    if not m:
        raise ValueError(f"README Limits: cannot read the value {cell!r}")
    num = m.group(1).replace(",", "")
    v = float(num) if "." in num else int(num)
    return v * UNITS[m.group(2)]


def readme():
    """{macro: value} of the README's Limits table."""
    with open(README, encoding="utf-8") as f:
        text = f.read()
    start = text.index("\n" + HEADING + "\n")
    end = text.find("\n#", start + len(HEADING) + 2)
    rows = {}
    for line in text[start:end if end >= 0 else len(text)].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else []
        if len(cells) < 2 or set(cells[0]) <= set("- ") or cells[0] == "macro":
            continue
        m = re.fullmatch(r"`(SM_\w+)`", cells[0])
        if not m:
            raise ValueError(f"README Limits: a row that names no macro: {line!r}")
        if m.group(1) in rows:
            raise ValueError(f"README Limits: {m.group(1)} twice")
        rows[m.group(1)] = readme_value(cells[1])
    return rows


class Limits(unittest.TestCase):
    def test_every_macro_has_a_comment(self):
        values, bare = limits()
        self.assertTrue(values)
        self.assertEqual(bare, [], "limits.h: a macro with no comment saying why and what happens past it")

    def test_readme_table_is_limits_h(self):
        values, _ = limits()
        rows = readme()
        self.assertEqual(sorted(set(values) - set(rows)), [], "in limits.h, missing from the README's Limits table")
        self.assertEqual(sorted(set(rows) - set(values)), [], "in the README's Limits table, not in limits.h")
        for name, v in values.items():
            self.assertEqual(rows[name], v, f"{name}: README says {rows[name]}, limits.h {v}")

    def test_values_are_read(self):
        # the evaluator itself, on the forms limits.h uses
        self.assertEqual(c_value("(16u * 1024 * 1024)", {}), 16 << 20)
        self.assertEqual(c_value("((size_t)1 << 30)", {}), 1 << 30)
        self.assertEqual(c_value("((uint64_t)256 << 20)", {}), 256 << 20)
        self.assertEqual(c_value("4000000ul", {}), 4000000)
        self.assertEqual(c_value("1e6", {}), 1000000)
        self.assertEqual(readme_value("16 MiB"), 16 << 20)
        self.assertEqual(readme_value("1,000,000 s"), 1000000)


if __name__ == "__main__":
    unittest.main()
