"""The optional Anthropic API: a small client (`client`), per-file notes (`notes`: reading them,
storing people's) and their generation (`generation`: plan, estimate, run; with `offline` and
`prompt`).

Only `repomem.llm.client` imports the `anthropic` SDK, and only when a client is built, so
offline use never pays for the import.
"""
