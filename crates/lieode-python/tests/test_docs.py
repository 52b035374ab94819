"""The Python code in the guide (docs/python.md) and in the repository's README runs: each
document's ```python blocks in order, in one namespace, as a reader would paste them."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def python_blocks(path):
    return re.findall(r"```python\n(.*?)```", path.read_text(encoding="utf-8"), flags=re.S)


@pytest.mark.parametrize("document", ["docs/python.md", "README.md"])
def test_the_documented_python_runs(document, capsys):
    blocks = python_blocks(ROOT / document)
    assert blocks, f"no python blocks in {document}"
    namespace = {}
    for block in blocks:
        exec(compile(block, document, "exec"), namespace)
