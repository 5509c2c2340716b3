"""How long the bots take to load, and how much memory they hold: model, vocabularies,
association lexicons (with their vectors) and keyword pools.

    OPENBLAS_NUM_THREADS=1 taskset -c 0 .venv/bin/python scripts/measure_bot_load.py

Run it in a fresh process (it measures from its own start): prints JSON with the seconds to
load the encoder, then every language's vocabulary, lexicon and keyword pool, the CPU seconds
(what a busy machine does not inflate), and the resident memory.
"""

from __future__ import annotations

import json
import sys
import time

STARTED = time.perf_counter()
CPU_STARTED = time.process_time()


def main() -> int:
    import psutil

    from codebreakers.bots.embeddings import encoder
    from codebreakers.bots.lexicon import lexicon
    from codebreakers.bots.vocab import LANGUAGES

    process = psutil.Process()
    rss0 = process.memory_info().rss
    encoder()
    model_s = time.perf_counter() - STARTED
    model_cpu_s = time.process_time() - CPU_STARTED
    per_language = {}
    per_language_cpu = {}
    for lang in LANGUAGES:
        before, cpu_before = time.perf_counter(), time.process_time()
        lexicon(lang)
        per_language[lang] = round(time.perf_counter() - before, 3)
        per_language_cpu[lang] = round(time.process_time() - cpu_before, 3)
    total = time.perf_counter() - STARTED
    result = {
        "model_s": round(model_s, 3),
        "language_s": per_language,
        "total_s": round(total, 3),
        "model_cpu_s": round(model_cpu_s, 3),
        "language_cpu_s": per_language_cpu,
        "total_cpu_s": round(time.process_time() - CPU_STARTED, 3),
        "rss_mb": round(process.memory_info().rss / 2**20, 1),
        "rss_before_mb": round(rss0 / 2**20, 1),
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
