#!/usr/bin/env python3
"""Every relative link of the Markdown docs, and every repository path a doc
names, exists in the repository.

  doc_links.py ROOT [DOC...]

ROOT is the tree's top folder. The docs are every *.md file under ROOT and the
man pages (man/*.[1-9]), or the DOCs given. Checked:

- a Markdown link or image [text](target) whose target is not a URL
  (scheme:...) nor an anchor alone (#x): the target, without its #anchor,
  relative to the doc's own folder, must be a file or folder of the tree;
- a path a doc names in its text: a word starting with one of the tree's top
  folders (src/ tests/ scripts/ doc/ man/ tools/ mk/ debian/ contrib/) must
  name a file or folder of the tree, taken from ROOT. "{c,h}" alternatives
  are expanded and each must exist; a word with a glob (*, ?) must match
  something. A path is also taken from the doc's own folder (doc/ibgda.md's
  "notes/ibgda.md" is doc/notes/ibgda.md). A word holding a placeholder (an upper-case word such as DATE
  or DIR, or <...>) is not a path and is left alone; so are the paths that
  a build or a test run makes (BUILT below).

- no absolute path of one machine (/work/..., /home/..., /root/...).

Prints one line per broken reference (doc:line: what) and exits 1 if any,
else 0.
"""
import glob
import os
import re
import sys

TOPS = ("src", "tests", "scripts", "doc", "man", "tools", "mk", "debian", "contrib", "notes")
# Paths docs name that a build, make check or a script run makes: not in a
# checkout, and rightly named. Each is a prefix.
BUILT = (
    "tools/gd_",            # the built tools (tools/gd_*.c are the sources)
    "tests/fuzz/work",      # run-fuzz.sh's corpus and crashes
    "tests/unit/test_",     # cmocka programs (their .c files are checked as named)
    "tests/gpu/gd_ibgda_gpu",
    "src/libgdperf.a",
    "debian/gdperf",        # dh's staging folders and files
    "debian/.debhelper",
    "debian/tmp",
    "debian/files",
    "man/man1",             # an installed man tree's folder, in ".so man1/..."
    "tests/initiator/test_",
    "tests/gpu/gd_",        # the GPU tier's programs (tests/gpu/gd_*.c are sources)
)
# Research notes that cite other repositories' files (NVSHMEM's src/..., perftest's
# src/...) by their paths there, as they were written: their links are checked,
# the paths they name are not.
FOREIGN = ("doc/notes/",)
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
PATH = re.compile(r"(?<![\w./~$-])((?:%s)/[A-Za-z0-9_.{},*?/+-]*)" % "|".join(TOPS))
# Absolute paths of one machine (a workspace, a home): never right in a doc.
MACHINE = re.compile(r"(?<![\w.-])(/(?:work|home|root|Users)/[^\s`'\")\]]*)")
PLACEHOLDER = re.compile(r"(?:^|/)[^/]*[A-Z]{2,}[^/]*(?:/|$)|<|\$")


def expand(word):
    """'src/x.{c,h}' -> ['src/x.c', 'src/x.h'] (one level of braces);
    'src/x.h/.c' -> ['src/x.h', 'src/x.c']."""
    m = re.match(r"^(.*?)(\.[A-Za-z]+)/(\.[A-Za-z]+)$", word)
    if m:
        return [m.group(1) + m.group(2), m.group(1) + m.group(3)]
    m = re.search(r"\{([^{}]*)\}", word)
    if not m:
        return [word]
    return [word[:m.start()] + alt + word[m.end():] for alt in m.group(1).split(",")]


def exists(root, rel):
    if any(ch in rel for ch in "*?"):
        return bool(glob.glob(os.path.join(root, rel)))
    return os.path.exists(os.path.join(root, rel))


def clean(word):
    """Strip what text puts after a path: punctuation, a closing quote."""
    word = word.rstrip(".,:;'\"`)")
    return word


def text_of(doc, line):
    if doc.endswith(".md"):
        return line
    # a man page: drop roff's escapes before looking for paths
    return re.sub(r"\\f[BIRP]|\\&|\\\(..", "", line.replace("\\-", "-"))


def check_line(root, doc, n, line, problems):
    rel_doc = os.path.relpath(doc, root)
    if doc.endswith(".md"):
        for target in LINK.findall(line):
            if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target) or target.startswith("#"):
                continue
            path = target.split("#", 1)[0]
            full = os.path.normpath(os.path.join(os.path.dirname(doc), path))
            if not full.startswith(os.path.abspath(root)) or not os.path.exists(full):
                problems.append("%s:%d: link to %s: no such file in the tree" % (rel_doc, n, target))
    check_machine_paths(rel_doc, n, line, problems)
    if rel_doc.startswith(FOREIGN):
        return
    for word in PATH.findall(text_of(doc, line)):
        word = clean(word)
        if word.rstrip("/") in TOPS or PLACEHOLDER.search(word) or word.startswith(BUILT):
            continue
        for alt in expand(word):
            if not exists(root, alt) and not exists(os.path.dirname(doc), alt):
                problems.append("%s:%d: names %s: no such file in the tree" % (rel_doc, n, alt))


def check_machine_paths(rel_doc, n, line, problems):
    for m in MACHINE.findall(line):
        problems.append("%s:%d: names %s: a path of one machine, not of the tree" % (rel_doc, n, m))


def docs_of(root):
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if not d.startswith(".") and d != "build-aux"
                       and not d.startswith("gdperf-")]
        out += [os.path.join(dirpath, f) for f in filenames if f.endswith(".md")]
    out += glob.glob(os.path.join(root, "man", "*.[1-9]"))
    return sorted(out)


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip())
        return 2
    root = os.path.abspath(argv[1])
    docs = [os.path.abspath(d) for d in argv[2:]] or docs_of(root)
    problems = []
    for doc in docs:
        with open(doc, encoding="utf-8", errors="replace") as f:
            for n, line in enumerate(f, 1):
                check_line(root, doc, n, line, problems)
    for p in problems:
        print("FAIL: " + p)
    print("checked %d docs: %d broken references" % (len(docs), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
