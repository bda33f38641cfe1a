#!/usr/bin/env python3
"""Checks that the client guide's (docs/CLIENT.md) Swift examples are the code of Examples/, which `swift build`
compiles. (The examples were in README.md until issue 31; the script keeps its name.)

A region of a Swift file under Examples/ runs from a line `// README: <name>` to the next line `// README-END`; its
text is the lines in between, with their common indentation removed (a region inside an `#if` is indented). A guide
example is a ```swift fenced block on the line after `<!-- example: <name> -->`. Reports `file:line: message` for:

- a guide example whose text differs from its region (with a diff), or that names no region;
- a region that no guide example shows;
- a region without its `// README-END`, a `// README:` inside a region, a `// README-END` outside one, a name used
  for two regions or shown by two examples, and an `<!-- example: -->` not followed by a ```swift block.

usage: python3 scripts/check-readme-examples.py [--root FOLDER]   one `ok` line, exit 0; else findings, exit 1
       python3 scripts/check-readme-examples.py --self-test       plants each fault in a temporary folder and
                                                                 checks the verdicts
No dependencies beyond Python 3.
"""
import difflib
import os
import re
import sys
import tempfile
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = "Examples"
README = os.path.join("docs", "CLIENT.md")  # the guide that shows the examples

REGION_START = re.compile(r"^\s*// README: (\S+)\s*$")
REGION_END = re.compile(r"^\s*// README-END\s*$")
EXAMPLE_MARK = re.compile(r"^<!-- example: (\S+) -->\s*$")


def swift_files(root):
    """Every .swift file under Examples/, sorted, as paths relative to `root`."""
    found = []
    for folder, _, names in os.walk(os.path.join(root, EXAMPLES)):
        for name in names:
            if name.endswith(".swift"):
                found.append(os.path.relpath(os.path.join(folder, name), root))
    return sorted(found)


def read_regions(root, findings):
    """{name: (file, line, text)} for every region; faults go to `findings`."""
    regions = {}
    for path in swift_files(root):
        with open(os.path.join(root, path), encoding="utf-8") as handle:
            lines = handle.read().split("\n")
        current = None  # (name, line number, collected lines)
        for number, line in enumerate(lines, start=1):
            start = REGION_START.match(line)
            if start:
                if current:
                    findings.append(f"{path}:{number}: README region '{start.group(1)}' starts inside '{current[0]}'")
                current = (start.group(1), number, [])
            elif REGION_END.match(line):
                if not current:
                    findings.append(f"{path}:{number}: README-END outside a region")
                    continue
                name, begun, body = current
                current = None
                if name in regions:
                    first = regions[name]
                    findings.append(f"{path}:{begun}: README region '{name}' already in {first[0]}:{first[1]}")
                    continue
                regions[name] = (path, begun, textwrap.dedent("\n".join(body)).strip("\n"))
            elif current:
                current[2].append(line)
        if current:
            findings.append(f"{path}:{current[1]}: README region '{current[0]}' has no README-END")
    return regions


def read_examples(root, findings):
    """{name: (line, text)} for every example of the guide; faults go to `findings`."""
    examples = {}
    with open(os.path.join(root, README), encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    index = 0
    while index < len(lines):
        mark = EXAMPLE_MARK.match(lines[index])
        index += 1
        if not mark:
            continue
        name, line = mark.group(1), index
        if index >= len(lines) or lines[index].strip() != "```swift":
            findings.append(f"{README}:{line}: example '{name}' is not followed by a ```swift block")
            continue
        body = []
        index += 1
        while index < len(lines) and lines[index].strip() != "```":
            body.append(lines[index])
            index += 1
        if index >= len(lines):
            findings.append(f"{README}:{line}: example '{name}': its ```swift block is not closed")
            break
        index += 1
        if name in examples:
            findings.append(f"{README}:{line}: example '{name}' already shown at line {examples[name][0]}")
            continue
        examples[name] = (line, "\n".join(body).strip("\n"))
    return examples


def check(root):
    """The findings for the tree at `root`, in a stable order."""
    findings = []
    regions = read_regions(root, findings)
    examples = read_examples(root, findings)
    for name, (line, text) in examples.items():
        if name not in regions:
            findings.append(f"{README}:{line}: example '{name}' names no region in {EXAMPLES}/")
            continue
        path, begun, code = regions[name]
        if text != code:
            diff = difflib.unified_diff(
                code.split("\n"), text.split("\n"), f"{path} (region '{name}')", README, lineterm="")
            findings.append(f"{README}:{line}: example '{name}' differs from {path}:{begun}\n" + "\n".join(diff))
    for name, (path, begun, _) in sorted(regions.items()):
        if name not in examples:
            findings.append(f"{path}:{begun}: README region '{name}' is not in {README}")
    return findings


def self_test():
    """Plants every fault (and the good forms) in temporary trees and checks the verdicts; returns failures."""
    swift = (
        "import TokenClient\n"
        "\n"
        "#if canImport(Security)\n"
        "    // README: indented\n"
        "    func keychain() {\n"
        "        print(1)\n"
        "    }\n"
        "    // README-END\n"
        "#endif\n"
        "// README: plain\n"
        "let x = 1\n"
        "// README-END\n"
    )
    readme = (
        "# Title\n"
        "<!-- example: indented -->\n"
        "```swift\n"
        "func keychain() {\n"
        "    print(1)\n"
        "}\n"
        "```\n"
        "<!-- example: plain -->\n"
        "```swift\n"
        "let x = 1\n"
        "```\n"
    )
    cases = [
        ("matching regions and examples", swift, readme, []),
        ("an example that differs", swift, readme.replace("let x = 1", "let x = 2"), ["example 'plain' differs"]),
        ("a changed indentation inside a region", swift, readme.replace("    print(1)", "  print(1)"),
         ["example 'indented' differs"]),
        ("a region missing from the README", swift, readme.split("<!-- example: plain -->")[0],
         [f"region 'plain' is not in {README}"]),
        ("an example naming no region", swift, readme + "<!-- example: ghost -->\n```swift\nlet y = 0\n```\n",
         ["example 'ghost' names no region"]),
        ("an example without its block", swift, readme + "<!-- example: plain2 -->\ntext\n",
         ["'plain2' is not followed by a ```swift block"]),
        ("an example shown twice", swift, readme + "<!-- example: plain -->\n```swift\nlet x = 1\n```\n",
         ["example 'plain' already shown"]),
        ("a region without its end", swift + "// README: open\nlet z = 3\n", readme, ["'open' has no README-END"]),
        ("a region inside a region", swift.replace("let x = 1\n", "let x = 1\n// README: inner\n"), readme,
         ["region 'inner' starts inside 'plain'", "example 'plain' names no region", f"'inner' is not in {README}"]),
        ("an end outside a region", swift + "// README-END\n", readme, ["README-END outside a region"]),
        ("a name used for two regions", swift + "// README: plain\nlet x = 1\n// README-END\n", readme,
         ["region 'plain' already in"]),
    ]
    failures = []
    for title, swift_text, readme_text, expected in cases:
        with tempfile.TemporaryDirectory() as root:
            os.makedirs(os.path.join(root, EXAMPLES, "Target"))
            with open(os.path.join(root, EXAMPLES, "Target", "A.swift"), "w", encoding="utf-8") as handle:
                handle.write(swift_text)
            os.makedirs(os.path.dirname(os.path.join(root, README)), exist_ok=True)
            with open(os.path.join(root, README), "w", encoding="utf-8") as handle:
                handle.write(readme_text)
            findings = check(root)
        if not expected and findings:
            failures.append(f"{title}: expected no finding, got {findings}")
        for fragment in expected:
            if not any(fragment in finding for finding in findings):
                failures.append(f"{title}: expected a finding with {fragment!r}, got {findings}")
        if expected and len(findings) != len(expected):
            failures.append(f"{title}: expected {len(expected)} finding(s), got {findings}")
    return len(cases), failures


def main(arguments):
    if arguments == ["--self-test"]:
        count, failures = self_test()
        for failure in failures:
            print(failure)
        if failures:
            return 1
        print(f"check-readme-examples self-test: ok ({count} cases)")
        return 0
    root = ROOT
    if len(arguments) == 2 and arguments[0] == "--root":
        root = arguments[1]
    elif arguments:
        print(__doc__.split("usage:")[1].strip(), file=sys.stderr)
        return 2
    findings = check(root)
    for finding in findings:
        print(finding)
    if findings:
        print(f"check-readme-examples: {len(findings)} finding(s)")
        return 1
    regions = len(read_regions(root, []))
    print(f"check-readme-examples: ok ({regions} regions of {EXAMPLES}/ shown in {README})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
