#!/usr/bin/env python3
"""Checks that the client's Swift code builds on Linux and on iOS 16 / macOS 13 / tvOS 16 / watchOS 9 / visionOS 1.

Scans every .swift file under Sources/TokenClient, Sources/TokenClientCore, Sources/AuthAPI, Sources/PrivateFiles,
Tests/TokenClientTesting, Tests/TokenClientTests and Examples/ (when present), with comments and string literals
blanked out and the `#if / #elseif / #else / #endif` blocks around each line tracked (nested too), and reports
`path:line: message` for:

- linux-import: an import of a module Apple's SDKs lack (Glibc, Musl, FoundationNetworking, FoundationEssentials,
  CHTTPServerLinux, or any C target of this package: a `.systemLibrary` in Package.swift, or a Sources/ folder with a
  module map, C sources or an include/ folder) whose enclosing condition does not imply `canImport(<that module>)`
  or `os(Linux)`;
- apple-import: an import of an Apple-only module (Security, UIKit, AppKit, SwiftUI, AuthenticationServices,
  Observation, os, DeviceCheck) whose enclosing condition does not imply `canImport(<that module>)`;
- synchronization: `Mutex`, `Atomic` or `import Synchronization` anywhere (they need iOS 18 and macOS 15; the client
  uses its `Locked`);
- observable: `@Observable` whose enclosing condition does not imply `canImport(Observation)`, or whose declaration
  has no `@available(...)` naming iOS 17 or later;
- linux-call: `epoll_`, `eventfd`, `SOCK_NONBLOCK`, `O_TMPFILE`, `pipe2` or `accept4` outside `#if os(Linux)`.

"Implies" is decided by trying every truth assignment of the condition's atoms (`canImport(X)`, `os(X)`, `DEBUG`,
...; at most one `os(...)` true at once), so `#if canImport(Glibc) || os(Linux)`, `#elseif` chains and `!`
are judged by what they mean, and an `#else` branch guards only what its earlier branches' negation implies.

usage: python3 scripts/check-apple-portability.py [--root FOLDER]   one `ok` line, exit 0; else findings, exit 1
       python3 scripts/check-apple-portability.py --self-test       plants violations and guarded forms in a
                                                                    temporary folder and checks the verdicts
No dependencies beyond Python 3.
"""
import itertools
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SCANNED = [
    "Sources/TokenClient",
    "Sources/TokenClientCore",
    "Sources/AuthAPI",
    "Sources/PrivateFiles",
    "Tests/TokenClientTesting",
    "Tests/TokenClientTests",
    "Examples",
]
LINUX_ONLY_MODULES = {"Glibc", "Musl", "FoundationNetworking", "FoundationEssentials", "CHTTPServerLinux"}
APPLE_ONLY_MODULES = {
    "Security", "UIKit", "AppKit", "SwiftUI", "AuthenticationServices", "Observation", "os", "DeviceCheck",
}
LINUX_CALLS = ["epoll_", "eventfd", "SOCK_NONBLOCK", "O_TMPFILE", "pipe2", "accept4"]
OBSERVABLE_MINIMUM_IOS = 17


# --- Lexing: comments and string literals become spaces, line breaks stay -------------------------------------------


def blank_comments_and_strings(text):
    """Returns `text` with every comment and string literal (interpolations included) replaced by spaces; newlines
    are kept, so line numbers still hold."""
    out = list(text)
    length = len(text)
    index = 0

    def blank(start, end):
        for position in range(start, min(end, length)):
            if out[position] != "\n":
                out[position] = " "

    def skip_string(start):
        """`start` is at the first `#` or `"` of a literal; returns the index just past its end."""
        hashes = 0
        position = start
        while position < length and text[position] == "#":
            hashes += 1
            position += 1
        multiline = text.startswith('"""', position)
        position += 3 if multiline else 1
        closing = ('"""' if multiline else '"') + "#" * hashes
        escape = "\\" + "#" * hashes
        while position < length:
            if text.startswith(escape, position):
                after = position + len(escape)
                if after < length and text[after] == "(":
                    position = skip_interpolation(after)
                else:
                    position = after + 1
                continue
            if text.startswith(closing, position):
                return position + len(closing)
            if text[position] == "\n" and not multiline:
                return position  # unterminated: stop at the line's end
            position += 1
        return length

    def skip_interpolation(start):
        """`start` is at the `(` of `\\(`; returns the index past the matching `)`, skipping nested literals."""
        depth = 0
        position = start
        while position < length:
            character = text[position]
            if character == '"' or (character == "#" and re.match(r'#+"', text[position:])):
                position = skip_string(position)
                continue
            if character == "(":
                depth += 1
            elif character == ")":
                depth -= 1
                if depth == 0:
                    return position + 1
            position += 1
        return length

    while index < length:
        if text.startswith("//", index):
            end = text.find("\n", index)
            end = length if end < 0 else end
            blank(index, end)
            index = end
        elif text.startswith("/*", index):
            depth = 0
            position = index
            while position < length:
                if text.startswith("/*", position):
                    depth += 1
                    position += 2
                elif text.startswith("*/", position):
                    depth -= 1
                    position += 2
                    if depth == 0:
                        break
                else:
                    position += 1
            blank(index, position)
            index = position
        elif text[index] == '"' or (text[index] == "#" and re.match(r'#+"', text[index:])):
            end = skip_string(index)
            blank(index, end)
            index = end
        else:
            index += 1
    return "".join(out)


# --- Conditions of #if blocks ----------------------------------------------------------------------------------------

TOKEN = re.compile(r"\s*(&&|\|\||!|\(|\)|[A-Za-z_][A-Za-z0-9_]*(?:\s*\([^()]*\))?)")


def normalize_atom(atom):
    atom = re.sub(r"\s+", "", atom)
    match = re.fullmatch(r"canImport\(([A-Za-z_][A-Za-z0-9_.]*)(?:,.*)?\)", atom)
    return f"canImport({match.group(1)})" if match else atom


def parse_condition(text):
    """Parses a `#if` condition into nested tuples: ("atom", name), ("not", x), ("and", x, y), ("or", x, y)."""
    tokens = []
    position = 0
    text = text.strip()
    while position < len(text):
        match = TOKEN.match(text, position)
        if not match:
            raise ValueError(f"cannot read the condition {text!r}")
        tokens.append(match.group(1))
        position = match.end()
        while position < len(text) and text[position].isspace():
            position += 1
    tokens.append(None)
    cursor = [0]

    def peek():
        return tokens[cursor[0]]

    def take():
        token = tokens[cursor[0]]
        cursor[0] += 1
        return token

    def disjunction():
        left = conjunction()
        while peek() == "||":
            take()
            left = ("or", left, conjunction())
        return left

    def conjunction():
        left = unary()
        while peek() == "&&":
            take()
            left = ("and", left, unary())
        return left

    def unary():
        token = take()
        if token == "!":
            return ("not", unary())
        if token == "(":
            inner = disjunction()
            if take() != ")":
                raise ValueError(f"unbalanced parentheses in {text!r}")
            return inner
        if token is None or token in ("&&", "||", ")"):
            raise ValueError(f"cannot read the condition {text!r}")
        return ("atom", normalize_atom(token))

    tree = disjunction()
    if peek() is not None:
        raise ValueError(f"cannot read the condition {text!r}")
    return tree


TRUE = ("atom", "true")


def atoms_of(tree, found):
    if tree[0] == "atom":
        if tree[1] not in ("true", "false"):
            found.add(tree[1])
    else:
        for child in tree[1:]:
            atoms_of(child, found)
    return found


def evaluate(tree, assignment):
    kind = tree[0]
    if kind == "atom":
        if tree[1] == "true":
            return True
        if tree[1] == "false":
            return False
        return assignment[tree[1]]
    if kind == "not":
        return not evaluate(tree[1], assignment)
    if kind == "and":
        return evaluate(tree[1], assignment) and evaluate(tree[2], assignment)
    return evaluate(tree[1], assignment) or evaluate(tree[2], assignment)


def conjunction_of(trees):
    result = TRUE
    for tree in trees:
        result = tree if result == TRUE else ("and", result, tree)
    return result


def implies(condition, guard):
    """True when every assignment that makes `condition` true makes `guard` true (at most one `os(...)` is true)."""
    names = sorted(atoms_of(condition, set()) | atoms_of(guard, set()))
    for values in itertools.product((False, True), repeat=len(names)):
        assignment = dict(zip(names, values))
        if sum(1 for name, value in assignment.items() if value and name.startswith("os(")) > 1:
            continue
        if evaluate(condition, assignment) and not evaluate(guard, assignment):
            return False
    return True


def either(*names):
    tree = ("atom", names[0])
    for name in names[1:]:
        tree = ("or", tree, ("atom", name))
    return tree


# --- The scan ---------------------------------------------------------------------------------------------------------

IMPORT = re.compile(
    r"^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+"
    r"(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?([A-Za-z_][A-Za-z0-9_]*)"
)
DIRECTIVE = re.compile(r"^\s*#(if|elseif|else|endif)\b(.*)$")
SYNCHRONIZATION = re.compile(r"\b(Mutex|Atomic)\b")
OBSERVABLE = re.compile(r"@Observable\b")
AVAILABLE = re.compile(r"@available\s*\(([^)]*)\)")


def c_targets(root):
    """Names of this package's C targets: `.systemLibrary(name:)` in Package.swift, and Sources/ folders holding a
    module map, C sources or an include/ folder."""
    names = set()
    manifest = os.path.join(root, "Package.swift")
    if os.path.exists(manifest):
        with open(manifest, encoding="utf-8") as file:
            names.update(re.findall(r'\.systemLibrary\(\s*name:\s*"([^"]+)"', file.read()))
    sources = os.path.join(root, "Sources")
    if os.path.isdir(sources):
        for name in os.listdir(sources):
            folder = os.path.join(sources, name)
            if not os.path.isdir(folder):
                continue
            for _, folders, files in os.walk(folder):
                if "include" in folders or any(
                    file == "module.modulemap" or file.endswith((".c", ".h")) for file in files
                ):
                    names.add(name)
                    break
    return names


def available_ios_version(attributes):
    """The iOS version the `@available` attributes in `attributes` name, or None."""
    best = None
    for arguments in AVAILABLE.findall(attributes):
        for pattern in (r"\biOS\s+(\d+)", r"\biOS\s*,\s*introduced\s*:\s*(\d+)"):
            for version in re.findall(pattern, arguments):
                best = max(best or 0, int(version))
    return best


def declaration_attributes(lines, index):
    """The text of the attribute lines around line `index` (blanked), up to the declaration that follows them."""
    start = index
    while start > 0 and (lines[start - 1].strip().startswith("@") or not lines[start - 1].strip()):
        start -= 1
    end = index
    while end + 1 < len(lines) and lines[end].strip().startswith("@") and not re.search(
        r"\b(class|struct|enum|actor|extension|protocol|func|var|let)\b", lines[end]
    ):
        end += 1
    return "\n".join(lines[start : end + 1])


def scan_file(path, display, linux_modules):
    """Findings in one file: (display path, line number, kind, message)."""
    with open(path, encoding="utf-8") as file:
        lines = blank_comments_and_strings(file.read()).split("\n")
    findings = []
    stack = []  # per open #if: {"previous": [conditions of earlier branches], "current": this branch's condition}

    def condition_here():
        parts = []
        for frame in stack:
            parts.extend(("not", previous) for previous in frame["previous"])
            parts.append(frame["current"])
        return conjunction_of(parts)

    def report(number, kind, message):
        findings.append((display, number, kind, message))

    for index, line in enumerate(lines):
        number = index + 1
        directive = DIRECTIVE.match(line)
        if directive:
            keyword, rest = directive.group(1), directive.group(2)
            try:
                if keyword == "if":
                    stack.append({"previous": [], "current": parse_condition(rest)})
                elif keyword == "elseif":
                    if not stack:
                        report(number, "syntax", "#elseif without #if")
                        continue
                    stack[-1]["previous"].append(stack[-1]["current"])
                    stack[-1]["current"] = parse_condition(rest)
                elif keyword == "else":
                    if not stack:
                        report(number, "syntax", "#else without #if")
                        continue
                    stack[-1]["previous"].append(stack[-1]["current"])
                    stack[-1]["current"] = TRUE
                elif not stack:
                    report(number, "syntax", "#endif without #if")
                else:
                    stack.pop()
            except ValueError as error:
                report(number, "syntax", str(error))
                stack.append({"previous": [], "current": ("atom", "unreadable")})
            continue

        condition = condition_here()
        imported = IMPORT.match(line)
        if imported:
            module = imported.group(1)
            if module == "Synchronization":
                report(number, "synchronization", "import Synchronization needs iOS 18 / macOS 15; use Locked")
            elif module in linux_modules and not implies(condition, either(f"canImport({module})", "os(Linux)")):
                report(number, "linux-import", f"import {module} (Linux-only) outside #if canImport({module}) / os(Linux)")
            elif module in APPLE_ONLY_MODULES and not implies(condition, ("atom", f"canImport({module})")):
                report(number, "apple-import", f"import {module} (Apple-only) outside #if canImport({module})")
            continue
        for match in SYNCHRONIZATION.finditer(line):
            report(number, "synchronization", f"{match.group(1)} needs iOS 18 / macOS 15; use Locked")
        if OBSERVABLE.search(line):
            if not implies(condition, ("atom", "canImport(Observation)")):
                report(number, "observable", "@Observable outside #if canImport(Observation)")
            else:
                version = available_ios_version(declaration_attributes(lines, index))
                if version is None or version < OBSERVABLE_MINIMUM_IOS:
                    report(number, "observable", "@Observable without @available(iOS 17, ...) on its declaration")
        for call in LINUX_CALLS:
            pattern = r"\b" + re.escape(call) + (r"" if call.endswith("_") else r"\b")
            if re.search(pattern, line) and not implies(condition, ("atom", "os(Linux)")):
                report(number, "linux-call", f"{call} (Linux-only) outside #if os(Linux)")
    if stack:
        report(len(lines), "syntax", "#if without #endif")
    return findings


def swift_files(root):
    for folder in SCANNED:
        base = os.path.join(root, folder)
        if not os.path.isdir(base):
            continue
        for directory, folders, files in os.walk(base):
            folders[:] = sorted(name for name in folders if not name.startswith("."))
            for name in sorted(files):
                if name.endswith(".swift"):
                    path = os.path.join(directory, name)
                    yield path, os.path.relpath(path, root)


def scan(root):
    """(number of files scanned, findings) for the tree at `root`."""
    linux_modules = LINUX_ONLY_MODULES | c_targets(root)
    findings = []
    count = 0
    for path, display in swift_files(root):
        count += 1
        findings.extend(scan_file(path, display, linux_modules))
    return count, findings


def check(root):
    count, findings = scan(root)
    for display, number, _, message in findings:
        print(f"{display}:{number}: {message}")
    if findings:
        print(f"check-apple-portability: {len(findings)} finding(s) in {count} Swift files", file=sys.stderr)
        return 1
    if count == 0:
        print(f"check-apple-portability: no Swift files under {', '.join(SCANNED)} in {root}", file=sys.stderr)
        return 1
    print(f"ok: {count} Swift files portable to iOS 16, macOS 13, tvOS 16, watchOS 9, visionOS 1 and Linux")
    return 0


# --- Self-test --------------------------------------------------------------------------------------------------------

# Each line marked `// EXPECT <kind>` must be reported with that kind, and nothing else may be. The markers are
# comments, which the scan blanks out, so they cannot trigger anything themselves.
PLANTED = {
    "Package.swift": """
let package = Package(targets: [.systemLibrary(name: "CPlanted")])
""",
    "Sources/CFolderOnly/include/shim.h": "int shim(void);\n",
    "Sources/TokenClient/LinuxImports.swift": """
import Glibc // EXPECT linux-import
@preconcurrency public import FoundationNetworking // EXPECT linux-import
import CHTTPServerLinux // EXPECT linux-import
import CPlanted // EXPECT linux-import
import CFolderOnly // EXPECT linux-import
import struct Musl.stat // EXPECT linux-import
#if canImport(Glibc)
#else
    import Glibc // EXPECT linux-import
#endif
#if !canImport(FoundationNetworking)
    import FoundationNetworking // EXPECT linux-import
#endif
#if canImport(FoundationNetworking) || DEBUG
    import FoundationNetworking // EXPECT linux-import
#endif
#if canImport(Glibc)
    import Musl // EXPECT linux-import
#endif
#if os(Linux)
#elseif canImport(Darwin)
    #if canImport(Foundation)
        import Glibc // EXPECT linux-import
    #endif
#endif
""",
    "Sources/TokenClient/LinuxImportsGuarded.swift": """
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
#if canImport(FoundationNetworking)
    @preconcurrency public import FoundationNetworking
#endif
#if os(Linux)
    import CHTTPServerLinux
    #if DEBUG
        import CPlanted
    #else
        import CFolderOnly
    #endif
#endif
#if canImport(Glibc) || os(Linux)
    import Glibc
#endif
#if os(macOS)
#else
    #if canImport(Musl, _version: 1)
        import Musl
    #endif
#endif
// import Glibc, in a comment
let text = "import Glibc"
/* a comment /* nested */ import Glibc */
let multiline = \"\"\"
    import FoundationNetworking
    \"\"\"
let raw = #"import Glibc "quoted" \\(x)"#
""",
    "Sources/AuthAPI/AppleImports.swift": """
import Security // EXPECT apple-import
import UIKit // EXPECT apple-import
import AppKit // EXPECT apple-import
import SwiftUI // EXPECT apple-import
public import AuthenticationServices // EXPECT apple-import
import Observation // EXPECT apple-import
import os // EXPECT apple-import
#if os(iOS)
    import UIKit // EXPECT apple-import
#endif
#if canImport(UIKit)
#else
    import AppKit // EXPECT apple-import
#endif
#if canImport(UIKit)
    import SwiftUI // EXPECT apple-import
#endif
""",
    "Sources/AuthAPI/AppleImportsGuarded.swift": """
#if canImport(Security)
    import Security
#endif
#if canImport(UIKit)
    import UIKit
#elseif canImport(AppKit)
    import AppKit
#endif
#if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS))
    public import AuthenticationServices
#endif
#if canImport(os)
    import os
#endif
#if canImport(SwiftUI)
    import SwiftUI
#endif
import Foundation
import Darwin
""",
    "Sources/PrivateFiles/Synchronization.swift": """
import Synchronization // EXPECT synchronization
let lock = Mutex<Int>(0) // EXPECT synchronization
let counter = Atomic<Int>(0) // EXPECT synchronization
#if canImport(Synchronization)
    import Synchronization // EXPECT synchronization
#endif
""",
    "Sources/PrivateFiles/SynchronizationLookalikes.swift": """
// Mutex and Atomic in a comment; Synchronization.Mutex needs iOS 18.
let note = "Mutex<Int> and Atomic<Int> in a string"
let box = Locked<Int>(0)
func writeAtomically() {}
let managed = ManagedAtomic<Int>(0)
""",
    "Tests/TokenClientTesting/Observable.swift": """
@available(iOS 17, macOS 14, *)
@Observable // EXPECT observable
final class Unguarded {}
#if canImport(Observation)
    import Observation
    @Observable // EXPECT observable
    final class WithoutAvailable {}
    @available(iOS 16, macOS 13, *)
    @Observable // EXPECT observable
    final class TooEarly {}
#endif
#if os(iOS)
    @available(iOS 17, *) @Observable final class OnlyOS {} // EXPECT observable
#endif
""",
    "Tests/TokenClientTesting/ObservableGuarded.swift": """
#if canImport(Observation)
    import Observation

    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
    @Observable
    @MainActor
    final class Guarded {}

    @MainActor
    @available(iOS 17.0, macOS 14.0, *)
    @Observable public final class GuardedOtherOrder {}

    @available(iOS, introduced: 18)
    @Observable final class GuardedLongForm {}
#endif
""",
    "Tests/TokenClientTests/LinuxCalls.swift": """
let descriptor = epoll_create1(0) // EXPECT linux-call
let event = eventfd(0, 0) // EXPECT linux-call
let flags = SOCK_NONBLOCK // EXPECT linux-call
let file = open("/tmp", O_TMPFILE) // EXPECT linux-call
let pipes = pipe2(&fds, 0) // EXPECT linux-call
let client = accept4(fd, nil, nil, 0) // EXPECT linux-call
#if canImport(Glibc)
    let guardedByModule = eventfd(0, 0) // EXPECT linux-call
#endif
#if os(Linux)
#else
    let inElse = pipe2(&fds, 0) // EXPECT linux-call
#endif
""",
    "Tests/TokenClientTests/LinuxCallsGuarded.swift": """
#if os(Linux)
    let descriptor = epoll_create1(0)
    let event = eventfd(0, 0)
    #if DEBUG
        let flags = SOCK_NONBLOCK | O_TMPFILE
    #endif
#elseif os(macOS)
    let pipes = pipe(&fds)
#endif
#if !os(Linux)
#else
    let client = accept4(fd, nil, nil, 0)
    let pipes = pipe2(&fds, 0)
#endif
let named = "eventfd in a string"
func acceptSocket() {}
""",
    "Examples/App/App.swift": """
import SwiftUI // EXPECT apple-import
#if canImport(SwiftUI)
    import SwiftUI
#endif
""",
    "Examples/App/Broken.swift": """
#if canImport(UIKit)
    import UIKit
#endif
#endif // EXPECT syntax
""",
}


def self_test():
    with tempfile.TemporaryDirectory(prefix="check-apple-portability-") as root:
        expected = set()
        guarded_files = 0
        for relative, content in PLANTED.items():
            path = os.path.join(root, relative)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as file:
                file.write(content.lstrip("\n"))
            if relative.endswith("Guarded.swift"):
                guarded_files += 1
            for number, line in enumerate(content.lstrip("\n").split("\n"), start=1):
                marker = re.search(r"// EXPECT (\S+)", line)
                if marker:
                    expected.add((relative, number, marker.group(1)))
        count, findings = scan(root)
        found = {(display, number, kind) for display, number, kind, _ in findings}
        failures = [f"missed: {path}:{number} ({kind})" for path, number, kind in sorted(expected - found)]
        failures += [f"false alarm: {path}:{number} ({kind})" for path, number, kind in sorted(found - expected)]
        if len(findings) != len(found):
            failures.append("a line was reported twice for the same reason")
        planted = sum(1 for name in PLANTED if name.endswith(".swift") and name != "Package.swift")
        if count != planted:
            failures.append(f"scanned {count} Swift files, planted {planted}")
        # The command line over the planted tree: exit 1, naming file:line.
        run = subprocess.run(
            [sys.executable, os.path.abspath(__file__), "--root", root], capture_output=True, text=True
        )
        if run.returncode != 1 or "Sources/TokenClient/LinuxImports.swift:1: import Glibc" not in run.stdout:
            failures.append(f"the command over the planted tree: exit {run.returncode}, output {run.stdout[:200]!r}")
        # And over the guarded forms alone: exit 0 with one ok line.
        for relative in PLANTED:
            if relative.endswith(".swift") and not relative.endswith("Guarded.swift"):
                os.remove(os.path.join(root, relative))
        run = subprocess.run(
            [sys.executable, os.path.abspath(__file__), "--root", root], capture_output=True, text=True
        )
        if run.returncode != 0 or not run.stdout.startswith("ok:") or run.stdout.count("\n") != 1:
            failures.append(f"the command over the guarded forms: exit {run.returncode}, output {run.stdout!r}")
    if failures:
        for failure in failures:
            print(f"self-test: {failure}")
        return 1
    print(f"ok: self-test, {len(expected)} planted violations caught, {guarded_files} files of guarded forms pass")
    return 0


def main(arguments):
    if arguments == ["--self-test"]:
        return self_test()
    if not arguments:
        return check(ROOT)
    if len(arguments) == 2 and arguments[0] == "--root":
        return check(os.path.abspath(arguments[1]))
    print("usage: check-apple-portability.py [--root FOLDER | --self-test]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
