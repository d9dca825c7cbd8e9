#!/usr/bin/env python3
"""doc-examples.py - turns the Swift blocks of the README and the DocC catalogs into Swift files.

Usage:
  Scripts/doc-examples.py          write Tests/DocExampleTests/Generated/ from the documents
  Scripts/doc-examples.py --check  write nothing; exit 1 if a generated file differs from what
                                   the documents give, or is missing or extra

The documents are README.md and every Sources/*/*.docc/*.md. A block fenced ```swift is a
complete program: the DocExampleTests target compiles it in `swift build --build-tests` and
`DocExampleTests` runs it from the repository's folder. Words after `swift` in the fence say
otherwise:

  ```swift norun       a complete program that is compiled but not run (it waits forever, or
                       reads or writes files that only the reader has, such as the user's
                       preferences or Info.plist in the current folder)
  ```swift continued   goes on from the document's previous Swift block: the two (or more)
                       are one program, compiled and run as the first block says
  ```swift fragment    part of a file that is not a program (a Package.swift excerpt): neither
                       compiled nor run

Each program is one file. Its `import` lines stay at the top; declarations at the block's top
level (types, extensions, functions) become `private` file-scope declarations, so that two
documents can each declare a `Settings`; the other lines are the body of an `async throws`
function. A program that imports none of the package's modules imports PlistKit. `#sourceLocation` directives make the
compiler report errors at the document's file and line.
"""

import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTPUT = os.path.join("Tests", "DocExampleTests", "Generated")
WORDS = {"norun", "continued", "fragment"}
PACKAGE_MODULES = {"PlistCore", "PlistKit", "PlistStore", "PlistConfiguration", "PlistFoundation", "PlistRepository"}
DECLARATION = re.compile(
    r"^(@\w+(\([^)]*\))?\s+)*((final|indirect)\s+)*(struct|class|enum|extension|protocol|actor|func|typealias)\b")
ATTRIBUTES = re.compile(r"^((?:@\w+(?:\([^)]*\))?\s+)*)")
IMPORT = re.compile(r"^import\s+\w+\s*(//.*)?$")
BINDING = re.compile(r"^(?:let|var)\s+(\w+)")
STRING_OR_COMMENT = re.compile(r'"(?:[^"\\]|\\.)*"|//.*$')


class DocError(Exception):
    pass


def documents():
    """The documents, as paths relative to the repository."""
    found = glob.glob(os.path.join(ROOT, "Sources", "*", "*.docc", "*.md"))
    return ["README.md"] + sorted(os.path.relpath(path, ROOT) for path in found)


def blocks(path):
    """(first code line, words after `swift`, lines) of each Swift block of the document."""
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        lines = f.read().split("\n")
    found, i = [], 0
    while i < len(lines):
        match = re.match(r"^(\s*)```\s*(\S*)(.*)$", lines[i])
        if not match:
            i += 1
            continue
        indent, language, words = match.group(1), match.group(2), match.group(3).split()
        start, i = i + 1, i + 1
        while i < len(lines) and not re.match(r"^\s*```\s*$", lines[i]):
            i += 1
        if i == len(lines):
            raise DocError("%s:%d: the code block has no closing fence" % (path, start))
        if language == "swift":
            unknown = [word for word in words if word not in WORDS]
            if unknown:
                raise DocError("%s:%d: unknown word %r after ```swift (known: %s)"
                               % (path, start, unknown[0], ", ".join(sorted(WORDS))))
            code = [line[len(indent):] if line.startswith(indent) else line.lstrip() for line in lines[start:i]]
            found.append((start + 1, set(words), code))
        i += 1
    return found


def programs(path):
    """The document's programs: lists of (first line, lines) blocks, and whether each runs."""
    result = []
    for line, words, code in blocks(path):
        if "fragment" in words:
            if len(words) > 1:
                raise DocError("%s:%d: a fragment is neither compiled nor run: no other word" % (path, line))
            result.append(None)
            continue
        if "continued" in words:
            if not result or result[-1] is None:
                raise DocError("%s:%d: `continued`, but no program block comes before it" % (path, line))
            if "norun" in words:
                raise DocError("%s:%d: a continued block runs as its program's first block says" % (path, line))
            result[-1]["blocks"].append((line, code))
        else:
            result.append({"runs": "norun" not in words, "blocks": [(line, code)]})
    return [program for program in result if program is not None]


def braces(line):
    text = STRING_OR_COMMENT.sub("", line)
    return text.count("{") - text.count("}")


def split(first, code):
    """Segments (kind, first line, lines) of one block: import, declaration or statement."""
    segments, i = [], 0
    while i < len(code):
        line = code[i]
        if IMPORT.match(line):
            kind, end = "import", i + 1
        elif DECLARATION.match(line):
            depth, end = braces(line), i + 1
            while depth > 0 and end < len(code):
                depth += braces(code[end])
                end += 1
            kind = "declaration"
        else:
            kind, end = "statement", i + 1
        body = code[i:end]
        if kind == "declaration":
            body = [ATTRIBUTES.sub(r"\1private ", body[0], count=1)] + body[1:]
        if segments and segments[-1][0] == kind and segments[-1][1] + len(segments[-1][2]) == first + i:
            segments[-1][2].extend(body)
        else:
            segments.append((kind, first + i, list(body)))
        i = end
    return segments


def name(path, number):
    """The program's Swift name: the document's and its place among the document's programs (so
    that editing text around a block renames nothing)."""
    stem = os.path.splitext(os.path.basename(path))[0]
    return "%s_%d" % (re.sub(r"\W", "_", stem), number)


def generate(path, number, program):
    first = program["blocks"][0][0]
    symbol = name(path, number)
    imports, declarations, statements, bindings = [], [], [], []
    for line, code in program["blocks"]:
        for kind, start, lines in split(line, code):
            if kind == "import":
                imports.append((start, lines))
            elif kind == "declaration":
                declarations.append((start, lines))
            else:
                statements.append((start, lines))
                bindings += [m.group(1) for m in map(BINDING.match, lines) if m]

    def located(segments, indent=""):
        out = []
        for start, lines in segments:
            out.append('#sourceLocation(file: "%s", line: %d)' % (path, start))
            out.extend(indent + text if text else text for text in lines)
            out.append("#sourceLocation()")
        return out

    out = [
        "// swift-format-ignore-file",
        "// Generated by Scripts/doc-examples.py from %s, line %d." % (path, first),
        "// Edit the document, then run the script; DocExampleTests checks that this file is current.",
    ]
    modules = {line.split()[1] for _, lines in imports for line in lines}
    out += [] if modules & PACKAGE_MODULES else ["import PlistKit"]
    out += located(imports)
    out += [""] + located(declarations) + ([""] if declarations else [])
    out.append("private func program() async throws {")
    out += located(statements)
    unique = list(dict.fromkeys(bindings))
    if unique:
        # The program's names used once, so that a value a document shows but does not use
        # gives no warning.
        out.append("    _ = (%s)" % ", ".join(unique) if len(unique) > 1 else "    _ = %s" % unique[0])
    out.append("}")
    out.append("")
    out.append('let %s = DocExample(file: "%s", line: %d, runs: %s, program: program)'
               % (symbol, path, first, "true" if program["runs"] else "false"))
    return symbol, "\n".join(out) + "\n"


def expected_files():
    files, symbols = {}, []
    for path in documents():
        for number, program in enumerate(programs(path), 1):
            symbol, text = generate(path, number, program)
            if symbol + ".swift" in files:
                raise DocError("%s: two programs would be named %s" % (path, symbol))
            files[symbol + ".swift"] = text
            symbols.append(symbol)
    files["AllDocExamples.swift"] = "\n".join([
        "// swift-format-ignore-file",
        "// Generated by Scripts/doc-examples.py: every program of the README and the DocC catalogs.",
        "",
        "let allDocExamples: [DocExample] = [",
    ] + ["    %s," % symbol for symbol in symbols] + ["]", ""])
    return files


def main(argv):
    check = argv[1:] == ["--check"]
    if argv[1:] and not check:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 64
    try:
        files = expected_files()
    except DocError as error:
        print("doc-examples: %s" % error, file=sys.stderr)
        return 1
    folder = os.path.join(ROOT, OUTPUT)
    present = set(os.listdir(folder)) if os.path.isdir(folder) else set()
    stale = sorted(f for f in present | set(files) if f not in files or not _same(os.path.join(folder, f), files[f]))
    if check:
        for f in stale:
            print("doc-examples: %s is not what the documents give: run Scripts/doc-examples.py"
                  % os.path.join(OUTPUT, f), file=sys.stderr)
        return 1 if stale else 0
    os.makedirs(folder, exist_ok=True)
    for f in stale:
        if f in files:
            with open(os.path.join(folder, f), "w", encoding="utf-8") as out:
                out.write(files[f])
        else:
            os.remove(os.path.join(folder, f))
    return 0


def _same(path, text):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read() == text
    except FileNotFoundError:
        return False


if __name__ == "__main__":
    sys.exit(main(sys.argv))
