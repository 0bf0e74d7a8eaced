"""The optional Anthropic API: a small client (`client`) and per-file notes (`notes`).

Only `repomem.llm.client` imports the `anthropic` SDK, and only when a client is built, so
offline use never pays for the import.
"""
