"""Reliability campaigns: repeatable attacks on a live server that count what was lost.

Each campaign (`codebreakers campaign NAME`) starts real `codebreakers serve` processes, does its
damage (SIGKILLs, a faulty network, junk frames, prying eyes, floods, an old database), then
checks the store and the frames against what the clients were promised, and prints a JSON
summary. The quick versions run in `tests/reliability/`; docs/reliability.md has the long runs.
"""
