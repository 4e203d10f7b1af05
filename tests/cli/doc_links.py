"""Every relative link of the Markdown pages (README.md, ARCHITECTURE.md, docs/*.md) resolves: the
file exists in the repository and, for page.md#anchor, the page has a heading with that anchor
(GitHub's rule: lower case, punctuation dropped, spaces to hyphens).

Usage: python3 tests/cli/doc_links.py REPO. Prints each broken link as page:line: target, exit 1.
"""
import re
import sys
from pathlib import Path

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^\s*```")


def anchors(page):
    """The anchors of a page's headings, as GitHub makes them (duplicates get -1, -2, ...)."""
    seen = {}
    result = set()
    in_fence = False
    for line in page.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            in_fence = not in_fence
        if in_fence or not line.startswith("#"):
            continue
        text = line.lstrip("#").strip().lower()
        slug = re.sub(r"[^\w\- ]", "", text).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        result.add(slug if n == 0 else f"{slug}-{n}")
    return result


def broken_links(repo):
    pages = [repo / "README.md", repo / "ARCHITECTURE.md", *sorted((repo / "docs").glob("*.md"))]
    for page in pages:
        in_fence = False
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            if FENCE.match(line):
                in_fence = not in_fence
            if in_fence:
                continue
            for target in LINK.findall(line):
                if re.match(r"[a-z]+:", target):
                    continue  # http:, https:, mailto:
                path, _, anchor = target.partition("#")
                file = (page.parent / path).resolve() if path else page.resolve()
                if not file.exists() or repo.resolve() not in [file, *file.parents]:
                    yield f"{page.relative_to(repo)}:{number}: {target} (no such file)"
                elif anchor and file.suffix == ".md" and anchor not in anchors(file):
                    yield f"{page.relative_to(repo)}:{number}: {target} (no heading #{anchor})"


def main():
    repo = Path(sys.argv[1])
    broken = list(broken_links(repo))
    for b in broken:
        print(b)
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
