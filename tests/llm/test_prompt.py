"""The per-file prompt and its token count."""

from __future__ import annotations

from repomem.llm.prompt import build_prompt_counted
from repomem.pack import tokens


def test_the_counted_prompt_matches_a_real_count_closely() -> None:
    text = "".join(f"def f{i}(x):\n    return x * {i}  # step {i}\n\n" for i in range(50))
    syms = [{"kind": "function", "qualname": f"f{i}", "start_line": 3 * i + 1,
             "signature": f"def f{i}(x)", "doc": ""} for i in range(50)]  # fmt: skip
    prompt, counted = build_prompt_counted("m.py", "python", text, syms, ["Keep it pure."], 6000)
    real = tokens.count(prompt)
    assert real <= counted <= real * 1.05 + 5
    assert "Source:\n<source>\ndef f0(x):" in prompt and "Keep it pure." in prompt


def test_a_long_source_is_cut_at_a_line_end_within_the_budget() -> None:
    text = "".join(f"value_{i} = compute({i}, {i + 1})\n" for i in range(5000))
    prompt, counted = build_prompt_counted("big.py", "python", text, [], [], 800)
    source = prompt.split("<source>\n", 1)[1].split("\n</source>", 1)[0]
    assert "Source (lines 1-" in prompt and "of 5000):" in prompt
    assert tokens.count(prompt) <= 800 + 60
    assert source.splitlines()[-1].startswith("value_") and source.splitlines()[-1].endswith(")")
